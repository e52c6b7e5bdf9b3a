// The string encodings torch.export uses for node metadata, and short op
// names. Formats follow torch/_export/serde/serialize.py (serialize_metadata
// / deserialize_metadata) and executorch/exir/serde/serialize.py
// (debug_handle = str(handle)).

#include <cerrno>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "etbench/inspector/etrecord_graph.h"

namespace etbench {
namespace {

constexpr std::string_view kEdgeOpsPrefix =
    "executorch.exir.dialects.edge.ops.";
constexpr std::string_view kBackendOpsPrefix =
    "executorch.exir.dialects.backend.ops.";
constexpr std::string_view kHigherOrderPrefix = "torch.ops.higher_order.";
constexpr std::string_view kTorchOpsPrefix = "torch.ops.";
constexpr char kItemDelimiter = ';';  // torch's ST_DELIMITER

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' ||
                        s.front() == '\n' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' ||
                        s.back() == '\n' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

std::vector<std::string_view> SplitPlain(std::string_view s, char delimiter) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == delimiter) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

// Splits on commas outside (...) and [...], as torch's metadata_split does
// (paths such as "layers.slice(1, None, None)" hold commas).
std::vector<std::string_view> SplitTopLevel(std::string_view s) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 0) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(s.substr(start));
  return parts;
}

bool ParseInt64(std::string_view text, int64_t* out) {
  text = Trim(text);
  if (text.empty() || text.size() > 20) return false;
  std::size_t i = (text[0] == '-' || text[0] == '+') ? 1 : 0;
  if (i == text.size()) return false;
  for (std::size_t j = i; j < text.size(); ++j) {
    if (text[j] < '0' || text[j] > '9') return false;
  }
  const std::string copy(text);
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(copy.c_str(), &end, 10);
  if (errno != 0) return false;
  *out = value;
  return true;
}

std::string Quote(std::string_view s) { return "'" + std::string(s) + "'"; }

bool HasBalancedBrackets(std::string_view s) {
  int depth = 0;
  for (char c : s) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (depth < 0) return false;
  }
  return depth == 0;
}

}  // namespace

bool operator==(const SourceFn& a, const SourceFn& b) {
  return a.name == b.name && a.target == b.target;
}

bool SameModuleFrame(const ModuleFrame& a, const ModuleFrame& b) {
  return a.key == b.key && a.path == b.path && a.module_type == b.module_type;
}

std::string ShortOpName(std::string_view target) {
  for (std::string_view prefix : {kEdgeOpsPrefix, kBackendOpsPrefix,
                                  kHigherOrderPrefix, kTorchOpsPrefix}) {
    if (StartsWith(target, prefix) && target.size() > prefix.size()) {
      return std::string(target.substr(prefix.size()));
    }
  }
  const auto dot = target.rfind('.');
  if (dot != std::string_view::npos && dot + 1 < target.size()) {
    return std::string(target.substr(dot + 1));
  }
  return std::string(target);
}

std::string EdgeDialectTarget(std::string_view op_type) {
  return std::string(kEdgeOpsPrefix) + std::string(op_type);
}

Result<std::vector<int64_t>> ParseDebugHandleString(std::string_view text) {
  const std::string_view t = Trim(text);
  int64_t single = 0;
  if (ParseInt64(t, &single)) return std::vector<int64_t>{single};
  if (t == "None") return std::vector<int64_t>{};
  const bool tuple = t.size() >= 2 && ((t.front() == '(' && t.back() == ')') ||
                                       (t.front() == '[' && t.back() == ']'));
  if (tuple) {
    std::vector<int64_t> handles;
    const auto parts = SplitPlain(t.substr(1, t.size() - 2), ',');
    for (std::size_t i = 0; i < parts.size(); ++i) {
      // "(3,)" ends with an empty item; "()" has one empty item.
      if (Trim(parts[i]).empty() && i + 1 == parts.size()) break;
      int64_t handle = 0;
      if (!ParseInt64(parts[i], &handle)) {
        return InputError("expected an integer or a tuple of integers, got " +
                          Quote(text));
      }
      handles.push_back(handle);
    }
    return handles;
  }
  return InputError("expected an integer or a tuple of integers, got " +
                    Quote(text));
}

std::string FormatDebugHandleString(const std::vector<int64_t>& handles) {
  if (handles.empty()) return "None";
  if (handles.size() == 1) return std::to_string(handles[0]);
  std::string out = "(";
  for (std::size_t i = 0; i < handles.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(handles[i]);
  }
  return out + ")";
}

