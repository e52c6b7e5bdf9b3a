"""`cmake --install` puts a working package into the prefix's Python
package directory: importable from there alone, CLI module included."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO


def test_installed_tree_works(tmp_path):
    build = os.environ.get("ETBENCH_BUILD_DIR")
    cmake = os.environ.get("ETBENCH_CMAKE", "cmake")
    if not build:
        pytest.skip("ETBENCH_BUILD_DIR is not set (ctest sets it)")
    prefix = tmp_path / "prefix"
    subprocess.run([cmake, "--install", build, "--prefix", str(prefix)], check=True, capture_output=True)
    found = sorted(prefix.rglob("etbench/_core*.so"))
    assert len(found) == 1, found
    site = found[0].parent.parent
    assert site.name in ("dist-packages", "site-packages")
    env = dict(os.environ, PYTHONPATH=str(site), PYTHONWARNINGS="ignore")
    code = (
        "import etbench, etbench.inspector as i;"
        "assert etbench.__file__.startswith(%r);"
        "print(len(i.Inspector(etdump_path=%r).to_dataframe()))"
        % (str(site), str(REPO / "tests" / "fixtures" / "executorch_tutorial.etdp"))
    )
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert int(p.stdout) > 0
    p = subprocess.run(
        [sys.executable, "-m", "etbench.inspector_cli", "--etdump_path",
         str(REPO / "tests" / "fixtures" / "executorch" / "add.etdp")],
        env=env, capture_output=True, text=True, cwd=tmp_path,
    )
    assert p.returncode == 0 and "event_block_name" in p.stdout, p.stderr
