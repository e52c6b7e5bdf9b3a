#pragma once
// Entry point of the inspector library: ETDump (+ optional debug buffer) in,
// EventBlocks out.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/event_block.h"
#include "etbench/inspector/time_scale.h"

namespace etbench {

/// Converts a delegated event's elapsed ticks (already wrap-corrected, in the
/// delegate's own unit) to the target time scale. etbench applies it to the
/// elapsed tick count, not to each timestamp (the reference's choice, which
/// loses precision on epoch-sized clocks).
using DelegateTimeConverter =
    std::function<double(const std::string& event_name, uint64_t elapsed)>;

/// Parses one Event's raw delegate metadata (one entry per run) into named
/// fields shown with --include_delegate_debug_data.
using DelegateMetadataParser = std::function<std::map<std::string, std::string>(
    const std::vector<std::vector<uint8_t>>& metadatas)>;

struct InspectorOptions {
  TimeScale source_time_scale = TimeScale::kNs;
  /// Defaults to DefaultTargetTimeScale(source_time_scale).
  std::optional<TimeScale> target_time_scale;
  /// Tensor bytes referenced by debug events (the debug buffer file).
  std::optional<std::vector<uint8_t>> debug_buffer;
  /// Default: the same factor as non-delegated events.
  DelegateTimeConverter delegate_time_converter;
  DelegateMetadataParser delegate_metadata_parser;
};

/// Groups a verified ETDump into EventBlocks (see docs for the rules). Runs
/// without an events vector (ETDumpGen's blocks in which nothing was logged)
/// make no block; an explicitly empty vector makes a 0-event block. Tensors
/// of 0 bytes (ETDumpGen writes them at offset -1) are empty values.
/// Errors: time-scale mismatch, a backwards timestamp pair that is not a
/// 32-bit wrap, debug data that differs between merged runs, a tensor that
/// points outside the debug buffer or whose byte size overflows 64 bits.
/// Each message names the event and block.
Result<std::vector<EventBlock>> BuildEventBlocks(const EtdumpFile& file,
                                                 const InspectorOptions& options);

/// Elapsed ticks of an event, with the 32-bit counter wrap rule
/// (2^32 − start + end when end < start and both fit in 32 bits).
/// nullopt when end < start otherwise.
std::optional<uint64_t> ElapsedTicks(uint64_t start, uint64_t end);

/// Framework tax of each run of a block in percent:
/// (Method::execute − Σ native_call_* / DELEGATE_CALL / delegate_execute)
/// / Method::execute × 100, computed in raw ticks. nullopt when the block
/// has no Method::execute event. BuildEventBlocks fills
/// EventBlock::framework_tax with it.
std::optional<PerfData> FrameworkTaxOfBlock(const EventBlock& block);

}  // namespace etbench
