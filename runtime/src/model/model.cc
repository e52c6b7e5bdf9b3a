#include "etbench/runtime/model.h"

namespace etbench::runtime {

std::string FormatLocation(const SourceLocation& location) {
  if (location.line <= 0) return location.file;
  return location.file + ":" + std::to_string(location.line) + ":" +
         std::to_string(location.column);
}

int FindNode(const Model& model, const std::string& name) {
  for (std::size_t i = 0; i < model.nodes.size(); ++i) {
    if (model.nodes[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace etbench::runtime
