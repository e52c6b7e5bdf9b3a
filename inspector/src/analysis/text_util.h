#pragma once
// Text helpers of the analysis renderers: widths in code points (names are
// UTF-8), padding, torch.profiler's name truncation, CSV quoting.

#include <cstddef>
#include <string>
#include <string_view>

namespace etbench::analysis {

/// Number of code points (continuation bytes are not counted).
std::size_t Utf8Length(std::string_view text);

/// The first `count` code points of `text`.
std::string Utf8Prefix(std::string_view text, std::size_t count);

/// torch.profiler's rule: a name of max_width − 3 code points or more
/// becomes its first (max_width − 3) code points + "...". max_width is
/// taken as at least 4.
std::string TruncateName(std::string_view name, std::size_t max_width);

/// Right-aligns (PadLeft) or left-aligns (PadRight) in `width` code points.
std::string PadLeft(std::string_view text, std::size_t width);
std::string PadRight(std::string_view text, std::size_t width);

/// Removes trailing spaces.
std::string RightTrim(std::string text);

/// An RFC 4180 CSV field (quoted when it holds , " CR or LF).
std::string CsvField(std::string_view text);

/// Replaces byte sequences that are not valid UTF-8 by U+FFFD.
std::string SanitizeUtf8(std::string_view bytes);

}  // namespace etbench::analysis
