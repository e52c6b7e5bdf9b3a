#pragma once
// SHA-256 (FIPS 180-4) for model, config and program digests, shared by the
// harness and the reference runtime.

#include <string>
#include <string_view>

#include "etbench/base/result.h"

namespace etbench {

/// Lower-case hex SHA-256 of `bytes`.
std::string Sha256Hex(std::string_view bytes);

/// Of a file's contents; errors name the path.
Result<std::string> Sha256OfFile(const std::string& path);

}  // namespace etbench
