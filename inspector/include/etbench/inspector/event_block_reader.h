#pragma once
// EtdumpFile::Open followed by BuildEventBlocks, in one pass over the file.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/event_block.h"
#include "etbench/inspector/inspector.h"

namespace etbench {

/// Opens an ETDump and groups it into EventBlocks while it is verified: each
/// run is grouped right after the verifier has walked and checked it, while
/// its bytes are still in the cache, instead of in a second read of the
/// whole file. Open (or FromBytes) and then Finish give exactly what
/// EtdumpFile::Open (FromBytes) and then BuildEventBlocks(file, options)
/// give — the same file, blocks and warnings, and the same error from the
/// same step: every error of the file's verification and checks comes from
/// Open (even when an earlier run could not be grouped), every error of the
/// grouping (and an unusable pair of time scales) from Finish.
///
///   EventBlockReader reader(options);
///   Result<EtdumpFile> file = reader.Open(path);       // verified and grouped
///   ...                                                // file->warnings()
///   Result<std::vector<EventBlock>> blocks = reader.Finish();
class EventBlockReader {
 public:
  explicit EventBlockReader(InspectorOptions options);
  ~EventBlockReader();
  EventBlockReader(const EventBlockReader&) = delete;
  EventBlockReader& operator=(const EventBlockReader&) = delete;

  /// EtdumpFile::Open(path), grouping each run as it is verified.
  Result<EtdumpFile> Open(const std::string& path);
  /// EtdumpFile::FromBytes(bytes, source_name), grouping likewise.
  Result<EtdumpFile> FromBytes(std::vector<uint8_t> bytes,
                               std::string source_name = "<memory>");
  /// The blocks of the file the last successful Open or FromBytes returned:
  /// BuildEventBlocks(file, options). Once per Open; an error without one.
  Result<std::vector<EventBlock>> Finish();

 private:
  class Grouping;  // the VerifiedRunSink (event_block_reader.cc)
  template <typename OpenFn>
  Result<EtdumpFile> Start(const std::string& source_name, OpenFn open);

  // Resolved options (target time scale filled in); the grouping keeps a
  // reference to them, so they live on the heap with it.
  std::unique_ptr<InspectorOptions> options_;
  std::unique_ptr<Grouping> grouping_;  // null when the time scales are unusable
  std::optional<EtdumpFile> file_;      // opened, not yet finished
  Error time_scale_error_;
};

}  // namespace etbench
