"""A crafted ETDump whose debug events claim enormous tensor shapes: without
a debug buffer the values are zeros (as the reference substitutes), and
etbench hands them out as read-only views of one zero element, so the claim
costs no memory; with a debug buffer the claim is checked against it."""

import struct
import subprocess
import sys
import warnings

import numpy as np
import pytest

from conftest import REPO
from etbench.inspector import Inspector

FIXTURE = REPO / "tests" / "fixtures" / "executorch" / "bundled_program_intermediates.etdp"
BUFFER = FIXTURE.with_name("bundled_program_intermediates.debug.bin")
HUGE = 1 << 32  # elements in the first dimension: 16 GiB of float32 and more


def _inspector(**kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Inspector(**kwargs)


def _crafted() -> bytes:
    """The fixture with the first dimension of every tensor shape it records
    made HUGE (the int64 size vectors patched in place: still valid)."""
    data = bytearray(FIXTURE.read_bytes())
    shapes = set()
    for block in _inspector(etdump_path=FIXTURE).event_blocks:
        for event in block.events:
            for value in event.debug_data:
                if isinstance(value, np.ndarray) and value.ndim > 0:
                    shapes.add(value.shape)
    patched = 0
    for shape in shapes:
        pattern = struct.pack(f"<I{len(shape)}q", len(shape), *shape)
        huge = struct.pack(f"<I{len(shape)}q", len(shape), HUGE, *shape[1:])
        at = data.find(pattern)
        while at >= 0:
            data[at : at + len(pattern)] = huge
            patched += 1
            at = data.find(pattern, at + 1)
    assert patched > 0, "no tensor shape found in the fixture"
    return bytes(data)


def test_enormous_shapes_without_a_debug_buffer_cost_nothing():
    crafted = _crafted()
    inspector = _inspector(etdump_data=crafted)
    arrays = [v for b in inspector.event_blocks for e in b.events for v in e.debug_data
              if isinstance(v, np.ndarray) and v.ndim > 0]
    huge = [a for a in arrays if a.shape[0] == HUGE]
    assert huge, "the patched shapes did not reach the values"
    for a in huge:
        assert a.strides == (0,) * a.ndim and not a.flags.writeable
        assert a.flat[0] == 0 and a.flat[-1] == 0
    assert len(inspector.to_dataframe()) > 0


def test_enormous_shapes_keep_the_peak_memory_small(tmp_path):
    # In a fresh interpreter, so that the peak is this read's.
    path = tmp_path / "crafted.etdp"
    path.write_bytes(_crafted())
    code = (
        "import resource, warnings, sys\n"
        "warnings.simplefilter('ignore')\n"
        "from etbench.inspector import Inspector\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        f"i = Inspector(etdump_path={str(path)!r})\n"
        "df = i.to_dataframe(); n = sum(len(b.events) for b in i.event_blocks)\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    grown_kb = int(out.stdout.strip())
    # Each claim is 16 GiB or more; the whole read stays within 64 MiB.
    assert grown_kb < 64 * 1024, f"peak grew by {grown_kb} KiB"


def test_enormous_shapes_with_a_debug_buffer_are_an_error():
    with pytest.raises(ValueError) as info:
        _inspector(etdump_data=_crafted(), debug_buffer_path=BUFFER)
    message = str(info.value)
    assert "lies outside the debug buffer" in message or "overflows 64 bits" in message, message
