"""torch.profiler-style views are the CLI's: key_averages().table() is
`etbench inspect --view key_averages`, the exports are `etbench export`'s."""

import warnings

import pytest

from conftest import REPO, run_cli
from etbench.inspector import Inspector

TUTORIAL = REPO / "tests" / "fixtures" / "executorch_tutorial.etdp"


def _load(path=TUTORIAL, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Inspector(etdump_path=str(path), **kwargs)


@pytest.mark.parametrize("group_by", ["name", "instruction"])
@pytest.mark.parametrize("sort_by,row_limit", [(None, None), ("total", 5), ("self", 3), ("count", None)])
def test_key_averages_table_is_the_cli_view(group_by, sort_by, row_limit):
    args = ["inspect", "--etdump_path", TUTORIAL, "--view", "key_averages", "--group-by", group_by, "--run", "all"]
    if sort_by:
        args += ["--sort-by", sort_by]
    if row_limit:
        args += ["--row-limit", row_limit]
    _, want, _ = run_cli(*args)
    got = _load().key_averages(group_by=group_by).table(sort_by=sort_by, row_limit=row_limit)
    assert got == want


def test_torch_sort_names_and_bad_keys():
    table = _load().key_averages()
    assert table.table(sort_by="self_cpu_time_total") == table.table(sort_by="self")
    with pytest.raises(ValueError):
        table.table(sort_by="sideways")
    with pytest.raises(ValueError):
        _load().key_averages(group_by="op_type").table()  # needs an ETRecord


def test_op_types_modules_and_graph_with_the_etrecord(delegated_etdump):
    etrecord = delegated_etdump.with_suffix(".etrecord")
    inspector = _load(delegated_etdump, etrecord=str(etrecord))
    base = ["inspect", "--etdump_path", delegated_etdump, "--etrecord_path", etrecord]
    _, want, _ = run_cli(*base, "--view", "key_averages", "--group-by", "op_type", "--run", "all")
    assert inspector.key_averages(group_by="op_type").table() == want
    _, want, _ = run_cli(*base, "--view", "key_averages", "--group-by", "module", "--run", "all")
    assert inspector.key_averages(group_by="module").table() == want
    _, graph, _ = run_cli(*base, "--show-graph")
    assert str(inspector.get_exported_program()) == graph
    assert inspector.get_exported_program(graph="aten_dialect") is None
    assert _load().get_exported_program() is None
    linked = [e for b in inspector.event_blocks for e in b.events if e.op_types]
    assert linked and all(e.debug_handles for e in linked)
    assert any(e.module_hierarchy for e in linked)
    module = next(iter(next(e for e in linked if e.module_hierarchy).module_hierarchy.values()))
    name = list(module)[-1]
    _, total, _ = run_cli(*base, "--module", name)
    assert total == f"Total for module {name}: {inspector.find_total_for_module(name)!r} ms\n"


def test_exports_are_the_cli_exports(tmp_path):
    trace = tmp_path / "trace.json"
    stacks = tmp_path / "stacks.txt"
    _load().export_chrome_trace(str(trace))
    _load().export_stacks(str(stacks))
    _, want_trace, _ = run_cli("export", "--chrome-trace", TUTORIAL)
    _, want_stacks, _ = run_cli("export", "--stacks", TUTORIAL)
    assert trace.read_text() == want_trace
    assert stacks.read_text() == want_stacks
    with pytest.raises(OSError):
        _load().export_stacks(str(tmp_path / "no" / "such" / "dir" / "x"))
