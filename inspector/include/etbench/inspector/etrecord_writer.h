#pragma once
// Writing ETRecords: the built-in runtime describes its model and execution
// plan, and gets an archive with the same entries and JSON shapes as the
// ETRecords ExecuTorch writes (ETRECORD_V0 marker, edge-dialect program as
// torch.export JSON, debug_handle_map and delegate_map keyed by method), so
// LoadEtrecord/Symbolicate treat both alike.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/inspector/etrecord_graph.h"
#include "etbench/inspector/event_block.h"

namespace etbench {

/// One call_function node of the program.
struct EtrecordNodeSpec {
  std::string name;  // unique, non-empty; also the output tensor's name
  /// Full target, e.g. EdgeDialectTarget("aten.convolution.default").
  std::string target;
  std::vector<int64_t> debug_handles;     // usually one
  std::string stack_trace;                // "" for none
  std::vector<ModuleFrame> module_stack;  // outermost first
  std::vector<SourceFn> source_fn_stack;
  /// Tensor names read: graph inputs or earlier nodes.
  std::vector<std::string> inputs;
  /// Output shape, written to tensor_values (empty: unknown).
  std::vector<int64_t> output_sizes;
};

/// One instruction's delegate: backend name and delegate debug identifier
/// (int or string) -> debug handles, written in this order.
struct EtrecordDelegateSpec {
  std::string backend_name;
  std::vector<std::pair<DelegateDebugId, std::vector<int64_t>>> handles_by_id;
};

struct EtrecordSpec {
  std::string method = "forward";
  std::vector<std::string> graph_inputs;   // input tensor names
  std::vector<std::string> graph_outputs;  // output tensor names
  std::vector<EtrecordNodeSpec> nodes;     // in execution order
  /// Instruction id -> debug handles.
  std::map<int32_t, std::vector<int64_t>> debug_handle_map;
  /// Instruction id -> delegate (DELEGATE_CALL instructions only).
  std::map<int32_t, EtrecordDelegateSpec> delegate_map;
};

/// Module frames for a dotted module path, one per prefix, outermost first,
/// with keys as torch.export (strict) names them: "layer1.0" ->
/// {L__self___layer1, layer1}, {L__self___layer1_0, layer1.0}. `types[i]` is
/// the type of the i-th frame ("" when missing). Empty path: no frames.
std::vector<ModuleFrame> ModuleFramesForPath(
    const std::string& dotted_path, const std::vector<std::string>& types = {});

/// The archive bytes: entries ETRECORD_V0, edge_dialect_exported_program
/// (for "forward"; edge_dialect_exported_program/<method> otherwise),
/// debug_handle_map, delegate_map; stored uncompressed as ExecuTorch does,
/// with fixed timestamps so equal specs give equal bytes. No weights and no
/// pickled entries. Errors: empty or duplicate node names, a delegate id
/// that is unset, metadata that would not parse back (see
/// FormatModuleStackString).
Result<std::vector<uint8_t>> SerializeEtrecord(const EtrecordSpec& spec);

/// SerializeEtrecord, then an atomic write (temporary file + rename).
Status WriteEtrecord(const EtrecordSpec& spec, const std::string& path);

}  // namespace etbench
