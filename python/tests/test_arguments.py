"""Every public entry point guards its arguments as the CLI does: an export
never replaces one of its own inputs (nor a device or FIFO); a file name with
a NUL byte is a ValueError, never a shorter name opened; a file name that is
not str/bytes/os.PathLike is a TypeError, never str()-ed into a file; an
unknown value of a string option is a ValueError listing the valid ones."""

import os
import shutil
import warnings
from pathlib import Path

import pytest

import etbench
from conftest import REPO, run_cli
from etbench.inspector import Inspector
from etbench.inspector_cli import main as inspector_cli

ETDUMP = REPO / "tests" / "fixtures" / "executorch_tutorial.etdp"
RESULTS = REPO / "baselines" / "builtin-reference" / "default.json"


def _inspector(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Inspector(etdump_path=path)


@pytest.fixture
def etdump(tmp_path):
    path = tmp_path / "dump.etdp"
    shutil.copyfile(ETDUMP, path)
    return path


# -- exports onto their own inputs ---------------------------------------


@pytest.mark.parametrize("export", ["export_chrome_trace", "export_stacks", "save_data_to_tsv"])
def test_an_export_onto_its_own_input_is_refused_like_the_cli(etdump, tmp_path, export):
    before = etdump.read_bytes()
    inspector = _inspector(etdump)
    link = tmp_path / "hard-link.etdp"
    os.link(etdump, link)
    for target in (etdump, str(etdump), link, tmp_path / "." / "dump.etdp"):
        with pytest.raises(ValueError) as info:
            getattr(inspector, export)(target)
        assert str(info.value) == f"{target}: is an input of this command; refusing to overwrite it"
    assert etdump.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dump.etdp", "hard-link.etdp"]
    # The CLI refuses the same with the same words.
    code, _, err = run_cli("export", "--chrome-trace", etdump, "--output", etdump, check=False)
    assert code == 2 and err.strip().endswith("is an input of this command; refusing to overwrite it")
    # Another name is written.
    getattr(inspector, export)(tmp_path / "out.txt")
    assert (tmp_path / "out.txt").stat().st_size > 0


def test_an_export_onto_the_debug_buffer_is_refused(tmp_path):
    etdump = REPO / "tests" / "fixtures" / "executorch" / "add.etdp"
    buffer = tmp_path / "debug.bin"
    buffer.write_bytes(b"\0" * 64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        inspector = Inspector(etdump_path=etdump, debug_buffer_path=buffer)
    with pytest.raises(ValueError, match="is an input of this command"):
        inspector.export_stacks(buffer)
    assert buffer.read_bytes() == b"\0" * 64


def test_exports_refuse_devices_fifos_and_directories(etdump, tmp_path):
    inspector = _inspector(etdump)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for target, kind in (("/dev/null", "is a character device"), (fifo, "is a FIFO"), (tmp_path, "is a directory")):
        with pytest.raises(ValueError) as info:
            inspector.export_chrome_trace(target)
        assert str(info.value) == f"{target}: {kind}; refusing to replace it with a regular file"
    assert fifo.exists() and not fifo.is_file()


def test_the_inspector_cli_refuses_a_tsv_onto_its_etdump(etdump, capsys):
    before = etdump.read_bytes()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert inspector_cli(["--etdump_path", str(etdump), "--tsv_path", str(etdump)]) == 2
    err = capsys.readouterr().err
    assert err == f"etbench.inspector_cli: {etdump}: is an input of this command; refusing to overwrite it\n"
    assert etdump.read_bytes() == before


# -- NUL bytes --------------------------------------------------------------


def test_a_nul_byte_in_any_file_name_is_a_valueerror(etdump, tmp_path):
    # Were the name cut at the NUL, each of these would open `etdump` (or
    # create `victim`) instead.
    cut = str(etdump) + "\0.ignored"
    victim = tmp_path / "victim"
    calls = {
        "etdump_path": lambda: _inspector(cut),
        "debug_buffer_path": lambda: Inspector(etdump_path=etdump, debug_buffer_path=cut),
        "etrecord": lambda: Inspector(etdump_path=etdump, etrecord=cut),
        "path": lambda: etbench.load_results(str(RESULTS) + "\0x"),
        "baseline path": lambda: etbench.load_baseline(str(RESULTS) + "\0x"),
        "thresholds": lambda: etbench.compare(RESULTS, RESULTS, thresholds=str(RESULTS) + "\0x"),
        "candidate": lambda: etbench.compare(RESULTS, str(RESULTS) + "\0x"),
        "spec": lambda: etbench.history.open(str(victim) + "\0.db"),
        "export": lambda: _inspector(etdump).export_chrome_trace(str(victim) + "\0.json"),
        "tsv": lambda: _inspector(etdump).save_data_to_tsv(str(victim) + "\0.tsv"),
    }
    for what, call in calls.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(ValueError, match="file name contains a NUL byte"):
                call()
    assert not victim.exists()


def test_the_core_module_refuses_nul_bytes_too(etdump, tmp_path):
    from etbench import _core

    with pytest.raises(ValueError, match="etdump_path: file name contains a NUL byte"):
        _core.Inspection(etdump_path=str(etdump) + "\0x")
    with pytest.raises(ValueError, match="spec: file name contains a NUL byte"):
        _core.History(str(tmp_path / "h.db") + "\0x")
    with pytest.raises(ValueError, match="path: file name contains a NUL byte"):
        _core.load_metric_set(str(RESULTS) + "\0x")
    assert not (tmp_path / "h.db").exists()


# -- type confusion -----------------------------------------------------------


def test_a_file_name_of_another_type_is_a_typeerror(tmp_path, monkeypatch, etdump):
    monkeypatch.chdir(tmp_path)
    for bad in (5, 5.0, True, None, ["h.db"], object()):
        with pytest.raises(TypeError, match="spec: expected a file name"):
            etbench.history.open(bad)
        with pytest.raises(TypeError, match="path: expected a file name"):
            etbench.load_results(bad)
        with pytest.raises(TypeError, match="path: expected a file name"):
            _inspector(etdump).export_stacks(bad)
    for bad in (5, 1.5, object()):
        with pytest.raises(TypeError, match="etdump_path: expected a file name"):
            _inspector(bad)
        with pytest.raises(TypeError, match="candidate: expected a file name"):
            etbench.compare(RESULTS, bad)
        with pytest.raises(TypeError):
            _inspector(etdump).save_data_to_tsv(bad)
    assert list(tmp_path.iterdir()) == [etdump]  # no file named "5", "None", ...
    # os.PathLike is a file name everywhere.
    h = etbench.history.open(tmp_path / "h.db")
    assert h.dialect == "sqlite" and (tmp_path / "h.db").is_file()
    assert len(etbench.load_results(RESULTS)) > 0


def test_etdump_data_must_be_bytes_like():
    # bytes(5) is five zero bytes and bytes(10**10) ten gigabytes.
    for bad in (5, 10**10, "ED00", 1.0):
        with pytest.raises(TypeError, match="etdump_data: expected bytes-like data"):
            Inspector(etdump_data=bad)
    data = ETDUMP.read_bytes()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for good in (data, bytearray(data), memoryview(data)):
            assert len(Inspector(etdump_data=good).to_dataframe()) > 0


def test_integer_arguments_refuse_other_types():
    with pytest.raises(TypeError, match="seed: expected an int"):
        etbench.compare(RESULTS, RESULTS, seed="1")
    with pytest.raises(ValueError, match="seed: -1 is less than 0"):
        etbench.compare(RESULTS, RESULTS, seed=-1)
    with pytest.raises(TypeError, match="row_limit: expected an int"):
        _inspector(ETDUMP).key_averages().table(row_limit="5")
    with pytest.raises(TypeError, match="file: expected a writable file object"):
        _inspector(ETDUMP).print_data_tabular(file="out.txt")


def test_history_filters_refuse_other_types(tmp_path):
    h = etbench.history.open(tmp_path / "h.db")
    for bad in (True, "3", 1.5):
        with pytest.raises(TypeError, match="last: expected an int"):
            h.runs(last=bad)
    with pytest.raises(ValueError, match="last: -1 is less than 0"):
        h.series("*", last=-1)
    assert h.runs(last=3).empty


# -- string options -----------------------------------------------------------


def test_unknown_group_by_is_refused_at_once_listing_the_valid_ones():
    inspector = _inspector(ETDUMP)
    with pytest.raises(ValueError) as info:
        inspector.key_averages(group_by="bogus")
    assert str(info.value) == "group_by: unknown value 'bogus' (expected name, op_type, module or instruction)"
    with pytest.raises(TypeError, match="group_by: expected a str"):
        inspector.key_averages(group_by=None)
    for good in ("name", "instruction"):
        assert inspector.key_averages(group_by=good).table()


def test_every_other_string_option_lists_the_valid_values():
    inspector = _inspector(ETDUMP)
    table = inspector.key_averages()
    cases = {
        "sort_by": lambda: table.table(sort_by="fastest"),
        "time_unit": lambda: table.table(time_unit="minutes"),
        "source_time_scale": lambda: Inspector(etdump_path=ETDUMP, source_time_scale="minutes"),
        "target_time_scale": lambda: Inspector(etdump_path=ETDUMP, target_time_scale="hours"),
    }
    for name, call in cases.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(ValueError) as info:
                call()
        message = str(info.value)
        assert message.startswith(f"{name}: unknown value"), message
        assert "ns, us, ms, s or cycles" in message or "total, self, avg, count, name" in message
    assert "self_cpu_time_total" in str(pytest.raises(ValueError, table.table, sort_by="x").value)
    assert table.table(sort_by="self_cpu_time_total", time_unit="us")


def test_the_core_refuses_an_unknown_separator():
    inspector = _inspector(ETDUMP)
    with pytest.raises(ValueError, match="separator: unknown value"):
        inspector._core.delimited_text(True, False, ";")


def test_a_history_on_a_special_file_is_refused_like_the_cli(tmp_path):
    # SQLite would open /dev/null and create /dev/null-journal beside it.
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for spec, kind in (("/dev/null", "is a character device"), (fifo, "is a FIFO"), (tmp_path, "is a directory")):
        with pytest.raises(ValueError) as info:
            etbench.history.open(spec)
        assert str(info.value) == f"{spec}: {kind}, not a history database (an SQLite file)"
        code, _, err = run_cli("history", "list", "--history", spec, check=False)
        assert code == 2 and err.strip().endswith(str(info.value))
    assert not Path("/dev/null-journal").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]
