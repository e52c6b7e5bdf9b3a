#pragma once
// The one JSON writer: small, fast text helpers for the files etbench writes
// (results, summaries): exact doubles, escaped strings that are always valid
// UTF-8.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace etbench {

/// Appends `s` as a JSON string; invalid UTF-8 bytes become U+FFFD.
void AppendJsonString(std::string* out, std::string_view s);

/// Shortest text that reads back to the same double; non-finite → null.
void AppendJsonNumber(std::string* out, double value);
void AppendJsonInt(std::string* out, int64_t value);

/// [a, b, c] on one line.
void AppendJsonNumberArray(std::string* out, const std::vector<double>& values);
void AppendJsonIntArray(std::string* out, const std::vector<int64_t>& values);
void AppendJsonUintArray(std::string* out, const std::vector<uint64_t>& values);
void AppendJsonStringArray(std::string* out, const std::vector<std::string>& values);

}  // namespace etbench
