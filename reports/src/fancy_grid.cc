#include "fancy_grid.h"

#include <algorithm>
#include <sstream>

#include "etbench/base/utf8.h"

namespace etbench {

void WriteGridRule(const std::vector<std::size_t>& widths, GridRule rule, TextSink& out) {
  static const char* const kPieces[][4] = {
      {"╒", "═", "╤", "╕"}, {"╞", "═", "╪", "╡"}, {"├", "─", "┼", "┤"}, {"╘", "═", "╧", "╛"}};
  const char* const* p = kPieces[static_cast<int>(rule)];
  out.Append(p[0]);
  for (std::size_t c = 0; c < widths.size(); ++c) {
    if (c > 0) out.Append(p[2]);
    out.AppendRepeated(p[1], widths[c] + 2);
  }
  out.Append(p[3]);
  out.Append('\n');
}

void WriteGridLine(const std::vector<std::string_view>& cells,
                   const std::vector<std::size_t>& widths, const std::vector<Align>& align,
                   TextSink& out) {
  out.Append("│");
  for (std::size_t c = 0; c < widths.size(); ++c) {
    const std::string_view cell = c < cells.size() ? cells[c] : std::string_view();
    const std::size_t pad = widths[c] - Utf8Length(cell);
    const bool right = c < align.size() && align[c] == Align::kRight;
    out.Append(' ');
    if (right) out.Append(pad, ' ');
    out.Append(cell);
    if (!right) out.Append(pad, ' ');
    out.Append(" │");
  }
  out.Append('\n');
}

std::string RenderFancyGrid(const TextTable& table) {
  std::vector<std::size_t> widths(table.headers.size(), 0);
  for (std::size_t c = 0; c < widths.size(); ++c) widths[c] = Utf8Length(table.headers[c]);
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < widths.size() && c < row.size(); ++c) {
      widths[c] = std::max(widths[c], Utf8Length(row[c]));
    }
  }
  auto views = [](const std::vector<std::string>& cells) {
    return std::vector<std::string_view>(cells.begin(), cells.end());
  };
  std::ostringstream text;
  {
    TextSink out(text);
    WriteGridRule(widths, GridRule::kTop, out);
    WriteGridLine(views(table.headers), widths, table.align, out);
    WriteGridRule(widths, GridRule::kHeader, out);
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
      if (r > 0) WriteGridRule(widths, GridRule::kBetween, out);
      WriteGridLine(views(table.rows[r]), widths, table.align, out);
    }
    WriteGridRule(widths, GridRule::kBottom, out);
  }
  return text.str();
}

}  // namespace etbench
