#include "etbench/base/csv.h"

namespace etbench {

std::string CsvField(std::string_view text, char separator) {
  const char specials[] = {separator, '"', '\r', '\n', '\0'};
  if (text.find_first_of(specials) == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace etbench
