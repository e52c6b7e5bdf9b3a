#include "value_inflater.h"

#include <algorithm>
#include <utility>

namespace etbench {

ValueInflater::ValueInflater(std::string source_name, std::size_t etdump_bytes,
                             const std::vector<uint8_t>* debug_buffer)
    : source_name_(std::move(source_name)),
      buffer_(debug_buffer),
      limit_(std::max(kBytesFloor,
                      kBytesPerInputByte * (uint64_t{etdump_bytes} +
                                            (debug_buffer ? debug_buffer->size() : 0)))) {}

Result<TensorValue> ValueInflater::InflateTensor(const fb::Tensor& t, const std::string& what) {
  TensorValue tv;
  tv.scalar_type = static_cast<ScalarType>(t.scalar_type());
  if (t.sizes()) tv.sizes.assign(t.sizes()->begin(), t.sizes()->end());
  if (buffer_ == nullptr) return tv;
  const std::size_t element = ScalarTypeSize(tv.scalar_type);
  if (element == 0) return tv;  // packed types: bytes not decoded
  auto bytes_or = TensorByteSize(tv.sizes, element);
  if (!bytes_or.ok()) {
    return InputError(source_name_ + ": " + what + ": " + bytes_or.error().message);
  }
  const uint64_t bytes = bytes_or.value();
  // ETDumpGen writes empty tensors at offset -1 (write_tensor_or_return_error
  // returns static_cast<size_t>(-1)); the reference reads any 0-byte
  // tensor as an empty value without touching the buffer.
  if (bytes == 0) {
    tv.data.emplace();
    return tv;
  }
  const std::vector<uint8_t>& buffer = *buffer_;
  if (t.offset() < 0 || static_cast<uint64_t>(t.offset()) > buffer.size() ||
      bytes > buffer.size() - static_cast<uint64_t>(t.offset())) {
    return InputError(source_name_ + ": " + what + ": tensor of " +
                      std::to_string(bytes) + " bytes at offset " + std::to_string(t.offset()) +
                      " lies outside the debug buffer (" + std::to_string(buffer.size()) +
                      " bytes)");
  }
  copied_ += bytes;
  if (copied_ > limit_) {
    return InputError(source_name_ + ": " + what +
                      ": debug values read from the debug buffer exceed " +
                      std::to_string(limit_) + " bytes in all (" +
                      std::to_string(kBytesPerInputByte) +
                      " per byte of the ETDump and debug buffer, at least 64 MiB): events "
                      "point at the same data over and over; a crafted or corrupt ETDump");
  }
  tv.data.emplace(buffer.begin() + t.offset(), buffer.begin() + t.offset() + bytes);
  return tv;
}

Result<DebugValue> ValueInflater::Inflate(const fb::Value& value, const std::string& what) {
  DebugValue out;
  out.type = static_cast<ValueType>(value.val());
  // Each member is there in a verified file (EtdumpFile's consistency
  // check); checked again because a file truncated while mapped reads as
  // zeros from then on (truncation_guard.h).
  auto missing = [&](const char* problem) {
    return InputError(source_name_ + ": " + what + ": " + problem);
  };
  switch (value.val()) {
    case fb::ValueType::Int:
      if (value.int_value() == nullptr) return missing("Int value without int_value");
      out.int_value = value.int_value()->int_val();
      break;
    case fb::ValueType::Bool:
      if (value.bool_value() == nullptr) return missing("Bool value without bool_value");
      out.bool_value = value.bool_value()->bool_val();
      break;
    case fb::ValueType::Float:
      if (value.float_value() == nullptr) return missing("Float value without float_value");
      out.float_value = value.float_value()->float_val();
      break;
    case fb::ValueType::Double:
      if (value.double_value() == nullptr) return missing("Double value without double_value");
      out.float_value = value.double_value()->double_val();
      break;
    case fb::ValueType::Tensor: {
      if (value.tensor() == nullptr) return missing("Tensor value without a tensor");
      auto t = InflateTensor(*value.tensor(), what);
      if (!t.ok()) return t.error();
      out.tensors.push_back(std::move(t).value());
      break;
    }
    case fb::ValueType::TensorList:
      if (value.tensor_list() == nullptr) return missing("TensorList value without a tensor_list");
      if (const auto* ts = value.tensor_list()->tensors()) {
        for (const fb::Tensor* ft : *ts) {
          auto t = InflateTensor(*ft, what);
          if (!t.ok()) return t.error();
          out.tensors.push_back(std::move(t).value());
        }
      }
      break;
    default: break;
  }
  return out;
}

}  // namespace etbench
