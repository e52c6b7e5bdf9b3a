#pragma once
// The ETRecord of a built-in model: what ExecuTorch would write next to the
// program when exporting it, built from the model YAML and the runtime's own
// lowering, so that every built-in run can be symbolicated (op types, stack
// traces pointing at the YAML, module paths) by `etbench inspect
// --etrecord_path` and etbench::Symbolicate.
//
// The edge program has one node per edge-dialect op, as to_edge leaves it:
//   - a node on the portable kernels: one node per kernel it lowers to — a
//     linear becomes aten.permute_copy.default (`<node>_permute_copy`) then
//     aten.addmm.default / aten.mm.default (`<node>`); every other op is one
//     node (conv2d -> aten.convolution.default, relu6 ->
//     aten.hardtanh.default, add -> aten.add.Tensor, ...);
//   - a delegated node: one node; a delegated linear stays
//     aten.linear.default (a partitioner keeps the ops it claims whole, as
//     to_edge_transform_and_lower does);
//   - reshape / flatten: aten.view_copy.default (no instruction links to it);
//   - after each delegate partition's nodes, the call of the lowered module
//     (`executorch_call_delegate`, target
//     torch.ops.higher_order.executorch_call_delegate), as to_backend leaves
//     it: no module, source or stack information.
// Debug handles are 1, 2, ... in that node order. Every other node carries
// its model node's module frames (NodeModuleFrames), source_fn_stack and a
// stack trace `File "<model path>", line N, in <node name>` followed by the
// node's YAML line.
//
// debug_handle_map: a kernel instruction -> the handle of the edge node it
// runs (the permute_copy and the addmm of a linear: one each, both in the
// linear's module); a DELEGATE_CALL -> its executorch_call_delegate node.
// delegate_map: DELEGATE_CALL instruction -> {name: the delegate's
// `backend:`, delegate_map: delegate debug id -> handles of the nodes of that
// delegate op (an activation fused into the op before it: both nodes)}, with
// the very ids the reference delegate logs (int ids as decimal strings).
// So module totals count every op once, and a delegated op by its own event.

#include <cstddef>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/inspector/etrecord_writer.h"
#include "etbench/runtime/model.h"

namespace etbench::runtime {

/// The torch.nn class an op corresponds to ("torch.nn.modules.conv.Conv2d"
/// for conv2d), or "" for ops that are plain functions in PyTorch (matmul,
/// add, mul, permute, reshape).
std::string OpModuleClass(OpType op);

/// Type of module `path` in `model`: its entry in `module_types:`, else the
/// `module_type:` a node of that module declares; else the torch.nn class of
/// the ops of the nodes whose module it is, when they all agree; else
/// "torch.nn.modules.module.Module".
std::string ModuleTypeOf(const Model& model, const std::string& path);

/// Module frames of node `index`, outermost first, as torch.export records
/// them (keys "L__self___features", "L__self___features_conv1"; types from
/// ModuleTypeOf). Empty for a node of the root module (`module: ''`).
std::vector<ModuleFrame> NodeModuleFrames(const Model& model,
                                          std::size_t index);

/// The ETRecord contents of a loaded (valid) model, for method "forward",
/// instruction ids as RunModel executes them.
Result<EtrecordSpec> BuildModelEtrecord(const Model& model);

/// BuildModelEtrecord, then etbench::WriteEtrecord (atomic). Errors name the
/// path.
Status WriteModelEtrecord(const Model& model, const std::string& path);

}  // namespace etbench::runtime
