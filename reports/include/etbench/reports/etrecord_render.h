#pragma once
// Plain-text views of ETRecord data: the graph summary behind
// `etbench inspect --show_graph`, the module tree and op-type groups behind
// `--group_by module|op_type`. Renderers only format finished data.

#include <string>
#include <string_view>
#include <vector>

#include "etbench/inspector/etrecord.h"
#include "etbench/inspector/module_tree.h"

namespace etbench {

/// A readable summary of the program (in place of the reference's
/// get_exported_program): archive entries, graph inputs/outputs, one row per
/// node (index, name, op type, debug handles, module path, source location),
/// then the instruction -> handles map with the delegate backends.
std::string RenderGraphSummary(const Etrecord& etrecord);

/// The module tree, indented two spaces per level, with total, self, share
/// of the root total and event count per module; `unit` labels the times
/// (e.g. "ms").
std::string RenderModuleTree(const ModuleTree& tree, std::string_view unit);

/// One row per op-type group: total, event count, average per event.
std::string RenderOpTypeGroups(const std::vector<OpTypeGroup>& groups,
                               std::string_view unit);

/// How renderers print a time: 4 decimals below 1000, 1 above.
std::string FormatEtrecordTime(double value);

}  // namespace etbench
