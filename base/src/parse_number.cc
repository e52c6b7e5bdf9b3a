#include "etbench/base/parse_number.h"

#include <charconv>
#include <cmath>

namespace etbench {

std::optional<int64_t> ParseInteger(std::string_view text, int64_t min, int64_t max) {
  if (text.empty()) return std::nullopt;
  int64_t value = 0;
  const char* end = text.data() + text.size();
  // from_chars takes no '+', no spaces, no base prefix; it reports overflow.
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, 10);
  if (ec != std::errc() || ptr != end || value < min || value > max) return std::nullopt;
  return value;
}

std::optional<double> ParseFiniteDouble(std::string_view text) {
  if (text.empty()) return std::nullopt;
  double value = 0;
  const char* end = text.data() + text.size();
  // chars_format::general: decimal or exponent notation, never hexadecimal.
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, std::chars_format::general);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace etbench
