#include "run_metadata_reader.h"

#include "etbench/base/input_file.h"

namespace etbench::harness {

void ApplyRunMetadata(const RunMetadata& metadata, RepetitionOutput* out) {
  out->time_source = metadata.time_source;
  out->tick_rate_hz = metadata.tick_rate_hz;
  for (const SidecarDelegate& d : metadata.delegates) {
    out->delegate_time_sources.push_back(d.time_source);
  }
}

Status ReadRunMetadataInto(const std::string& path, RepetitionOutput* out) {
  // A regular file of bounded size (a FIFO or a directory is refused).
  auto text = ReadTextFile(path);
  if (!text) return text.error();
  auto metadata = ParseRunMetadata(*text, path);
  if (!metadata) return InputError("invalid run metadata: " + metadata.error().message);
  ApplyRunMetadata(*metadata, out);
  return Ok{};
}

}  // namespace etbench::harness
