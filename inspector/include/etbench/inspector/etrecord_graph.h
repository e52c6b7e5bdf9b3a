#pragma once
// The operator graph of an ETRecord: the edge-dialect program's call_function
// nodes, reduced to what profiling needs (no torch types), and the string
// encodings torch.export uses for node metadata.
//
// torch.export serializes node metadata as strings (see docs/etrecord.md):
//   debug_handle     "7", or a Python tuple/list "(7, 8)" / "[7, 8]", "None"
//   stack_trace      Python traceback text, kept verbatim
//   nn_module_stack  "key,path,type;key,path,type" (outermost first); commas
//                    inside (...) or [...] belong to the field; the legacy
//                    "key:(path,type)" item form is accepted too
//   source_fn_stack  "name,target;name,target"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/inspector/event_block.h"

namespace etbench {

/// One entry of a node's source_fn_stack: the FX name of the call the node
/// came from and its callable (e.g. {"linear",
/// "torch.nn.modules.linear.Linear"}).
struct SourceFn {
  std::string name;
  std::string target;
};

bool operator==(const SourceFn& a, const SourceFn& b);

/// Field-wise equality of module frames.
bool SameModuleFrame(const ModuleFrame& a, const ModuleFrame& b);

/// One call_function node of the edge-dialect graph.
struct GraphNode {
  /// FX node name, e.g. "aten_convolution_default". (The reference Inspector
  /// appends "_" to node names; etbench does not.)
  std::string name;
  /// As serialized, e.g. "executorch.exir.dialects.edge.ops.aten.mul.Tensor".
  std::string target;
  /// ShortOpName(target), e.g. "aten.mul.Tensor".
  std::string op_type;
  std::vector<int64_t> debug_handles;     // empty when the node has none
  std::string stack_trace;                // "" when absent
  std::vector<ModuleFrame> module_stack;  // outermost first
  std::vector<SourceFn> source_fn_stack;  // outermost first
  /// Names of the tensors the node reads (graph inputs or other nodes).
  std::vector<std::string> inputs;
  /// False for getitem / memory.alloc bookkeeping nodes, which (as in the
  /// reference) are never linked to events.
  bool is_operator = true;
};

/// The edge-dialect program of one method.
struct OperatorGraph {
  std::string entry;                 // archive entry it was read from
  std::vector<std::string> inputs;   // graph input tensor names
  std::vector<std::string> outputs;  // graph output tensor names
  std::vector<GraphNode> nodes;      // in graph (execution) order
  /// Debug handle -> indices into `nodes` of the operator nodes carrying it,
  /// in graph order. Built by IndexDebugHandles.
  std::map<int64_t, std::vector<std::size_t>> nodes_by_handle;
  /// Non-fatal problems (unparseable cosmetic metadata), one line each.
  std::vector<std::string> warnings;
};

/// Rebuilds graph.nodes_by_handle from the nodes' debug handles. Unlike the
/// reference (which raises), several nodes may share a handle.
void IndexDebugHandles(OperatorGraph& graph);

/// Parses torch.export's JSON serialization of an ExportedProgram. Reads
/// graph_module.graph.{nodes,inputs,outputs}; each node's target, metadata,
/// inputs, outputs and optional name. Errors name `entry` and the JSON path
/// ("entry 'X': graph_module.graph.nodes[3].target: expected a string, got
/// number"). Unparseable nn_module_stack / source_fn_stack strings are
/// warnings (the field stays empty); a bad debug_handle is an error.
Result<OperatorGraph> ParseOperatorGraph(std::string_view json_text,
                                         const std::string& entry);

/// Short operator name of a serialized target: the edge/backend dialect and
/// "torch.ops." prefixes dropped ("aten.convolution.default"),
/// "torch.ops.higher_order.X" -> "X", other dotted Python paths -> their
/// last component ("_operator.getitem" -> "getitem").
std::string ShortOpName(std::string_view target);

/// The edge-dialect target path of a short op name:
/// "aten.mul.Tensor" -> "executorch.exir.dialects.edge.ops.aten.mul.Tensor".
std::string EdgeDialectTarget(std::string_view op_type);

/// Parses a serialized debug_handle ("7", "(7, 8)", "[7]", "None" -> {}).
/// The error says what was expected; callers add the location.
Result<std::vector<int64_t>> ParseDebugHandleString(std::string_view text);

/// Inverse of ParseDebugHandleString: "7" for one handle, "(7, 8)" for more
/// (Python's str() of an int / tuple), "None" for none.
std::string FormatDebugHandleString(const std::vector<int64_t>& handles);

/// Parses a serialized nn_module_stack ("" -> {}).
Result<std::vector<ModuleFrame>> ParseModuleStackString(std::string_view text);

/// Serializes frames as torch.export does ("key,path,type;..."). Fails when a
/// frame would not parse back to itself (a ';' anywhere, a top-level ',' or
/// unbalanced brackets in a field, an empty key).
Result<std::string> FormatModuleStackString(
    const std::vector<ModuleFrame>& frames);

/// Parses a serialized source_fn_stack ("" -> {}).
Result<std::vector<SourceFn>> ParseSourceFnStackString(std::string_view text);

/// Serializes as torch.export does ("name,target;..."). Fails when a field
/// holds ',' or ';' or is empty.
Result<std::string> FormatSourceFnStackString(
    const std::vector<SourceFn>& stack);

/// "file.py:18" for the innermost 'File "...", line N' frame of a Python
/// stack trace (basename only); "" when there is none.
std::string StackTraceLocation(std::string_view stack_trace);

/// Dotted module path of a frame list: the innermost frame's path, or its key
/// when the path is empty; "" for no frames.
std::string ModulePathOf(const std::vector<ModuleFrame>& frames);

}  // namespace etbench
