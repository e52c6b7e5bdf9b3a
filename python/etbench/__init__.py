"""etbench: ExecuTorch ETDumps at C++ speed, from Python.

- ``etbench.inspector``: the reference Inspector's API (Inspector, EventBlock,
  Event, PerfData, TimeScale) backed by etbench's C++ reader.
- ``load_results``, ``load_baseline``, ``compare``: results, baselines and
  comparisons as numpy arrays and pandas DataFrames.
- ``etbench.history.open(url)``: the results history as DataFrames.

See docs/python.md.
"""

from . import history
from ._results import Baseline, MetricSet, compare, load_baseline, load_results
from .inspector import Event, EventBlock, Inspector, PerfData, TimeScale

__all__ = [
    "Baseline",
    "Event",
    "EventBlock",
    "Inspector",
    "MetricSet",
    "PerfData",
    "TimeScale",
    "compare",
    "history",
    "load_baseline",
    "load_results",
]
