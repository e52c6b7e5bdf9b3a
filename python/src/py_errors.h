#pragma once
// etbench Errors as Python exceptions at the module boundary: the one-line
// message the CLI prints after "etbench <command>: ".

#include <pybind11/pybind11.h>

#include <string>
#include <utility>

#include "etbench/base/result.h"

namespace etbench::python {

/// Raises OSError (I/O errors: missing, unreadable or unwritable files) or
/// ValueError (everything else) carrying `error.message`.
[[noreturn]] void ThrowPythonError(const Error& error);

/// `path` when it can name a file; raises ValueError ("ARG: file name contains
/// a NUL byte") when it holds one, which the system would read as the end of
/// the name and so open another file (Python's own open() refuses the same).
std::string CheckedPath(std::string path, const char* argument);

/// The value of `result`, or the Python exception of its error.
template <typename T>
T Unwrap(Result<T> result) {
  if (!result.ok()) ThrowPythonError(result.error());
  return std::move(result).value();
}

}  // namespace etbench::python
