// Event trees → collapsed ("folded") stacks for flame graph tools.

#include "etbench/reports/collapsed_stacks.h"

#include <cmath>
#include <map>

#include "etbench/inspector/event_tree.h"

namespace etbench::reports {
namespace {

// Frames are separated by ';' and the value by the last space: keep names
// from breaking either rule.
std::string Frame(const std::string& name) {
  std::string out = name.empty() ? "?" : name;
  for (char& c : out) {
    if (c == ';') c = ':';
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  return out;
}

}  // namespace

std::string RenderCollapsedStacks(const std::vector<TraceSource>& sources,
                                  const CollapsedStacksOptions& options) {
  std::map<std::string, double> self_by_stack;
  for (const TraceSource& source : sources) {
    const std::string source_prefix = options.prefix_source ? Frame(source.name) + ";" : "";
    for (const BlockEventTrees& block_trees : BuildEventTrees(source.blocks)) {
      const EventBlock& block = source.blocks[block_trees.block_index];
      const std::string prefix =
          source_prefix + (options.prefix_block ? Frame(block.name) + ";" : "");
      for (const RunEventTree& run : block_trees.runs) {
        if (options.run && *options.run != run.run) continue;
        std::vector<std::string> stacks(run.nodes.size());
        for (std::size_t i = 0; i < run.nodes.size(); ++i) {
          const EventTreeNode& node = run.nodes[i];
          const std::string frame = Frame(block.events[node.event_index].name);
          stacks[i] = node.parent < 0 ? prefix + frame
                                      : stacks[static_cast<std::size_t>(node.parent)] + ";" + frame;
          self_by_stack[stacks[i]] += node.self;
        }
      }
    }
  }
  std::string out;
  for (const auto& [stack, self] : self_by_stack) {
    const long long value = std::llround(self);
    if (value <= 0) continue;
    out += stack + " " + std::to_string(value) + "\n";
  }
  return out;
}

}  // namespace etbench::reports
