#include "etbench/inspector/debug_value.h"

#include <cstring>

namespace etbench {
namespace {

template <typename T>
void AppendAs(const std::vector<uint8_t>& bytes, std::vector<double>* out) {
  const std::size_t n = bytes.size() / sizeof(T);
  out->reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
    out->push_back(static_cast<double>(v));
  }
}

}  // namespace

Result<uint64_t> TensorByteSize(const std::vector<int64_t>& sizes, std::size_t element_size) {
  bool empty = false;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0) {
      return InputError("negative tensor size " + std::to_string(sizes[i]) + " in dimension " +
                        std::to_string(i));
    }
    empty |= sizes[i] == 0;
  }
  // A zero dimension makes the tensor empty whatever the others say (the
  // reference's math.prod cannot overflow).
  if (empty) return uint64_t{0};
  uint64_t bytes = element_size;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(sizes[i]), &bytes)) {
      return InputError("tensor byte size overflows 64 bits (dimension " + std::to_string(i) +
                        " of size " + std::to_string(sizes[i]) + ")");
    }
  }
  return bytes;
}

std::vector<double> TensorElementsAsDouble(const TensorValue& tensor) {
  std::vector<double> out;
  if (!tensor.data) return out;
  const std::vector<uint8_t>& b = *tensor.data;
  switch (tensor.scalar_type) {
    case ScalarType::kFloat: AppendAs<float>(b, &out); break;
    case ScalarType::kDouble: AppendAs<double>(b, &out); break;
    case ScalarType::kByte:
    case ScalarType::kQUInt8: AppendAs<uint8_t>(b, &out); break;
    case ScalarType::kChar:
    case ScalarType::kQInt8: AppendAs<int8_t>(b, &out); break;
    case ScalarType::kBool: AppendAs<uint8_t>(b, &out); break;
    case ScalarType::kShort: AppendAs<int16_t>(b, &out); break;
    case ScalarType::kUInt16:
    case ScalarType::kBits16: AppendAs<uint16_t>(b, &out); break;
    case ScalarType::kInt:
    case ScalarType::kQInt32: AppendAs<int32_t>(b, &out); break;
    case ScalarType::kUInt32: AppendAs<uint32_t>(b, &out); break;
    case ScalarType::kLong: AppendAs<int64_t>(b, &out); break;
    case ScalarType::kUInt64: AppendAs<uint64_t>(b, &out); break;
    default: break;  // half, bfloat16, float8, packed: not decoded
  }
  return out;
}

}  // namespace etbench
