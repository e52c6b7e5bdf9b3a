"""delegate_metadata_parser and delegate_time_scale_converter are called
exactly as the reference calls them."""

import warnings

import numpy as np

from etbench.inspector import Inspector


def _load(path, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Inspector(etdump_path=str(path), **kwargs)


def test_converter_gets_each_start_and_end_with_the_event_name(delegated_etdump):
    calls = []

    def convert(name, time):
        calls.append((name, time))
        return time / 1000.0

    inspector = _load(delegated_etdump, delegate_time_scale_converter=convert)
    # Called while constructing, as the reference does.
    assert calls
    delegated = [e for b in inspector.event_blocks for e in b.events if e.is_delegated_op and e.perf_data]
    assert delegated
    assert len(calls) == sum(2 * len(e.perf_data.raw) for e in delegated)
    expected_calls = []
    for e in delegated:
        assert e.name == str(e.delegate_debug_identifier)
        for start, end in zip(e.start_time, e._end_time):
            expected_calls += [(e.name, start), (e.name, end)]
        expected = [end / 1000.0 - start / 1000.0 for start, end in zip(e.start_time, e._end_time)]
        assert e.perf_data.raw == expected
        assert e.perf_data.p50 == np.percentile(expected, 50)
    assert calls == expected_calls
    # The DataFrame carries the converted durations and numpy's statistics.
    frame = inspector.to_dataframe()
    rows = frame[frame["is_delegated_op"] & frame["raw"].notna()]
    assert list(rows["raw"]) == [e.perf_data.raw for e in delegated]
    assert list(rows["p90 (ms)"]) == [np.percentile(e.perf_data.raw, 90) for e in delegated]
    # Non-delegated events keep the time scale factor (the C++ values).
    plain = _load(delegated_etdump).to_dataframe()
    keep = ~frame["is_delegated_op"]
    assert list(frame[keep]["raw"]) == list(plain[keep]["raw"])


def test_parser_gets_the_raw_metadatas_once_per_delegated_event(delegated_etdump):
    calls = []

    def parse(metadatas):
        calls.append(list(metadatas))
        return {"runs": len(metadatas), "first_len": len(metadatas[0])}

    inspector = _load(delegated_etdump, delegate_metadata_parser=parse)
    with_metadata = [
        e for b in inspector.event_blocks for e in b.events if e.is_delegated_op and e.raw_delegate_debug_metadatas
    ]
    assert with_metadata
    assert calls == []  # lazily, like the reference's cached_property
    df = inspector.to_dataframe(include_delegate_debug_data=True)
    assert len(calls) == len(with_metadata)
    assert "runs" in df.columns and "first_len" in df.columns
    inspector.to_dataframe(include_delegate_debug_data=True)
    assert len(calls) == len(with_metadata)  # cached per Event
    for e, got in zip(with_metadata, calls):
        assert got == e.raw_delegate_debug_metadatas
        assert all(isinstance(m, (bytes, str)) for m in got)
        assert e.delegate_debug_metadatas == {"runs": len(got), "first_len": len(got[0])}
    # Non-delegated events never reach the parser.
    for b in inspector.event_blocks:
        for e in b.events:
            if not e.is_delegated_op:
                assert e.delegate_debug_metadatas == e.raw_delegate_debug_metadatas
