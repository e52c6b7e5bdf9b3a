// Text helpers of the analysis renderers (see text_util.h).
#include "etbench/reports/text_util.h"

#include "etbench/base/utf8.h"

#include <algorithm>
#include <cstdint>

namespace etbench::analysis {

std::string TruncateName(std::string_view name, std::size_t max_width) {
  const std::size_t keep = std::max<std::size_t>(max_width, 4) - 3;
  if (Utf8Length(name) < keep) return std::string(name);
  return Utf8Prefix(name, keep) + "...";
}

std::string RightTrim(std::string text) {
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

}  // namespace etbench::analysis
