"""Inspector values against the C++ inspector (`etbench inspect --format
json`) on every fixture, and PerfData bit-identical to numpy."""

import math
import warnings

import numpy as np
import pytest

from conftest import etdump_fixtures, inspect_json
from etbench.inspector import Inspector

STATS = ("p10", "p50", "p90", "avg", "min", "max")


def _inspector(etdump, buffer):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Inspector(
            etdump_path=str(etdump), debug_buffer_path=None if buffer is None else str(buffer)
        )


def _same(a, b):
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


@pytest.mark.parametrize("etdump,buffer", etdump_fixtures())
def test_event_blocks_match_the_cli(etdump, buffer):
    extra = [] if buffer is None else ["--debug_buffer_path", str(buffer)]
    expected = inspect_json(etdump, *extra)
    inspector = _inspector(etdump, buffer)
    blocks = inspector.event_blocks
    assert [b.name for b in blocks] == [b["name"] for b in expected["event_blocks"]]
    for block, want in zip(blocks, expected["event_blocks"]):
        assert block.bundled_input_index == want["bundled_input_index"]
        assert len(block.events) == len(want["events"])
        for event, w in zip(block.events, want["events"]):
            assert event.name == w["name"]
            assert event.delegate_debug_identifier == w["delegate_debug_identifier"]
            assert event.is_delegated_op == w["is_delegated_op"]
            assert event.start_time == w["start_time"]
            assert event.occurrence == w["occurrence"]
            if w["perf_data"] is None:
                assert event.perf_data is None
                continue
            assert event.perf_data.raw == w["perf_data"]["raw"]
            for s in STATS:
                # Reference PerfData (numpy on raw) equals the C++ statistic bit for bit.
                assert _same(float(getattr(event.perf_data, s)), w["perf_data"][s]), (event.name, s)
            assert len(event.debug_data) == len(w["debug_data"])
            for value, wv in zip(event.debug_data, w["debug_data"]):
                _check_debug_value(value, wv)


def _check_debug_value(value, want):
    if want["type"] == "Tensor":
        t = want["tensor"]
        assert isinstance(value, np.ndarray)
        assert list(value.shape) == t["sizes"]
        if t["values"] is not None:
            np.testing.assert_array_equal(value.astype(np.float64).ravel(), np.asarray(t["values"], dtype=np.float64))
        else:
            assert not value.any()  # zeros without a buffer, like the reference
    elif want["type"] in ("Int", "Bool"):
        assert value == want["value"]
    elif want["type"] in ("Float", "Double"):
        assert _same(float(value), float(want["value"]))


@pytest.mark.parametrize("etdump,buffer", etdump_fixtures())
def test_dataframe_statistics_are_numpy_on_raw(etdump, buffer):
    df = _inspector(etdump, buffer).to_dataframe()
    for _, row in df.iterrows():
        if row["raw"] is None:
            continue
        raw = row["raw"]
        assert row["p10 (ms)"] == np.percentile(raw, 10)
        assert row["p50 (ms)"] == np.percentile(raw, 50)
        assert row["p90 (ms)"] == np.percentile(raw, 90)
        assert row["avg (ms)"] == np.mean(raw)
        assert row["min (ms)"] == min(raw)
        assert row["max (ms)"] == max(raw)


@pytest.mark.parametrize("etdump,buffer", etdump_fixtures())
def test_etdump_data_reads_like_etdump_path(etdump, buffer):
    by_path = _inspector(etdump, None).to_dataframe()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        by_bytes = Inspector(etdump_data=etdump.read_bytes()).to_dataframe()
    assert by_path.drop(columns=["debug_data"]).equals(by_bytes.drop(columns=["debug_data"]))


def test_time_scales_and_the_cycles_rule(tmp_path):
    from conftest import REPO
    from etbench.inspector import TimeScale

    etdump = REPO / "tests" / "fixtures" / "executorch" / "add.etdp"
    us = Inspector(etdump_path=str(etdump), source_time_scale=TimeScale.NS, target_time_scale=TimeScale.US)
    want = inspect_json(etdump, "--target_time_scale", "us")
    assert us.event_blocks[0].target_time_scale == TimeScale.US
    got = [e.perf_data.raw for b in us.event_blocks for e in b.events if e.perf_data]
    expected = [e["perf_data"]["raw"] for b in want["event_blocks"] for e in b["events"] if e["perf_data"]]
    assert got == expected
    assert "p10 (us)" in us.to_dataframe().columns
    with pytest.raises(RuntimeError, match="both the source and target time scale have to be in cycles"):
        Inspector(etdump_path=str(etdump), source_time_scale=TimeScale.CYCLES)
    cycles = Inspector(etdump_path=str(etdump), source_time_scale="cycles", target_time_scale="cycles")
    assert "p10 (cycles)" in cycles.to_dataframe().columns
