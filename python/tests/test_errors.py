"""Bad input raises ValueError or OSError with the one line `etbench
inspect` prints (after its "etbench inspect: " prefix); nothing crashes."""

import warnings

import pytest

from conftest import REPO, run_cli
from etbench.inspector import Inspector


def _cli_message(*args):
    code, out, err = run_cli("inspect", *args, check=False)
    assert code == 2 and out == ""
    line = err.strip().splitlines()[-1]
    assert line.startswith("etbench inspect: ")
    return line[len("etbench inspect: "):]


def _raises(exc, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exc) as info:
            Inspector(**kwargs)
    return str(info.value)


def test_missing_file_is_an_oserror(tmp_path):
    path = tmp_path / "absent.etdp"
    assert _raises(OSError, etdump_path=str(path)) == _cli_message("--etdump_path", path)


def test_garbage_is_a_valueerror(tmp_path):
    path = tmp_path / "garbage.etdp"
    path.write_bytes(b"\x10\x00\x00\x00not an etdump at all, just text")
    assert _raises(ValueError, etdump_path=str(path)) == _cli_message("--etdump_path", path)


def test_truncated_real_dump_is_a_valueerror(tmp_path):
    data = (REPO / "tests" / "fixtures" / "executorch_tutorial.etdp").read_bytes()
    path = tmp_path / "truncated.etdp"
    path.write_bytes(data[: len(data) // 2])
    assert _raises(ValueError, etdump_path=str(path)) == _cli_message("--etdump_path", path)


def test_every_truncation_and_bit_flip_raises_cleanly():
    # No crash and no exception other than ValueError, whatever the bytes.
    data = (REPO / "tests" / "fixtures" / "executorch" / "add.etdp").read_bytes()
    inputs = [data[:cut] for cut in range(0, len(data), max(1, len(data) // 64))]
    for i in range(0, len(data), 7):
        flipped = bytearray(data)
        flipped[i] ^= 0xFF
        inputs.append(bytes(flipped))
    refused = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for blob in inputs:
            try:
                Inspector(etdump_data=blob).to_dataframe()
            except ValueError as e:
                assert "\n" not in str(e)
                refused += 1
    assert refused > 0


def test_missing_debug_buffer_and_etrecord(tmp_path):
    etdump = REPO / "tests" / "fixtures" / "executorch_tutorial.etdp"
    missing = tmp_path / "absent.bin"
    assert _raises(OSError, etdump_path=str(etdump), debug_buffer_path=str(missing)) == _cli_message(
        "--etdump_path", etdump, "--debug_buffer_path", missing
    )
    not_a_zip = tmp_path / "etrecord.bin"
    not_a_zip.write_bytes(b"not a zip")
    msg = _raises((ValueError, OSError), etdump_path=str(etdump), etrecord=str(not_a_zip))
    assert msg == _cli_message("--etdump_path", etdump, "--etrecord_path", not_a_zip)


def test_argument_errors_match_the_reference():
    with pytest.raises(ValueError, match="Expecting exactly one of etdump_path or etdump_data"):
        Inspector()
    with pytest.raises(TypeError, match="Unsupported ETRecord type"):
        Inspector(etdump_path="x", etrecord=42)
    with pytest.raises(ValueError):
        Inspector(etdump_path="x", source_time_scale="minutes")


def test_missing_debug_buffer_warns_like_the_reference():
    with pytest.warns(UserWarning, match="Output Buffer not found"):
        Inspector(etdump_path=str(REPO / "tests" / "fixtures" / "executorch" / "add.etdp"))
