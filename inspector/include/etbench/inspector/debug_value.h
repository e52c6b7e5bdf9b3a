#pragma once
// Intermediate and output values recorded by debug events, inflated with the
// tensor bytes from the debug buffer when one is available.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/inspector/etdump_record.h"

namespace etbench {

struct TensorValue {
  ScalarType scalar_type = ScalarType::kFloat;
  std::vector<int64_t> sizes;
  /// The tensor's bytes from the debug buffer, or nullopt when no buffer was
  /// given (the reference then substitutes zeros; etbench says "unknown").
  std::optional<std::vector<uint8_t>> data;

  bool operator==(const TensorValue& o) const {
    return scalar_type == o.scalar_type && sizes == o.sizes && data == o.data;
  }
};

struct DebugValue {
  ValueType type = ValueType::kNull;
  int64_t int_value = 0;
  bool bool_value = false;
  double float_value = 0;   // Float values widened to double
  std::vector<TensorValue> tensors;  // one for Tensor, n for TensorList

  bool operator==(const DebugValue& o) const {
    return type == o.type && int_value == o.int_value &&
           bool_value == o.bool_value && float_value == o.float_value &&
           tensors == o.tensors;
  }
};

/// Bytes of a tensor with `sizes` and `element_size`-byte elements: the
/// product of the sizes times the element size, in checked arithmetic.
/// Errors (one line, without location: callers prefix it): a negative size,
/// or a product above 2^64 - 1 (which unchecked would wrap, possibly to 0,
/// and slip past a bounds check).
Result<uint64_t> TensorByteSize(const std::vector<int64_t>& sizes, std::size_t element_size);

/// Reads tensor elements as doubles for printing (FLOAT, DOUBLE, HALF is not
/// decoded and yields an empty vector; integers and BOOL are exact).
std::vector<double> TensorElementsAsDouble(const TensorValue& tensor);

}  // namespace etbench
