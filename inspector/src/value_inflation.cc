#include "value_inflation.h"

#include "etbench/inspector/etdump_record.h"

namespace etbench {

Result<DebugValue> InflateValue(const fb::Value& value, const std::vector<uint8_t>* debug_buffer,
                                const std::string& where) {
  DebugValue out;
  out.type = static_cast<ValueType>(value.val());
  auto tensor = [&](const fb::Tensor& t) -> Result<TensorValue> {
    TensorValue tv;
    tv.scalar_type = static_cast<ScalarType>(t.scalar_type());
    if (t.sizes()) tv.sizes.assign(t.sizes()->begin(), t.sizes()->end());
    if (debug_buffer == nullptr) return tv;
    const std::size_t element = ScalarTypeSize(tv.scalar_type);
    if (element == 0) return tv;  // packed types: bytes not decoded
    auto bytes_or = TensorByteSize(tv.sizes, element);
    if (!bytes_or.ok()) return InputError(where + ": " + bytes_or.error().message);
    const uint64_t bytes = bytes_or.value();
    // ETDumpGen writes empty tensors at offset -1 (write_tensor_or_return_error
    // returns static_cast<size_t>(-1)); the reference reads any 0-byte
    // tensor as an empty value without touching the buffer.
    if (bytes == 0) {
      tv.data.emplace();
      return tv;
    }
    const std::vector<uint8_t>& buffer = *debug_buffer;
    if (t.offset() < 0 || static_cast<uint64_t>(t.offset()) > buffer.size() ||
        bytes > buffer.size() - static_cast<uint64_t>(t.offset())) {
      return InputError(where + ": tensor of " +
                        std::to_string(bytes) + " bytes at offset " +
                        std::to_string(t.offset()) + " lies outside the debug buffer (" +
                        std::to_string(buffer.size()) + " bytes)");
    }
    tv.data.emplace(buffer.begin() + t.offset(), buffer.begin() + t.offset() + bytes);
    return tv;
  };
  switch (value.val()) {
    // Each member is there in a verified file (EtdumpFile's consistency
    // check); checked again because a file truncated while mapped reads as
    // zeros from then on (truncation_guard.h).
    case fb::ValueType::Int:
      if (value.int_value() == nullptr) return InputError(where + ": Int value without int_value");
      out.int_value = value.int_value()->int_val();
      break;
    case fb::ValueType::Bool:
      if (value.bool_value() == nullptr) return InputError(where + ": Bool value without bool_value");
      out.bool_value = value.bool_value()->bool_val();
      break;
    case fb::ValueType::Float:
      if (value.float_value() == nullptr) {
        return InputError(where + ": Float value without float_value");
      }
      out.float_value = value.float_value()->float_val();
      break;
    case fb::ValueType::Double:
      if (value.double_value() == nullptr) {
        return InputError(where + ": Double value without double_value");
      }
      out.float_value = value.double_value()->double_val();
      break;
    case fb::ValueType::Tensor: {
      if (value.tensor() == nullptr) return InputError(where + ": Tensor value without a tensor");
      auto t = tensor(*value.tensor());
      if (!t.ok()) return t.error();
      out.tensors.push_back(std::move(t).value());
      break;
    }
    case fb::ValueType::TensorList:
      if (value.tensor_list() == nullptr) {
        return InputError(where + ": TensorList value without a tensor_list");
      }
      if (const auto* ts = value.tensor_list()->tensors()) {
        for (const fb::Tensor* ft : *ts) {
          auto t = tensor(*ft);
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
