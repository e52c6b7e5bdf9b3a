#pragma once
// Numbers read from outside (database cells, labels in files, flags): the
// whole text or nothing. std::stoi and friends throw on bad text (the CLI
// would print "internal error: stoi"), accept leading spaces, '+' and
// trailing garbage, and std::atoi is undefined on overflow; these return
// nullopt instead, so the caller can name what and where.

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

namespace etbench {

/// `text` as a base-10 integer: an optional '-' then digits, nothing else
/// (no spaces, no '+'), within [min, max]. nullopt otherwise.
std::optional<int64_t> ParseInteger(std::string_view text,
                                    int64_t min = std::numeric_limits<int64_t>::min(),
                                    int64_t max = std::numeric_limits<int64_t>::max());

/// `text` as a finite decimal number ("1.5", "-2e-3", "7"): nothing before
/// or after it; infinities, NaN and hexadecimal are refused. nullopt otherwise.
std::optional<double> ParseFiniteDouble(std::string_view text);

}  // namespace etbench
