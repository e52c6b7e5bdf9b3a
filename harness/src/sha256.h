#pragma once
// SHA-256 for config and model hashes (the harness does not depend on the
// reference runtime, which has its own).

#include <string>
#include <string_view>

#include "etbench/inspector/result.h"

namespace etbench::harness {

/// Lower-case hex SHA-256 of `bytes`.
std::string Sha256Hex(std::string_view bytes);

/// Of a file's contents; errors name the path.
Result<std::string> Sha256OfFile(const std::string& path);

}  // namespace etbench::harness
