#include "text_table.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace etbench {
namespace {

std::size_t DisplayWidth(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;  // count code points, not bytes
  }
  return n;
}

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
    const std::size_t pad = widths[c] - DisplayWidth(cell);
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
  for (std::size_t c = 0; c < widths.size(); ++c) widths[c] = DisplayWidth(table.headers[c]);
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < widths.size() && c < row.size(); ++c) {
      widths[c] = std::max(widths[c], DisplayWidth(row[c]));
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

std::string FormatGeneral(double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", value);
  return buf;
}

std::string FormatShortest(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, res.ptr);
}

}  // namespace etbench
