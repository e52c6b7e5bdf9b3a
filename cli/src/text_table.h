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

/// Python's format(x, "g") (6 significant digits), as tabulate prints floats.
std::string FormatGeneral(double value);

/// Shortest decimal text that reads back as the same double (Python repr).
std::string FormatShortest(double value);

}  // namespace etbench
