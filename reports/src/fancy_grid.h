#pragma once
// Box-drawn text tables in the style of Python tabulate's "fancy_grid",
// which the reference Inspector prints with.

#include <string>
#include <vector>

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

}  // namespace etbench