Result<std::vector<ModuleFrame>> ParseModuleStackString(std::string_view text) {
  std::vector<ModuleFrame> frames;
  if (Trim(text).empty()) return frames;
  for (std::string_view item : SplitPlain(text, kItemDelimiter)) {
    const auto parts = SplitTopLevel(item);
    if (parts.size() == 3 && !parts[0].empty()) {
      frames.push_back(ModuleFrame{std::string(parts[0]), std::string(parts[1]),
                                   std::string(parts[2])});
      continue;
    }
    // Legacy torch.export (2023): "key:(path,type)".
    const auto open = item.find(":(");
    if (open != std::string_view::npos && open > 0 && item.back() == ')') {
      const auto inner =
          SplitTopLevel(item.substr(open + 2, item.size() - open - 3));
      if (inner.size() == 2) {
        frames.push_back(ModuleFrame{std::string(item.substr(0, open)),
                                     std::string(inner[0]),
                                     std::string(inner[1])});
        continue;
      }
    }
    return InputError("nn_module_stack item " + Quote(item) +
                      ": expected 'key,path,type'");
  }
  return frames;
}

Result<std::string> FormatModuleStackString(
    const std::vector<ModuleFrame>& frames) {
  std::string out;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const ModuleFrame& f = frames[i];
    const std::string item = f.key + "," + f.path + "," + f.module_type;
    const auto parts = SplitTopLevel(item);
    const bool ok =
        !f.key.empty() && item.find(kItemDelimiter) == std::string::npos &&
        parts.size() == 3 && parts[0] == f.key && parts[1] == f.path &&
        parts[2] == f.module_type && HasBalancedBrackets(f.key) &&
        HasBalancedBrackets(f.path) && HasBalancedBrackets(f.module_type);
    if (!ok) {
      return InputError("module frame " + std::to_string(i) + " (" + item +
                        ") cannot be encoded: a ';', a ',' outside brackets, "
                        "unbalanced brackets or an empty key");
    }
    if (i > 0) out += kItemDelimiter;
    out += item;
  }
  return out;
}

Result<std::vector<SourceFn>> ParseSourceFnStackString(std::string_view text) {
  std::vector<SourceFn> stack;
  if (Trim(text).empty()) return stack;
  for (std::string_view item : SplitPlain(text, kItemDelimiter)) {
    const auto parts = SplitPlain(item, ',');
    if (parts.size() != 2) {
      return InputError("source_fn_stack item " + Quote(item) +
                        ": expected 'name,target'");
    }
    stack.push_back(SourceFn{std::string(parts[0]), std::string(parts[1])});
  }
  return stack;
}

Result<std::string> FormatSourceFnStackString(
    const std::vector<SourceFn>& stack) {
  std::string out;
  for (std::size_t i = 0; i < stack.size(); ++i) {
    for (const std::string* field : {&stack[i].name, &stack[i].target}) {
      if (field->empty() || field->find_first_of(",;") != std::string::npos) {
        return InputError("source_fn_stack entry " + std::to_string(i) + " (" +
                          stack[i].name + "," + stack[i].target +
                          ") cannot be encoded: fields must be non-empty "
                          "and hold no ',' or ';'");
      }
    }
    if (i > 0) out += kItemDelimiter;
    out += stack[i].name + "," + stack[i].target;
  }
  return out;
}

std::string StackTraceLocation(std::string_view stack_trace) {
  // Python frames read: File "/path/model.py", line 18, in forward
  constexpr std::string_view kFile = "File \"";
  const auto file_at = stack_trace.rfind(kFile);
  if (file_at == std::string_view::npos) return "";
  const auto name_from = file_at + kFile.size();
  const auto name_end = stack_trace.find('"', name_from);
  if (name_end == std::string_view::npos) return "";
  std::string_view file = stack_trace.substr(name_from, name_end - name_from);
  const auto slash = file.rfind('/');
  if (slash != std::string_view::npos) file.remove_prefix(slash + 1);
  std::string location(file);
  constexpr std::string_view kLine = ", line ";
  if (stack_trace.substr(name_end + 1, kLine.size()) == kLine) {
    std::size_t i = name_end + 1 + kLine.size();
    std::string digits;
    while (i < stack_trace.size() && stack_trace[i] >= '0' &&
           stack_trace[i] <= '9') {
      digits += stack_trace[i++];
    }
    if (!digits.empty()) location += ":" + digits;
  }
  return location;
}

std::string ModulePathOf(const std::vector<ModuleFrame>& frames) {
  if (frames.empty()) return "";
  const ModuleFrame& inner = frames.back();
  return inner.path.empty() ? inner.key : inner.path;
}

}  // namespace etbench
