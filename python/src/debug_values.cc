#include "debug_values.h"

#include <pybind11/numpy.h>

#include <cstring>

#include "py_errors.h"

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
  py::dtype dtype(dtype_name);
  const auto element = static_cast<std::size_t>(dtype.itemsize());
  // The shape is the file's claim: checked before numpy is asked for it.
  const Result<uint64_t> nbytes = TensorByteSize(tensor.sizes, element);
  if (!nbytes.ok()) ThrowPythonError(nbytes.error());
  if (tensor.data && tensor.data->size() == nbytes.value()) {
    py::array array(dtype, shape);
    if (nbytes.value() > 0) std::memcpy(array.mutable_data(), tensor.data->data(), nbytes.value());
    return std::move(array);
  }
  // No data (no debug buffer): zeros, as the reference substitutes, but as a
  // read-only view of one zero element (all strides 0), so that a shape
  // claiming terabytes costs nothing.
  py::array zero(dtype, std::vector<py::ssize_t>{1});
  std::memset(zero.mutable_data(), 0, element);
  py::array view(dtype, shape, std::vector<py::ssize_t>(shape.size(), 0), zero.data(), zero);
  py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return std::move(view);
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
