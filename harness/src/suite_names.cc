#include "suite_names.h"

#include "etbench/base/atomic_file.h"

namespace etbench::harness {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string NameProblem(const std::string& name, const char* what) {
  const std::string quoted = std::string(what) + " name '" + name + "'";
  if (name.empty()) return std::string(what) + " name is empty";
  if (name.size() > 128) return quoted + " is longer than 128 bytes";
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.' || c == '+';
    if (!ok) return quoted + " may only use letters, digits, '_', '-', '.', '+'";
  }
  if (name.front() == '.') return quoted + " may not start with '.'";
  if (IsRunFileName(name)) {
    return quoted + " has the form of etbench's temporary files (NAME.tmp.PID)";
  }
  const std::string lower = Lower(name);
  if (EndsWith(lower, ".json")) {
    return quoted + " may not end in '.json' (etbench's results files in the output directory)";
  }
  for (const char* reserved : {"ab", "confirm", "sessions"}) {
    if (lower == reserved) {
      return quoted + " is the name of a directory etbench keeps in the output directory";
    }
  }
  return "";
}

std::string SameNameIgnoringCase(const std::vector<std::string>& names, const std::string& name) {
  const std::string lower = Lower(name);
  for (const std::string& other : names) {
    if (Lower(other) == lower) return other;
  }
  return "";
}

}  // namespace etbench::harness
