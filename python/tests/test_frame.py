"""to_dataframe: the reference's columns, order and dtypes; the C++ fast
path equals the reference's own construction (one DataFrame per Event,
pandas.concat) built from the same Events."""

import warnings

import numpy as np
import pandas as pd
import pytest

from conftest import etdump_fixtures
from etbench.inspector import Inspector

COLUMNS = [
    "event_block_name",
    "event_name",
    "raw",
    "p10 (ms)",
    "p50 (ms)",
    "p90 (ms)",
    "avg (ms)",
    "min (ms)",
    "max (ms)",
    "op_types",
    "delegate_debug_identifier",
    "stack_traces",
    "module_hierarchy",
    "is_delegated_op",
    "delegate_backend_name",
    "debug_data",
    "start_time",
]


def _inspector(etdump, buffer=None, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Inspector(
            etdump_path=str(etdump),
            debug_buffer_path=None if buffer is None else str(buffer),
            **kwargs,
        )


def _reference_frame(inspector, include_units=True, include_delegate_debug_data=False):
    # The reference's Inspector.to_dataframe, over etbench's Event objects.
    return pd.concat(
        [
            b.to_dataframe(include_units=include_units, include_delegate_debug_data=include_delegate_debug_data)
            for b in inspector.event_blocks
            if b.events
        ],
        ignore_index=True,
    )


def assert_frames_match(fast, ref):
    assert list(fast.columns) == list(ref.columns)
    assert list(fast.dtypes) == list(ref.dtypes)
    pd.testing.assert_frame_equal(fast.drop(columns=["debug_data"]), ref.drop(columns=["debug_data"]))
    for a, b in zip(fast["debug_data"], ref["debug_data"]):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            if isinstance(x, np.ndarray):
                np.testing.assert_array_equal(x, y)
                assert x.dtype == y.dtype
            else:
                assert x == y


@pytest.mark.parametrize("etdump,buffer", etdump_fixtures())
def test_fast_frame_equals_the_reference_construction(etdump, buffer):
    inspector = _inspector(etdump, buffer)
    fast = inspector.to_dataframe()
    assert list(fast.columns) == COLUMNS
    assert_frames_match(fast, _reference_frame(inspector))


@pytest.mark.parametrize("etdump,buffer", etdump_fixtures()[:3])
def test_without_units(etdump, buffer):
    inspector = _inspector(etdump, buffer)
    fast = inspector.to_dataframe(include_units=False)
    assert list(fast.columns)[3:9] == ["p10", "p50", "p90", "avg", "min", "max"]
    assert_frames_match(fast, _reference_frame(inspector, include_units=False))


def test_dtypes_of_a_timed_dump():
    from conftest import REPO

    df = _inspector(REPO / "tests" / "fixtures" / "executorch_tutorial.etdp").to_dataframe()
    dtypes = dict(df.dtypes.astype(str))
    for s in ("p10", "p50", "p90", "avg", "min", "max"):
        assert dtypes[f"{s} (ms)"] == "float64"
    assert dtypes["is_delegated_op"] == "bool"
    assert dtypes["event_name"] == "object"
    assert dtypes["start_time"] == "object"
    assert all(isinstance(x, list) for x in df["raw"])
    assert all(isinstance(x, list) and all(isinstance(t, int) for t in x) for x in df["start_time"])


def test_delegated_frame_with_metadata_columns(delegated_etdump):
    inspector = _inspector(delegated_etdump)
    fast = inspector.to_dataframe(include_delegate_debug_data=True)
    ref = _reference_frame(inspector, include_delegate_debug_data=True)
    assert "delegate_debug_metadata" in fast.columns
    assert_frames_match(fast, ref)
    assert fast["delegate_debug_identifier"].dtype == object
    assert fast["is_delegated_op"].any()


def test_print_data_tabular_is_the_cli_table():
    import io

    from conftest import REPO, run_cli

    etdump = REPO / "tests" / "fixtures" / "executorch_tutorial.etdp"
    out = io.StringIO()
    _inspector(etdump).print_data_tabular(file=out)
    # The reference's table: an explicit scale (the default follows the unit rule).
    _, want, _ = run_cli("inspect", "--etdump_path", etdump, "--target_time_scale", "ms")
    assert out.getvalue() == want
