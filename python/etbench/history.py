"""etbench.history: the results history (`etbench history`, docs/history.md)
as DataFrames.

    h = etbench.history.open("results/history.db")   # or postgresql://…
    h.runs(suite="default")                            # one row per run
    h.series("toy_cnn/Execute/*", suite="default")     # one row per (metric, run)
"""

import pandas as pd

from . import _core


class History:
    """An open history database (SQLite file or PostgreSQL URI)."""

    def __init__(self, spec: str):
        self._core = _core.History(str(spec))
        self.spec = str(spec)

    @property
    def dialect(self) -> str:
        return self._core.dialect

    def runs(self, suite: str = "", device: str = "", host: str = "", since: str = "", last: int = 0) -> pd.DataFrame:
        """The stored runs matching the filter, in order ("" = any)."""
        rows = self._core.runs(suite=suite, device=device, host=host, since=since, last=last)
        return pd.DataFrame(
            rows,
            columns=["id", "run_id", "suite", "device", "host", "git_commit", "branch", "time",
                     "status", "source", "labels", "context", "metric_count"],
        )

    def series(self, metric: str = "*", suite: str = "", device: str = "", host: str = "",
               since: str = "", last: int = 0) -> pd.DataFrame:
        """Per-run median and lower decile of every metric whose label matches
        the shell glob `metric`, one row per (metric, run)."""
        rows = self._core.series(metric, suite=suite, device=device, host=host, since=since, last=last)
        return pd.DataFrame(rows, columns=["label", "unit", "run", "p50", "p10", "n"])


def open(spec: str) -> History:  # noqa: A001 - the issue's name: etbench.history.open(url)
    """Opens (creating and migrating if needed) the history at `spec`."""
    return History(spec)
