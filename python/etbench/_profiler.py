"""torch.profiler-style views over an Inspector: key_averages().table(),
rendered by etbench's C++ profiler tables (the same text as
`etbench inspect --view key_averages|events`)."""

from typing import Optional

from . import _core
from ._args import choice_arg, int_arg
from ._event import TimeScale


class ProfilerTable:
    """What ``Inspector.key_averages(group_by=…)`` returns; ``table()``
    renders it like torch.profiler's ``key_averages().table()``.
    An unknown ``group_by`` is a ValueError at once, listing the valid ones."""

    def __init__(self, core, view: str, group_by: str):
        self._core = core
        self._view = view
        self._group_by = choice_arg(group_by, "group_by", _core.choices()["group_by"])

    def table(
        self,
        sort_by: Optional[str] = None,
        row_limit: Optional[int] = None,
        time_unit: Optional[str] = None,
        top_level_only: bool = False,
    ) -> str:
        """sort_by: total, self, avg, count or name (torch.profiler's
        ``self_cpu_time_total`` style names are accepted too); row_limit:
        rows per block (-1 or None: all); time_unit: ns, us, ms, s or cycles.
        Unknown names are a ValueError listing the valid ones."""
        if row_limit is not None and int_arg(row_limit, "row_limit", minimum=-1) < 0:
            row_limit = None
        if time_unit is not None:
            time_unit = choice_arg(time_unit, "time_unit", [ts.value for ts in TimeScale])
        return self._core.profiler_table(
            self._view,
            self._group_by,
            sort_by=_sort_key(sort_by),
            row_limit=row_limit,
            time_unit=time_unit,
            top_level_only=top_level_only,
        )

    def __str__(self) -> str:
        return self.table()


_TORCH_SORT_KEYS = {
    "cpu_time_total": "total",
    "self_cpu_time_total": "self",
    "cpu_time": "avg",
    "count": "count",
}


def _sort_key(sort_by: Optional[str]) -> Optional[str]:
    if sort_by is None:
        return None
    names = _core.choices()["sort_by"]
    choice_arg(sort_by, "sort_by", names + [k for k in _TORCH_SORT_KEYS if k not in names])
    return _TORCH_SORT_KEYS.get(sort_by, sort_by)
