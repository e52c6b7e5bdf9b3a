#pragma once
// The string spelling of JsonSpelling::kShortest, shared by the writer and
// the reader's messages and Dump (private to base).

#include <string>
#include <string_view>

namespace etbench::internal {

/// Appends `s` as a JSON string: '"', '\\', \n, \r and \t escaped by name,
/// every other control character and DEL as \u00XX; each byte that is not
/// UTF-8 on its own becomes U+FFFD.
void AppendShortestJsonString(std::string* out, std::string_view s);

}  // namespace etbench::internal
