#pragma once
// Dates as etbench writes them (results files, history rows): ISO 8601 in
// UTC to the second.

#include <cstdint>
#include <string>

namespace etbench {

/// "2024-05-01T12:34:56Z" for `unix_seconds` seconds since the Unix epoch.
std::string FormatUtcDate(int64_t unix_seconds);

}  // namespace etbench
