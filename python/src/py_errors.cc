#include "py_errors.h"

namespace etbench::python {

void ThrowPythonError(const Error& error) {
  PyErr_SetString(error.code == ErrorCode::kIo ? PyExc_OSError : PyExc_ValueError,
                  error.message.c_str());
  throw pybind11::error_already_set();
}

}  // namespace etbench::python
