"""Inspector.to_dataframe at C++ speed: the columns come finished from
etbench._core (FrameColumns); only events whose durations Python computed
(a user delegate_time_scale_converter) are patched here."""

from typing import Dict, List

import numpy as np
import pandas as pd

_STATS = ("p10", "p50", "p90", "avg", "min", "max")


def frame_from_columns(columns: Dict[str, np.ndarray], n: int) -> pd.DataFrame:
    """A DataFrame over the core's arrays (no per-cell conversion)."""
    return pd.DataFrame(columns, index=pd.RangeIndex(n), copy=False)


def patch_converted_rows(df: pd.DataFrame, units: str, rows: Dict[int, list]) -> pd.DataFrame:
    """Replaces raw and the statistics of `rows` (row -> raw list), computing
    the statistics with numpy exactly as the reference's PerfData does."""
    from ._event import PerfData

    raw_col = df["raw"].to_numpy(copy=True)
    stat_cols = {s: df[s + units].to_numpy(copy=True) for s in _STATS}
    for row, raw in rows.items():
        perf = PerfData(raw)
        raw_col[row] = raw
        for s in _STATS:
            stat_cols[s][row] = getattr(perf, s)
    df["raw"] = raw_col
    for s in _STATS:
        df[s + units] = stat_cols[s]
    return df


def block_rows(sizes: List[int]) -> List[range]:
    """Row ranges of consecutive blocks of `sizes` events."""
    out, start = [], 0
    for size in sizes:
        out.append(range(start, start + size))
        start += size
    return out
