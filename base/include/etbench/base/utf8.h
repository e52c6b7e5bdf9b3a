#pragma once
// UTF-8 text: validity, sanitising and widths for aligned output. Names in
// ETDumps, ETRecords and subprocess output are arbitrary bytes; everything
// etbench prints or writes is valid UTF-8.

#include <cstddef>
#include <string>
#include <string_view>

namespace etbench {

/// Length of the valid UTF-8 sequence starting at text[i] (1 for ASCII), or
/// 0 when the bytes there are not valid UTF-8 (truncated, overlong,
/// surrogates, past U+10FFFF). Requires i < text.size().
std::size_t Utf8SequenceLength(std::string_view text, std::size_t i);

/// `bytes` with every byte that does not start a valid UTF-8 sequence
/// replaced by U+FFFD.
std::string SanitizeUtf8(std::string_view bytes);

/// Number of code points of `text` (continuation bytes are not counted):
/// the width in columns every aligned table uses.
std::size_t Utf8Length(std::string_view text);

/// The first `count` code points of `text`.
std::string Utf8Prefix(std::string_view text, std::size_t count);

/// Right-aligns (PadLeft) or left-aligns (PadRight) in `width` columns.
std::string PadLeft(std::string_view text, std::size_t width);
std::string PadRight(std::string_view text, std::size_t width);

}  // namespace etbench
