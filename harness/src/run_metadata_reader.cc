#include "run_metadata_reader.h"

#include <fstream>
#include <sstream>

namespace etbench::harness {

void ApplyRunMetadata(const RunMetadata& metadata, RepetitionOutput* out) {
  out->time_source = metadata.time_source;
  out->tick_rate_hz = metadata.tick_rate_hz;
  for (const SidecarDelegate& d : metadata.delegates) {
    out->delegate_time_sources.push_back(d.time_source);
  }
}

Status ReadRunMetadataInto(const std::string& path, RepetitionOutput* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  auto metadata = ParseRunMetadata(text.str(), path);
  if (!metadata) return InputError("invalid run metadata: " + metadata.error().message);
  ApplyRunMetadata(*metadata, out);
  return Ok{};
}

}  // namespace etbench::harness
