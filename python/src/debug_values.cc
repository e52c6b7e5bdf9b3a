#include "debug_values.h"

#include <pybind11/numpy.h>

#include <cstring>

namespace etbench::python {

namespace py = pybind11;

namespace {

// numpy dtype of an ExecuTorch scalar type; nullptr when numpy has none.
const char* NumpyDtype(ScalarType type) {
  switch (type) {
    case ScalarType::kByte: return "uint8";
    case ScalarType::kChar: return "int8";
    case ScalarType::kShort: return "int16";
    case ScalarType::kInt: return "int32";
    case ScalarType::kLong: return "int64";
    case ScalarType::kHalf: return "float16";
    case ScalarType::kFloat: return "float32";
    case ScalarType::kDouble: return "float64";
    case ScalarType::kBool: return "bool";
    case ScalarType::kUInt16: return "uint16";
    case ScalarType::kUInt32: return "uint32";
    case ScalarType::kUInt64: return "uint64";
    default: return nullptr;
  }
}

py::object TensorToPython(const TensorValue& tensor) {
  const char* dtype_name = NumpyDtype(tensor.scalar_type);
  std::vector<py::ssize_t> shape(tensor.sizes.begin(), tensor.sizes.end());
  if (dtype_name == nullptr) {
    // Raw bytes: numpy cannot represent the element type.
    const std::size_t n = tensor.data ? tensor.data->size() : 0;
    py::array_t<uint8_t> bytes(static_cast<py::ssize_t>(n));
    if (n > 0) std::memcpy(bytes.mutable_data(), tensor.data->data(), n);
    return std::move(bytes);
  }
  py::array array(py::dtype(dtype_name), shape);
  const std::size_t nbytes = static_cast<std::size_t>(array.nbytes());
  if (tensor.data && tensor.data->size() == nbytes) {
    if (nbytes > 0) std::memcpy(array.mutable_data(), tensor.data->data(), nbytes);
  } else if (nbytes > 0) {
    std::memset(array.mutable_data(), 0, nbytes);
  }
  return std::move(array);
}

}  // namespace

py::object DebugValueToPython(const DebugValue& value) {
  switch (value.type) {
    case ValueType::kInt: return py::int_(value.int_value);
    case ValueType::kBool: return py::bool_(value.bool_value);
    case ValueType::kFloat:
    case ValueType::kDouble: return py::float_(value.float_value);
    case ValueType::kTensor:
      if (value.tensors.empty()) return py::none();
      return TensorToPython(value.tensors.front());
    case ValueType::kTensorList: {
      py::list list;
      for (const TensorValue& t : value.tensors) list.append(TensorToPython(t));
      return std::move(list);
    }
    default: return py::none();
  }
}

py::list DebugValuesToPython(const std::vector<DebugValue>& values) {
  py::list list;
  for (const DebugValue& v : values) list.append(DebugValueToPython(v));
  return list;
}

}  // namespace etbench::python
