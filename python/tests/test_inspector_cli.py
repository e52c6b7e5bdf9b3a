"""python3 -m etbench.inspector_cli prints what the reference CLI prints
(the Inspector's table), the same table `etbench inspect --target_time_scale ms`
prints (without an explicit scale `etbench inspect` follows the unit rule of
docs/reports.md)."""

import os
import subprocess
import sys

from conftest import REPO, run_cli

TUTORIAL = REPO / "tests" / "fixtures" / "executorch_tutorial.etdp"


def _module(*args):
    return subprocess.run(
        [sys.executable, "-m", "etbench.inspector_cli", *map(str, args)],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONWARNINGS="ignore"),
    )


def test_prints_the_inspector_table(tmp_path):
    p = _module("--etdump_path", TUTORIAL)
    assert p.returncode == 0, p.stderr
    _, want, _ = run_cli("inspect", "--etdump_path", TUTORIAL, "--target_time_scale", "ms")
    assert p.stdout == want
    tsv = tmp_path / "out.tsv"
    assert _module("--etdump_path", TUTORIAL, "--tsv_path", tsv).returncode == 0
    _, want_tsv, _ = run_cli("inspect", "--etdump_path", TUTORIAL, "--format", "tsv")
    assert tsv.read_text() == want_tsv


def test_debug_buffer_and_etrecord():
    etdump = REPO / "tests" / "fixtures" / "executorch" / "bundled_program_intermediates.etdp"
    buffer = etdump.with_name("bundled_program_intermediates.debug.bin")
    p = _module("--etdump_path", etdump, "--debug_buffer_path", buffer)
    assert p.returncode == 0, p.stderr
    _, want, _ = run_cli("inspect", "--etdump_path", etdump, "--debug_buffer_path", buffer,
                         "--target_time_scale", "ms")
    assert p.stdout == want
    etrecord = REPO / "tests" / "fixtures" / "executorch_sample_etrecord.bin"
    p = _module("--etdump_path", TUTORIAL, "--etrecord_path", etrecord)
    assert p.returncode == 0, p.stderr


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    p = _module("--etdump_path", tmp_path / "absent.etdp")
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1
