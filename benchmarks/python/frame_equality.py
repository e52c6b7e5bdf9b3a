"""Strict equality of two Inspector DataFrames (the reference's and
etbench's), for the benchmark: the ratio it prints is only meaningful if
both computed the same frame.

pandas.testing.assert_frame_equal is not enough: on object columns (raw,
start_time, debug_data, …) it compares floats approximately. Here every
cell must be equal exactly, numbers of the same kind (bool / integer /
float), floats bit-for-bit (NaN equals NaN), lists, tuples and dicts
element by element. The one documented representation difference is
allowed: where the reference holds a torch.Tensor, etbench holds a numpy
array of the same dtype, shape and values.
"""

import math
import numbers

import numpy as np


def _kind(x):
    if isinstance(x, (bool, np.bool_)):
        return "bool"
    if isinstance(x, numbers.Integral):
        return "int"
    if isinstance(x, numbers.Real):
        return "float"
    return None


def _tensor_as_numpy(x):
    """x as numpy if it is a torch.Tensor (torch imported lazily: etbench's
    side never needs it), else None."""
    if type(x).__module__.startswith("torch") and hasattr(x, "numpy"):
        return x.detach().cpu().numpy()
    return None


def same(ref, ours):
    """True when `ours` equals the reference's value `ref` exactly."""
    tensor = _tensor_as_numpy(ref)
    if tensor is not None:
        return (
            isinstance(ours, np.ndarray)
            and tensor.dtype == ours.dtype
            and tensor.shape == ours.shape
            and np.array_equal(tensor, ours, equal_nan=tensor.dtype.kind == "f")
        )
    if ref is None or ours is None:
        return ref is None and ours is None
    kinds = _kind(ref), _kind(ours)
    if kinds[0] is not None or kinds[1] is not None:
        if kinds[0] != kinds[1]:
            return False
        if kinds[0] == "float" and math.isnan(ref):
            return math.isnan(ours)
        return ref == ours
    if isinstance(ref, (list, tuple)):
        return (
            isinstance(ours, (list, tuple))
            and len(ref) == len(ours)
            and all(same(a, b) for a, b in zip(ref, ours))
        )
    if isinstance(ref, dict):
        return (
            isinstance(ours, dict)
            and list(ref) == list(ours)
            and all(same(ref[k], ours[k]) for k in ref)
        )
    if isinstance(ref, np.ndarray):
        return isinstance(ours, np.ndarray) and ref.dtype == ours.dtype and np.array_equal(ref, ours)
    return type(ref) is type(ours) and ref == ours


def differences(ref, ours, limit=5):
    """Up to `limit` one-line descriptions of how frame `ours` differs from
    the reference's frame `ref`; [] when equal (columns in order, dtypes,
    row count, every cell)."""
    if list(ref.columns) != list(ours.columns):
        return [f"columns: reference {list(ref.columns)}, etbench {list(ours.columns)}"]
    found = []
    for column in ref.columns:
        if ref[column].dtype != ours[column].dtype:
            found.append(f"dtype of {column!r}: reference {ref[column].dtype}, etbench {ours[column].dtype}")
    if len(ref) != len(ours):
        found.append(f"rows: reference {len(ref)}, etbench {len(ours)}")
    if found:
        return found[:limit]
    for column in ref.columns:
        for row, (a, b) in enumerate(zip(ref[column].tolist(), ours[column].tolist())):
            if not same(a, b):
                found.append(f"row {row} {column!r}: reference {a!r:.80}, etbench {b!r:.80}")
                if len(found) >= limit:
                    return found
    return found
