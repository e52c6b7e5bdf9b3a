#include "fancy_grid.h"

#include <algorithm>

#include "etbench/base/utf8.h"

namespace etbench {
namespace {

// Appends `unit` n times, doubling what is already copied (a rule of a
// column thousands of characters wide is written in a few copies).
void AppendRepeated(std::string_view unit, std::size_t n, std::string* out) {
  if (n == 0) return;
  const std::size_t begin = out->size();
  const std::size_t total = unit.size() * n;
  out->reserve(begin + total);
  out->append(unit);
  while (out->size() - begin < total) {
    const std::size_t have = out->size() - begin;
    out->append(*out, begin, std::min(have, total - have));
  }
}

}  // namespace

void AppendGridRule(const std::vector<std::size_t>& widths, GridRule rule, std::string* out) {
  static const char* const kPieces[][4] = {
      {"╒", "═", "╤", "╕"}, {"╞", "═", "╪", "╡"}, {"├", "─", "┼", "┤"}, {"╘", "═", "╧", "╛"}};
  const char* const* p = kPieces[static_cast<int>(rule)];
  out->append(p[0]);
  for (std::size_t c = 0; c < widths.size(); ++c) {
    if (c > 0) out->append(p[2]);
    AppendRepeated(p[1], widths[c] + 2, out);
  }
  out->append(p[3]);
  out->push_back('\n');
}

void AppendGridLine(const std::vector<std::string_view>& cells,
                    const std::vector<std::size_t>& widths, const std::vector<Align>& align,
                    std::string* out) {
  out->append("│");
  for (std::size_t c = 0; c < widths.size(); ++c) {
    const std::string_view cell = c < cells.size() ? cells[c] : std::string_view();
    const std::size_t pad = widths[c] - Utf8Length(cell);
    const bool right = c < align.size() && align[c] == Align::kRight;
    out->push_back(' ');
    if (right) out->append(pad, ' ');
    out->append(cell);
    if (!right) out->append(pad, ' ');
    out->append(" │");
  }
  out->push_back('\n');
}

namespace {

std::vector<std::string_view> Views(const std::vector<std::string>& cells) {
  return std::vector<std::string_view>(cells.begin(), cells.end());
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
  std::string out;
  AppendGridRule(widths, GridRule::kTop, &out);
  AppendGridLine(Views(table.headers), widths, table.align, &out);
  AppendGridRule(widths, GridRule::kHeader, &out);
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    if (r > 0) AppendGridRule(widths, GridRule::kBetween, &out);
    AppendGridLine(Views(table.rows[r]), widths, table.align, &out);
  }
  AppendGridRule(widths, GridRule::kBottom, &out);
  return out;
}

}  // namespace etbench
