#pragma once
// Joining names for messages and table cells ("accepted: a, b, c").

#include <string>
#include <string_view>
#include <vector>

namespace etbench {

/// `items` with `separator` between them; "" for none.
inline std::string JoinStrings(const std::vector<std::string>& items,
                               std::string_view separator = ", ") {
  std::string joined;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) joined += separator;
    joined += items[i];
  }
  return joined;
}

}  // namespace etbench
