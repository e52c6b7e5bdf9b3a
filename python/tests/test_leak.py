"""1,000 constructions (and frames) do not grow the process's memory."""

import gc
import warnings

from conftest import REPO
from etbench.inspector import Inspector


def _rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _cycle(path, n):
    for _ in range(n):
        inspector = Inspector(etdump_path=path, debug_buffer_path=None)
        inspector.to_dataframe()
        _ = inspector.event_blocks
        del inspector


def test_rss_is_stable_across_1000_constructions():
    path = str(REPO / "tests" / "fixtures" / "executorch_tutorial.etdp")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _cycle(path, 100)  # warm-up: allocator pools, pandas caches
        gc.collect()
        before = _rss_kib()
        _cycle(path, 1000)
        gc.collect()
        after = _rss_kib()
    # A leak of the blocks (tens of KiB per construction) would show as
    # tens of MiB; allocator noise stays within a few MiB.
    assert after - before < 4096, (before, after)
