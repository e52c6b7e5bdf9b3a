"""load_results / load_baseline (samples as numpy views, no copies) and
compare (etbench compare's verdicts as a DataFrame)."""

import json
import sys

import numpy as np
import pytest

import etbench
from conftest import REPO, run_cli

BASELINE = REPO / "baselines" / "builtin-reference" / "default.json"


def test_baseline_samples_are_numpy_views_of_the_file():
    baseline = etbench.load_baseline(str(BASELINE))
    doc = json.loads(BASELINE.read_text())
    assert baseline.name == doc["name"] and baseline.created == doc["created"]
    assert len(baseline.metrics) == len(doc["metrics"])
    for got, want in zip(baseline.metrics.metrics, doc["metrics"]):
        s = got["samples"]
        assert s.dtype == np.float64 and not s.flags.writeable and not s.flags.owndata
        assert s.tolist() == want["samples"]
        assert got["unit"] == want["unit"] and got["name"] == want["name"]
    first = baseline.metrics.metrics[0]["samples"]
    # The array keeps its MetricSet alive: nothing was copied out of it.
    holder = first.base
    del baseline
    assert sys.getrefcount(holder) >= 2
    assert first.tolist() == doc["metrics"][0]["samples"]
    frame = etbench.load_results(str(BASELINE)).to_dataframe()
    assert list(frame["label"])[0].startswith("toy_cnn/")
    assert frame["n"].sum() == sum(len(m["samples"]) for m in doc["metrics"])


def _shifted(tmp_path, factor, name_part="native_call_convolution"):
    doc = json.loads(BASELINE.read_text())
    for m in doc["metrics"]:
        if name_part in m["name"] and m["model"] == "toy_cnn":
            m["samples"] = [x * factor for x in m["samples"]]
    path = tmp_path / "candidate.json"
    path.write_text(json.dumps(doc))
    return path


def test_compare_matches_the_cli(tmp_path):
    candidate = _shifted(tmp_path, 1.5)
    df = etbench.compare(etbench.load_baseline(str(BASELINE)), str(candidate))
    report = tmp_path / "comparison.json"
    code, _, _ = run_cli("compare", BASELINE, candidate, "--report", f"json={report}", check=False)
    want = json.loads(report.read_text())
    assert code == (1 if want["outcome"] == "regression" else 0)
    assert df.attrs["outcome"] == want["outcome"] == "regression"
    assert list(df["verdict"]) == [r["verdict"] for r in want["metrics"]]
    assert list(df["ci_low"]) == [r["ci"][0] for r in want["metrics"]]
    assert list(df["reason"]) == [r["reason"] for r in want["metrics"]]
    regressed = df[df["verdict"] == "regression"]
    assert not regressed.empty and all("native_call_convolution" in x for x in regressed["name"])
    attribution = df.attrs["attribution"]
    assert set(attribution.columns) >= {"model", "kind", "label", "delta", "share"}
    assert (attribution["model"] == "toy_cnn").any()


def test_compare_with_itself_passes_and_bad_files_raise(tmp_path):
    df = etbench.compare(str(BASELINE), str(BASELINE))
    assert df.attrs["outcome"] in ("pass", "inconclusive")
    assert set(df["verdict"]) <= {"unchanged", "inconclusive"}
    assert (df["change"] == 0).all()
    with pytest.raises(OSError):
        etbench.load_results(str(tmp_path / "absent.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError) as info:
        etbench.load_results(str(bad))
    assert "\n" not in str(info.value)
    with pytest.raises((ValueError, OSError)):
        etbench.compare(str(BASELINE), str(BASELINE), thresholds=str(tmp_path / "absent.yaml"))
