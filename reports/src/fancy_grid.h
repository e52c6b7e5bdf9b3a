#pragma once
// Box-drawn text tables in the style of Python tabulate's "fancy_grid",
// which the reference Inspector prints with.

#include <string>
#include <string_view>
#include <vector>

#include "text_sink.h"

namespace etbench {

enum class Align { kLeft, kRight };

struct TextTable {
  std::vector<std::string> headers;
  std::vector<Align> align;  // per column; missing entries default to left
  std::vector<std::vector<std::string>> rows;
};

/// Renders with ╒═╤╕ borders, a ╞═╪╡ header rule and ├─┼┤ between rows.
/// Widths count UTF-8 code points.
std::string RenderFancyGrid(const TextTable& table);

// The same table piece by piece, for renderers that stream their rows
// instead of holding them: widths are computed by the caller (the widest
// header or cell of each column, in code points), then the top rule, the
// header line, the header rule, the rows with a between-rule before every
// row but the first, and the bottom rule, in that order.
enum class GridRule { kTop, kHeader, kBetween, kBottom };

/// Writes one rule line (with its newline).
void WriteGridRule(const std::vector<std::size_t>& widths, GridRule rule, TextSink& out);

/// Writes one row (with its newline); missing cells are empty.
void WriteGridLine(const std::vector<std::string_view>& cells,
                   const std::vector<std::size_t>& widths, const std::vector<Align>& align,
                   TextSink& out);

}  // namespace etbench
