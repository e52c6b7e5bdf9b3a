#include "py_errors.h"

namespace etbench::python {

namespace {

// Raises `type` with `message` decoded leniently: a message quoting a file
// name that is not UTF-8 must still raise `type`, not a UnicodeDecodeError.
[[noreturn]] void Raise(PyObject* type, const std::string& message) {
  PyObject* text = PyUnicode_DecodeUTF8(message.data(), static_cast<Py_ssize_t>(message.size()),
                                        "replace");
  if (text != nullptr) {
    PyErr_SetObject(type, text);
    Py_DECREF(text);
  }
  throw pybind11::error_already_set();
}

}  // namespace

void ThrowPythonError(const Error& error) {
  Raise(error.code == ErrorCode::kIo ? PyExc_OSError : PyExc_ValueError, error.message);
}

std::string CheckedPath(std::string path, const char* argument) {
  if (path.find('\0') != std::string::npos) {
    Raise(PyExc_ValueError, std::string(argument) + ": file name contains a NUL byte");
  }
  return path;
}

}  // namespace etbench::python
