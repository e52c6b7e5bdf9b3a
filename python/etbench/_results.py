"""Results, baselines and comparisons (beyond the reference Inspector).

Samples are numpy float64 arrays that view the C++ vectors (read-only, no
copies; each array keeps its MetricSet alive). Comparisons run etbench's
comparison engine, the one `etbench compare` runs, and come back as a
DataFrame.
"""

import json
import os
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Union

import numpy as np
import pandas as pd

from . import _core
from ._args import int_arg, path_arg


class MetricSet:
    """A results file or a baseline as metrics: ``context`` (suite, device,
    time source, …) and ``metrics`` (dicts with key fields, ``unit``,
    ``samples`` as a numpy array, ``group_sizes``, ``op_types``, …)."""

    def __init__(self, core: "_core.MetricSet", path: str):
        self._core = core
        self.path = path
        self.context: Dict[str, str] = core.context
        self.metrics: List[Dict[str, Any]] = core.metrics()

    def __len__(self) -> int:
        return len(self.metrics)

    def samples(self, label: str) -> np.ndarray:
        """The samples of the metric labelled `label`
        ("toy_cnn/Execute/native_call_convolution.out#3")."""
        for m in self.metrics:
            if m["label"] == label:
                return m["samples"]
        raise KeyError(label)

    def to_dataframe(self) -> pd.DataFrame:
        """One row per metric: its key, unit, sample count, median and the
        samples array itself."""
        rows = []
        for m in self.metrics:
            s = m["samples"]
            rows.append(
                {
                    "label": m["label"],
                    "model": m["model"],
                    "block": m["block"],
                    "kind": m["kind"],
                    "name": m["name"],
                    "instruction_id": m["instruction_id"],
                    "delegate_id": m["delegate_id"],
                    "occurrence": m["occurrence"],
                    "unit": m["unit"],
                    "n": len(s),
                    "p50": float(np.median(s)) if len(s) else float("nan"),
                    "end_to_end": m["end_to_end"],
                    "samples": s,
                }
            )
        return pd.DataFrame(rows)


@dataclass
class Baseline:
    """A stored baseline (`etbench baseline save`): its name, creation date
    (UTC, ISO 8601) and metrics."""

    name: str
    created: str
    metrics: MetricSet


def load_results(path: str) -> MetricSet:
    """An `etbench run` results file (or a baseline file) as a MetricSet.
    Bad input raises ValueError, a missing/unreadable file OSError, with the
    message `etbench compare` prints."""
    raw = path_arg(path, "path")
    return MetricSet(_core.load_metric_set(raw), os.fsdecode(raw))


def load_baseline(path: str) -> Baseline:
    """A baseline file (baselines/<device>/<suite>.json)."""
    raw = path_arg(path, "path")
    name, created, core = _core.load_baseline(raw)
    return Baseline(name=name, created=created, metrics=MetricSet(core, os.fsdecode(raw)))


_ROW_COLUMNS = [
    "model",
    "block",
    "kind",
    "name",
    "instruction_id",
    "delegate_id",
    "occurrence",
    "statistic",
    "unit",
    "end_to_end",
    "n_baseline",
    "n_candidate",
    "baseline",
    "candidate",
    "delta",
    "scale",
    "change",
    "ci_low",
    "ci_high",
    "p_value",
    "p_adjusted",
    "threshold",
    "mde",
    "iterations_needed",
    "design_effect",
    "test",
    "rule",
    "gated",
    "verdict",
    "reason",
]


def _metric_set(value: Union[MetricSet, Baseline, str], name: str) -> MetricSet:
    if isinstance(value, Baseline):
        return value.metrics
    if isinstance(value, MetricSet):
        return value
    return load_results(path_arg(value, name))


def compare(
    baseline: Union[MetricSet, Baseline, str],
    candidate: Union[MetricSet, Baseline, str],
    thresholds: Optional[str] = None,
    seed: int = 0,
) -> pd.DataFrame:
    """Compares like `etbench compare BASELINE CANDIDATE [--thresholds FILE]`.

    Returns one row per metric and statistic: the verdict (regression,
    improvement, unchanged, inconclusive), the change with its bootstrap
    interval (ci_low, ci_high; fractions of the baseline for relative rows),
    p-values, threshold, minimum detectable effect and the reason. ``attrs``
    holds the rest: ``outcome``, ``counts``, ``attribution`` (a DataFrame:
    where the change of Method::execute went), ``structure_changes``,
    ``warnings`` and ``comparison`` (the whole JSON document).
    """
    text, labels = _core.compare_json(
        _metric_set(baseline, "baseline")._core,
        _metric_set(candidate, "candidate")._core,
        b"" if thresholds is None else path_arg(thresholds, "thresholds"),
        int_arg(seed, "seed"),
    )
    doc = json.loads(text)
    rows = []
    for r, label in zip(doc["metrics"], labels):
        row = {c: r.get(c) for c in _ROW_COLUMNS if c not in ("ci_low", "ci_high")}
        row["ci_low"], row["ci_high"] = r["ci"]
        row["label"] = label
        rows.append(row)
    df = pd.DataFrame(rows, columns=["label"] + _ROW_COLUMNS)
    df.attrs["outcome"] = doc["outcome"]
    df.attrs["counts"] = doc["counts"]
    df.attrs["attribution"] = _attribution_frame(doc["attribution"])
    df.attrs["structure_changes"] = doc["structure_changes"]
    df.attrs["warnings"] = doc["warnings"]
    df.attrs["comparison"] = doc
    return df


def _attribution_frame(attributions: List[Dict[str, Any]]) -> pd.DataFrame:
    rows = []
    for a in attributions:
        for item in a["items"]:
            rows.append(
                {
                    "model": a["model"],
                    "block": a["block"],
                    "unit": a["unit"],
                    "execute_delta": a["delta"],
                    "kind": item["kind"],
                    "label": item["label"],
                    "metric": item["metric"],
                    "delta": item["delta"],
                    "share": item["share"],
                }
            )
    return pd.DataFrame(
        rows,
        columns=["model", "block", "unit", "execute_delta", "kind", "label", "metric", "delta", "share"],
    )
