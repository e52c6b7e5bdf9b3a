#pragma once
// ETRecord: the zip archive ExecuTorch writes next to a model, read into
// plain data (no torch types) so that runtime events can be linked to graph
// nodes. See docs/etrecord.md for the format and what etbench accepts.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/inspector/etrecord_graph.h"

namespace etbench {

/// Archive entry names (ExecuTorch's ETRecordReservedFileNames).
inline constexpr const char kEtrecordMarkerEntry[] = "ETRECORD_V0";
inline constexpr const char kEtrecordEdgeProgramEntry[] =
    "edge_dialect_exported_program";
inline constexpr const char kEtrecordDebugHandleMapEntry[] = "debug_handle_map";
inline constexpr const char kEtrecordDelegateMapEntry[] = "delegate_map";

/// Largest JSON entry etbench reads (bounds memory on hostile archives).
inline constexpr std::uint64_t kEtrecordMaxJsonEntryBytes = 1ull << 30;

/// One instruction's entry in delegate_map: the backend and how the backend's
/// delegate debug identifiers map to debug handles.
struct DelegateMapping {
  std::string backend_name;  // "name"; "" when absent
  /// Delegate debug identifier -> debug handles, in file order (the order
  /// matters for the reference's substring fallback). Identifiers are JSON
  /// keys, hence always strings: an int id 5 is stored as "5".
  std::vector<std::pair<std::string, std::vector<int64_t>>> handles_by_id;
};

/// An ETRecord, reduced to one method.
struct Etrecord {
  std::string path;
  std::string method;
  /// Every archive entry, in archive order.
  std::vector<std::string> entries;
  /// Methods listed in debug_handle_map (empty for an empty or unkeyed map).
  std::vector<std::string> methods;
  /// Instruction id -> debug handles, for `method`.
  std::map<int32_t, std::vector<int64_t>> debug_handle_map;
  /// Instruction id -> delegate mapping, for `method`; nullopt when the
  /// archive has no delegate_map (or none for this method).
  std::optional<std::map<int32_t, DelegateMapping>> delegate_map;
  /// The edge-dialect program.
  OperatorGraph graph;
  /// Non-fatal problems while loading, one line each.
  std::vector<std::string> warnings;
};

/// Loads the ETRecord at `path` for `method`.
///
/// Requires the ETRECORD_V0 marker. Reads debug_handle_map and delegate_map
/// (JSON, keyed by method; an empty or legacy unkeyed map is accepted) and
/// the edge-dialect program from "edge_dialect_exported_program/<method>" or
/// else "edge_dialect_exported_program" (torch.export JSON). Weights, pickled
/// entries and the ATen graph are ignored.
///
/// Errors name the file and the entry: not a zip, no marker, a missing edge
/// program, malformed JSON, a value of the wrong type (with its JSON path),
/// a method that debug_handle_map does not list.
Result<Etrecord> LoadEtrecord(const std::string& path,
                              const std::string& method = "forward");

/// Same, from the archive's bytes; `display_name` stands for the path in
/// messages.
Result<Etrecord> LoadEtrecordFromBytes(const std::vector<uint8_t>& bytes,
                                       const std::string& display_name,
                                       const std::string& method = "forward");

}  // namespace etbench
