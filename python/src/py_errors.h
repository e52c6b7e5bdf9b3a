#pragma once
// etbench Errors as Python exceptions at the module boundary: the one-line
// message the CLI prints after "etbench <command>: ".

#include <pybind11/pybind11.h>

#include <utility>

#include "etbench/base/result.h"

namespace etbench::python {

/// Raises OSError (I/O errors: missing, unreadable or unwritable files) or
/// ValueError (everything else) carrying `error.message`.
[[noreturn]] void ThrowPythonError(const Error& error);

/// The value of `result`, or the Python exception of its error.
template <typename T>
T Unwrap(Result<T> result) {
  if (!result.ok()) ThrowPythonError(result.error());
  return std::move(result).value();
}

}  // namespace etbench::python
