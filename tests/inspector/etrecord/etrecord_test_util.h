#pragma once
// Helpers for the ETRecord tests: raw zip archives (for malformed ETRecords
// the writer refuses to produce) and a small realistic model spec; with the
// hand-built Events and EventBlocks of support/event_blocks.h.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "etbench/inspector/etrecord_writer.h"
#include "etbench/inspector/event_block.h"
#include "support/event_blocks.h"

namespace etbench::testing {

using ZipEntries = std::vector<std::pair<std::string, std::string>>;

/// Writes a zip archive holding `entries` (name, content) in order.
void WriteRawZip(const std::string& path, const ZipEntries& entries);

/// Reads every entry of a zip archive, in archive order.
ZipEntries ReadRawZip(const std::string& path);

ModuleFrame Frame(const std::string& key, const std::string& path,
                  const std::string& type);

/// A minimal torch.export program JSON around `nodes_json` (a JSON array
/// text), in the newer style where Arguments list only their set field.
std::string ProgramJson(const std::string& nodes_json);

/// The entries of a valid ETRecord whose entries may then be replaced:
/// marker, program (one node "n0" with handle 1), both maps (forward).
ZipEntries ValidEntries();

/// Replaces (or appends) entry `name`.
ZipEntries WithEntry(ZipEntries entries, const std::string& name,
                     const std::string& content);

/// Removes entry `name`.
ZipEntries WithoutEntry(ZipEntries entries, const std::string& name);

}  // namespace etbench::testing
