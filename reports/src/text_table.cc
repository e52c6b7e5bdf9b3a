// Aligned text tables for the terminal report.

#include "text_table.h"

#include <algorithm>

#include "report_text.h"

#include "etbench/base/terminal_text.h"
#include "etbench/base/utf8.h"

namespace etbench::reports::internal {

std::string Colorize(const std::string& text, const char* color, bool enabled) {
  if (!enabled || color == nullptr || text.empty()) return text;
  return std::string(color) + text + kReset;
}

std::string RenderTextTable(const std::vector<Column>& columns,
                            const std::vector<std::vector<Cell>>& given_rows, bool color,
                            const std::string& indent) {
  // Cells hold names from outside: shown by the terminal rule, so a cell
  // can neither break the table nor send control codes.
  std::vector<std::vector<Cell>> rows = given_rows;
  for (auto& row : rows) {
    for (Cell& cell : row) {
      if (!IsTerminalSafe(cell.text)) cell.text = TerminalText(cell.text);
    }
  }
  std::vector<std::size_t> width(columns.size(), 0);
  for (std::size_t i = 0; i < columns.size(); ++i) width[i] = Utf8Length(columns[i].header);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size() && i < columns.size(); ++i) {
      width[i] = std::max(width[i], Utf8Length(row[i].text));
    }
  }
  auto line = [&](const std::vector<Cell>& cells, bool header) {
    std::string out = indent;
    std::size_t pending_spaces = 0;  // trailing padding is only emitted before more text
    for (std::size_t i = 0; i < columns.size(); ++i) {
      const Cell cell = i < cells.size() ? cells[i] : Cell{};
      const std::size_t pad = width[i] - Utf8Length(cell.text);
      if (i > 0) pending_spaces += 2;
      if (columns[i].right) pending_spaces += pad;
      if (!cell.text.empty()) {
        out += std::string(pending_spaces, ' ');
        pending_spaces = 0;
        out += Colorize(cell.text, header ? kBold : cell.color, color);
      }
      if (!columns[i].right) pending_spaces += pad;
    }
    return out + "\n";
  };
  std::vector<Cell> header;
  for (const Column& c : columns) header.push_back(Cell{c.header, nullptr});
  std::string out = line(header, true);
  for (const auto& row : rows) out += line(row, false);
  return out;
}

}  // namespace etbench::reports::internal
