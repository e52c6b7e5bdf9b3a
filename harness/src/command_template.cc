// argv templates of the command runner: {placeholder} substitution, no
// shell, {args} splicing.
#include <algorithm>

#include "etbench/harness/runner.h"

namespace etbench::harness {
namespace {

// Walks one element; calls `on_placeholder(name)` for each {name} and
// `on_text(char)` for literal characters. Errors name the element.
template <typename OnText, typename OnPlaceholder>
Status ScanElement(const std::string& element, OnText on_text, OnPlaceholder on_placeholder) {
  for (std::size_t i = 0; i < element.size(); ++i) {
    const char c = element[i];
    if (c == '{' && i + 1 < element.size() && element[i + 1] == '{') {
      on_text('{');
      ++i;
    } else if (c == '}' && i + 1 < element.size() && element[i + 1] == '}') {
      on_text('}');
      ++i;
    } else if (c == '{') {
      const auto close = element.find('}', i);
      if (close == std::string::npos) {
        return InputError("command element '" + element +
                          "': '{' without '}' (write '{{' for a brace)");
      }
      const std::string name = element.substr(i + 1, close - i - 1);
      const auto& known = CommandPlaceholders();
      if (std::find(known.begin(), known.end(), name) == known.end()) {
        std::string list;
        for (const std::string& k : known) list += (list.empty() ? "{" : ", {") + k + "}";
        return InputError("command element '" + element + "': unknown placeholder {" + name +
                          "} (known: " + list + ")");
      }
      if (name == "args" && element != "{args}") {
        return InputError("command element '" + element + "': {args} must be a whole argv element");
      }
      if (Status s = on_placeholder(name); !s) return s;
      i = close;
    } else if (c == '}') {
      return InputError("command element '" + element +
                        "': '}' without '{' (write '}}' for a brace)");
    } else {
      on_text(c);
    }
  }
  return Ok{};
}

}  // namespace

const std::vector<std::string>& CommandPlaceholders() {
  static const std::vector<std::string> kNames = {
      "model",      "name",   "etdump",     "debug_output", "workdir",
      "iterations", "warmup", "repetition", "time_source",  "args"};
  return kNames;
}

Status CheckCommandTemplate(const std::vector<std::string>& argv) {
  for (const std::string& element : argv) {
    Status s = ScanElement(
        element, [](char) {}, [](const std::string&) -> Status { return Ok{}; });
    if (!s) return s;
  }
  return Ok{};
}

Result<std::vector<std::string>> ExpandCommandTemplate(
    const std::vector<std::string>& argv, const std::map<std::string, std::string>& values,
    const std::vector<std::string>& args) {
  std::vector<std::string> expanded;
  expanded.reserve(argv.size() + args.size());
  for (const std::string& element : argv) {
    if (element == "{args}") {
      expanded.insert(expanded.end(), args.begin(), args.end());
      continue;
    }
    std::string out;
    Status s = ScanElement(
        element, [&out](char c) { out += c; },
        [&out, &values, &element](const std::string& name) -> Status {
          auto it = values.find(name);
          if (it == values.end()) {
            return InputError("command element '" + element + "': no value for {" + name + "}");
          }
          out += it->second;
          return Ok{};
        });
    if (!s) return s.error();
    expanded.push_back(std::move(out));
  }
  return expanded;
}

}  // namespace etbench::harness
