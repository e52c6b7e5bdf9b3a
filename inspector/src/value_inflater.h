#pragma once
// Debug values (intermediate outputs, program outputs) from their FlatBuffer
// form, with tensor data copied out of the debug buffer: the one place that
// reads the debug buffer, and the one budget on how much of it is copied.

#include <cstdint>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/inspector/debug_value.h"
#include "etbench/inspector/etdump_generated.h"

namespace etbench {

class ValueInflater {
 public:
  /// Bytes of debug-buffer data Inflate copies in all, over every call (the
  /// first run's values are kept, later runs' are compared): at most
  /// kBytesPerInputByte per byte of the ETDump and debug buffer, at least
  /// kBytesFloor. The events of a crafted file can all point at one huge
  /// range of the buffer; a real dump's values lie side by side in it, each
  /// inflated a few times at most.
  static constexpr uint64_t kBytesPerInputByte = 4;
  static constexpr uint64_t kBytesFloor = uint64_t{64} << 20;

  /// `source_name` (the ETDump's, for errors) and `etdump_bytes` (its size)
  /// describe the ETDump the values are read from. `debug_buffer` may be
  /// null (tensors then carry their shape, no data); it must outlive the
  /// inflater.
  ValueInflater(std::string source_name, std::size_t etdump_bytes,
                const std::vector<uint8_t>* debug_buffer);

  /// The value; errors (naming the file and `what`) for a tensor whose size
  /// overflows, that lies outside the debug buffer, or that takes the
  /// copies past the budget, and for a value whose member reads as absent
  /// (a file truncated while mapped; truncation_guard.h).
  Result<DebugValue> Inflate(const fb::Value& value, const std::string& what);

 private:
  Result<TensorValue> InflateTensor(const fb::Tensor& t, const std::string& what);

  std::string source_name_;
  const std::vector<uint8_t>* buffer_;
  uint64_t limit_;
  uint64_t copied_ = 0;
};

}  // namespace etbench
