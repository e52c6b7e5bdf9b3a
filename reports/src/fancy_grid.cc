#include "fancy_grid.h"

#include <algorithm>

#include "etbench/base/utf8.h"

namespace etbench {
namespace {

std::string Repeat(const std::string& unit, std::size_t n) {
  std::string out;
  out.reserve(unit.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += unit;
  return out;
}

std::string Rule(const std::vector<std::size_t>& widths, const char* left, const char* fill,
                 const char* mid, const char* right) {
  std::string out = left;
  for (std::size_t c = 0; c < widths.size(); ++c) {
    if (c > 0) out += mid;
    out += Repeat(fill, widths[c] + 2);
  }
  out += right;
  out += '\n';
  return out;
}

std::string Line(const std::vector<std::string>& cells, const std::vector<std::size_t>& widths,
                 const std::vector<Align>& align) {
  std::string out = "│";
  for (std::size_t c = 0; c < widths.size(); ++c) {
    const std::string& cell = c < cells.size() ? cells[c] : std::string();
    const std::size_t pad = widths[c] - Utf8Length(cell);
    const bool right = c < align.size() && align[c] == Align::kRight;
    out += ' ';
    if (right) out += std::string(pad, ' ');
    out += cell;
    if (!right) out += std::string(pad, ' ');
    out += " │";
  }
  out += '\n';
  return out;
}

}  // namespace

std::string RenderFancyGrid(const TextTable& table) {
  std::vector<std::size_t> widths(table.headers.size(), 0);
  for (std::size_t c = 0; c < widths.size(); ++c) widths[c] = Utf8Length(table.headers[c]);
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < widths.size() && c < row.size(); ++c) {
      widths[c] = std::max(widths[c], Utf8Length(row[c]));
    }
  }
  std::string out = Rule(widths, "╒", "═", "╤", "╕");
  out += Line(table.headers, widths, table.align);
  out += Rule(widths, "╞", "═", "╪", "╡");
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    if (r > 0) out += Rule(widths, "├", "─", "┼", "┤");
    out += Line(table.rows[r], widths, table.align);
  }
  out += Rule(widths, "╘", "═", "╧", "╛");
  return out;
}

}  // namespace etbench
