"""etbench.history.open: a real history written by `etbench run --history`
reads back as `etbench history list/show` show it."""

import pytest

import etbench
from conftest import REPO, run_cli


def test_runs_and_series_of_a_real_history(tmp_path):
    db = tmp_path / "history.db"
    for i in range(2):
        run_cli(
            "run", REPO / "configs" / "default.yaml", "--model", "toy_cnn", "--iterations", "3",
            "--warmup", "0", "--repetitions", "1", "--output-dir", tmp_path / f"run{i}",
            "--history", db, "--summary", "none", "--label", f"try={i}",
        )
    h = etbench.history.open(str(db))
    assert h.dialect == "sqlite"
    runs = h.runs(suite="default")
    assert len(runs) == 2 and list(runs["status"]) == ["ok", "ok"]
    assert [labels["try"] for labels in runs["labels"]] == ["0", "1"]
    series = h.series("toy_cnn/Execute/Method::execute*", suite="default")
    assert len(series) == 2 and set(series["run"]) == set(runs["id"])
    results = etbench.load_results(str(tmp_path / "run1" / "results.json"))
    execute = results.samples(series["label"].iloc[0])
    assert series["p50"].iloc[1] == float(sorted(execute)[len(execute) // 2])
    assert h.runs(suite="nothing").empty
    assert len(h.runs(since="2000-01-01")) == 2
    for bad in ("garbage", "2026-13-45"):  # a typo is an error, not "no runs"
        with pytest.raises(ValueError, match="since: '" + bad + "' is not a date"):
            h.runs(since=bad)
    not_a_db = tmp_path / "text.db"
    not_a_db.write_text("this is not an SQLite database, just text\n" * 100)
    with pytest.raises((OSError, ValueError)) as info:
        etbench.history.open(str(not_a_db))
    assert "\n" not in str(info.value)
    code, _, err = run_cli("history", "list", "--history", not_a_db, check=False)
    assert code == 2 and err.strip().endswith(str(info.value))
