"""Shared fixtures of the etbench Python package's tests.

ctest runs them with PYTHONPATH=<build>/python and ETBENCH_CLI /
ETBENCH_ET_RUNNER pointing at the build's programs (python/CMakeLists.txt).
The C++ CLI is the oracle: every value the package returns is checked
against `etbench inspect`.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# Real ExecuTorch files shared on the development machine (skipped elsewhere).
SHARED_FIXTURES = Path("/work/shared/fixtures")
SHARED_ETDUMPS = Path("/work/shared/executorch/etdumps")


def cli_path() -> str:
    path = os.environ.get("ETBENCH_CLI")
    if not path:
        pytest.skip("ETBENCH_CLI is not set (ctest sets it)")
    return path


def run_cli(*args, check=True):
    """etbench with `args`; (exit code, stdout, stderr)."""
    p = subprocess.run([cli_path(), *map(str, args)], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"etbench {' '.join(map(str, args))}: {p.stderr}")
    return p.returncode, p.stdout, p.stderr


def inspect_json(etdump, *extra):
    _, out, _ = run_cli("inspect", "--etdump_path", etdump, "--format", "json", *extra)
    return json.loads(out)


def etdump_fixtures():
    """Every committed ETDump, the shared real ones, with their debug buffer
    when one sits beside them (NAME.debug.bin)."""
    found = sorted((REPO / "tests" / "fixtures").rglob("*.etdp"))
    for shared in (SHARED_FIXTURES, SHARED_ETDUMPS):
        if shared.is_dir():
            found += sorted(shared.glob("*.etdp"))
    cases = []
    for path in found:
        buffer = path.with_name(path.stem + ".debug.bin")
        cases.append(pytest.param(path, None, id=path.name))
        if buffer.exists():
            cases.append(pytest.param(path, buffer, id=path.name + "+debug"))
    return cases


@pytest.fixture(scope="session")
def delegated_etdump(tmp_path_factory):
    """A real run of the built-in runtime's transformer_block: delegated
    events with string ids and delegate metadata (ns ticks), with its
    ETRecord beside it (transformer.etrecord)."""
    runner = os.environ.get("ETBENCH_ET_RUNNER")
    if not runner:
        pytest.skip("ETBENCH_ET_RUNNER is not set (ctest sets it)")
    out = tmp_path_factory.mktemp("delegated") / "transformer.etdp"
    etrecord = out.with_suffix(".etrecord")
    subprocess.run(
        [
            runner,
            "--model_path",
            str(REPO / "configs" / "models" / "transformer_block.yaml"),
            "--num_executions",
            "5",
            "--etdump_path",
            str(out),
            "--etrecord_path",
            str(etrecord),
        ],
        check=True,
        capture_output=True,
    )
    return out
