#pragma once
// Values of debug events and program outputs, read from the verified
// FlatBuffer into DebugValues (tensor bytes from the debug buffer).

#include <cstdint>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/inspector/debug_value.h"
#include "etbench/inspector/etdump_generated.h"

namespace etbench {

/// The value as a DebugValue. Tensors take their bytes from `debug_buffer`
/// when one is given (nullptr: sizes and type only). Errors (a tensor lying
/// outside the buffer, a size that overflows) start with `where`.
Result<DebugValue> InflateValue(const fb::Value& value, const std::vector<uint8_t>* debug_buffer,
                                const std::string& where);

}  // namespace etbench
