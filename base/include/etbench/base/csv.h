#pragma once
// CSV fields (RFC 4180), shared by every delimited output.

#include <string>
#include <string_view>

namespace etbench {

/// `text` as one field: quoted (with quotes doubled) only when it holds the
/// `separator`, a double quote, CR or LF.
std::string CsvField(std::string_view text, char separator = ',');

}  // namespace etbench
