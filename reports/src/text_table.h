#pragma once
// Aligned plain-text tables with optional ANSI colour per cell (the
// terminal report). Widths count code points, so colour codes and UTF-8
// symbols do not break the alignment.

#include <string>
#include <vector>

namespace etbench::reports::internal {

inline constexpr const char* kRed = "\033[31m";
inline constexpr const char* kGreen = "\033[32m";
inline constexpr const char* kYellow = "\033[33m";
inline constexpr const char* kDim = "\033[2m";
inline constexpr const char* kBold = "\033[1m";
inline constexpr const char* kReset = "\033[0m";

struct Cell {
  std::string text;
  const char* color = nullptr;  // one of the codes above, or null
};

struct Column {
  std::string header;
  bool right = false;  // right-aligned (numbers)
};

/// `text` wrapped in `color` (and a reset) when `enabled` and color is set.
std::string Colorize(const std::string& text, const char* color, bool enabled);

/// Header plus rows, columns separated by two spaces, each line prefixed by
/// `indent`; trailing spaces trimmed. The header is bold when coloured.
/// Cell texts are shown by TerminalText (base/terminal_text.h).
std::string RenderTextTable(const std::vector<Column>& columns,
                            const std::vector<std::vector<Cell>>& rows, bool color,
                            const std::string& indent);

}  // namespace etbench::reports::internal
