#pragma once
// Debug values (intermediate outputs, program outputs) as Python objects:
// tensors become numpy arrays where the reference Inspector has torch
// tensors.

#include <pybind11/pybind11.h>

#include <vector>

#include "etbench/inspector/debug_value.h"

namespace etbench::python {

/// Int → int, Bool → bool, Float/Double → float, Tensor → numpy array of
/// the tensor's dtype and shape (zeros when no debug buffer was given, as
/// the reference substitutes zeros), TensorList → list of arrays,
/// Null/String → None. Types numpy has no dtype for (HALF is float16;
/// BFloat16, quantized and packed types) become uint8 arrays of the raw bytes.
pybind11::object DebugValueToPython(const DebugValue& value);

/// A list of DebugValueToPython.
pybind11::list DebugValuesToPython(const std::vector<DebugValue>& values);

}  // namespace etbench::python
