// Quiet NaN and infinity under one name for compare's sources. One home
// rather than a file-local copy in each source, which also keeps the
// sources valid when a unity build joins several into one translation unit.
#pragma once

#include <limits>

namespace etbench {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace etbench
