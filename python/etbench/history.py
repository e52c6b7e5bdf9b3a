"""etbench.history: the results history (`etbench history`, docs/history.md)
as DataFrames.

    h = etbench.history.open("results/history.db")   # or postgresql://…
    h.runs(suite="default")                            # one row per run
    h.series("toy_cnn/Execute/*", suite="default")     # one row per (metric, run)
"""

import os

import pandas as pd

from . import _core
from ._args import int_arg, path_arg


class History:
    """An open history database (SQLite file or PostgreSQL URI)."""

    def __init__(self, spec: "str | os.PathLike"):
        raw = path_arg(spec, "spec")
        self._core = _core.History(raw)
        self.spec = os.fsdecode(raw)

    @property
    def dialect(self) -> str:
        return self._core.dialect

    def runs(self, suite: str = "", device: str = "", host: str = "", since: str = "", last: int = 0) -> pd.DataFrame:
        """The stored runs matching the filter, in order ("" = any)."""
        rows = self._core.runs(suite=suite, device=device, host=host, since=since,
                               last=int_arg(last, "last"))
        return pd.DataFrame(
            rows,
            columns=["id", "run_id", "suite", "device", "host", "git_commit", "branch", "time",
                     "status", "source", "labels", "context", "metric_count"],
        )

    def series(self, metric: str = "*", suite: str = "", device: str = "", host: str = "",
               since: str = "", last: int = 0) -> pd.DataFrame:
        """Per-run median and lower decile of every metric whose label matches
        the shell glob `metric`, one row per (metric, run)."""
        rows = self._core.series(metric, suite=suite, device=device, host=host, since=since,
                                 last=int_arg(last, "last"))
        return pd.DataFrame(rows, columns=["label", "unit", "run", "p50", "p10", "n"])


def open(spec: "str | os.PathLike") -> History:  # noqa: A001 - the issue's name: etbench.history.open(url)
    """Opens (creating and migrating if needed) the history at `spec`: an
    SQLite file name (str or os.PathLike) or a postgresql:// URI. Anything
    else is a TypeError; a NUL byte a ValueError."""
    return History(spec)
