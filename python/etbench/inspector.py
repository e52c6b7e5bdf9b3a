"""etbench.inspector: ExecuTorch's Inspector API (devtools/inspector) backed
by etbench's C++ reader. Switch by changing the import:

    from etbench.inspector import Inspector, TimeScale

Where etbench differs on purpose, see docs/python.md.
"""

import logging
import os
import sys
import warnings
from typing import IO, Any, Callable, Dict, List, Optional, Union

import pandas as pd

from . import _core
from ._args import bytes_arg, choice_arg, path_arg
from ._errors import TimeScaleMismatchError
from ._event import (
    Event,
    EventBlock,
    PerfData,
    TimeScale,
    _with_delegate_columns,
    calculate_time_scale_factor,
)
from ._frame import block_rows, frame_from_columns, patch_converted_rows
from ._profiler import ProfilerTable

__all__ = [
    "Event",
    "EventBlock",
    "ExportedProgramSummary",
    "Inspector",
    "PerfData",
    "TimeScale",
]

log: logging.Logger = logging.getLogger(__name__)


class ExportedProgramSummary:
    """What get_exported_program returns: etbench reads the ETRecord's
    edge-dialect program as data (no torch), so this is its graph summary
    (``str()`` gives the text `etbench inspect --show-graph` prints)."""

    def __init__(self, text: str):
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text


def _time_scale(value: Union[TimeScale, str], name: str) -> TimeScale:
    if isinstance(value, TimeScale):
        return value
    return TimeScale(choice_arg(value, name, [ts.value for ts in TimeScale]))


class Inspector:
    """APIs for examining model performance (the reference Inspector's).

    Public attributes: ``event_blocks`` (built on first access unless a
    delegate_time_scale_converter is given, which the reference calls while
    constructing and so does etbench).
    """

    def __init__(
        self,
        etdump_path: Optional[str] = None,
        etdump_data: Optional[bytes] = None,
        etrecord: Optional[str] = None,
        source_time_scale: TimeScale = TimeScale.NS,
        target_time_scale: TimeScale = TimeScale.MS,
        debug_buffer_path: Optional[str] = None,
        delegate_metadata_parser: Optional[Callable[[List[Any]], Dict[str, Any]]] = None,
        delegate_time_scale_converter: Optional[
            Callable[[Union[int, str], Union[int, float]], Union[int, float]]
        ] = None,
        enable_module_hierarchy: bool = False,
    ) -> None:
        source_time_scale = _time_scale(source_time_scale, "source_time_scale")
        target_time_scale = _time_scale(target_time_scale, "target_time_scale")
        if (source_time_scale == TimeScale.CYCLES) ^ (target_time_scale == TimeScale.CYCLES):
            raise TimeScaleMismatchError(
                "For TimeScale in cycles both the source and target time scale have to be in cycles."
            )
        self._source_time_scale = source_time_scale
        self._target_time_scale = target_time_scale
        if etrecord is not None and not isinstance(etrecord, (str, os.PathLike)):
            raise TypeError("Unsupported ETRecord type")
        if (etdump_path is None) == (etdump_data is None):
            raise ValueError("Expecting exactly one of etdump_path or etdump_data to be specified.")
        self._core = _core.Inspection(
            etdump_path=None if etdump_path is None else path_arg(etdump_path, "etdump_path"),
            etdump_data=None if etdump_data is None else bytes_arg(etdump_data, "etdump_data"),
            source_time_scale=source_time_scale.value,
            target_time_scale=target_time_scale.value,
            debug_buffer_path=(
                None if debug_buffer_path is None else path_arg(debug_buffer_path, "debug_buffer_path")
            ),
            etrecord_path=None if etrecord is None else path_arg(etrecord, "etrecord"),
        )
        if debug_buffer_path is None:
            warnings.warn(
                "Output Buffer not found. Tensor Debug Data will not be available.",
                stacklevel=1,
            )
        for line in self._core.warnings:
            log.warning(line)
        self._etrecord_path = etrecord
        self._trace_source_name = (
            os.path.basename(os.fsdecode(etdump_path)) if etdump_path is not None else "<memory>"
        )
        self._enable_module_hierarchy = enable_module_hierarchy
        self._delegate_metadata_parser = delegate_metadata_parser
        self._delegate_time_scale_converter = delegate_time_scale_converter
        self._scale_factor = calculate_time_scale_factor(source_time_scale, target_time_scale)
        self._event_blocks: Optional[List[EventBlock]] = None
        # Rows whose durations Python computed (user converter), by frame row.
        self._converted_rows: Dict[int, list] = {}
        if delegate_time_scale_converter is not None:
            self._build_event_blocks()

    # -- the reference's attributes -------------------------------------

    @property
    def event_blocks(self) -> List[EventBlock]:
        if self._event_blocks is None:
            self._build_event_blocks()
        return self._event_blocks

    @event_blocks.setter
    def event_blocks(self, blocks: List[EventBlock]) -> None:
        self._event_blocks = blocks

    def _build_event_blocks(self) -> None:
        blocks = []
        row = 0
        for index in range(self._core.block_count()):
            info = self._core.block_info(index)
            events = []
            for d in self._core.events(index):
                event = Event._from_core(
                    d,
                    self._scale_factor,
                    self._delegate_metadata_parser,
                    self._delegate_time_scale_converter,
                )
                if event.perf_data is not None and event.perf_data.raw is not d["raw"]:
                    self._converted_rows[row] = event.perf_data.raw
                events.append(event)
                row += 1
            blocks.append(
                EventBlock(
                    name=info["name"],
                    events=events,
                    source_time_scale=self._source_time_scale,
                    target_time_scale=self._target_time_scale,
                    bundled_input_index=info["bundled_input_index"],
                    run_output=info["run_output"],
                )
            )
        self._event_blocks = blocks

    # -- DataFrames and tables --------------------------------------------

    def to_dataframe(
        self,
        include_units: bool = True,
        include_delegate_debug_data: bool = False,
    ) -> pd.DataFrame:
        """Every Event of every EventBlock as a row: the reference's columns,
        order, dtypes and values (docs/python.md)."""
        columns = self._core.frame_columns(include_units)
        n = len(columns["event_name"])
        df = frame_from_columns(columns, n)
        if self._converted_rows:
            units = " (" + self._target_time_scale.value + ")" if include_units else ""
            df = patch_converted_rows(df, units, self._converted_rows)
        if not include_delegate_debug_data:
            return df
        sizes = [len(b.events) for b in self.event_blocks]
        parts = [
            _with_delegate_columns(df.iloc[rows.start : rows.stop].reset_index(drop=True), block.events)
            for rows, block in zip(block_rows(sizes), self.event_blocks)
            if len(rows) > 0
        ]
        if not parts:
            return df
        return pd.concat(parts, ignore_index=True)

    def print_data_tabular(
        self,
        file: IO[str] = sys.stdout,
        include_units: bool = True,
        include_delegate_debug_data: bool = False,
    ) -> None:
        """The table `etbench inspect` prints (the reference's, OPERATOR_CALL
        rows hidden), then each block's framework tax."""
        if not callable(getattr(file, "write", None)):
            raise TypeError(f"file: expected a writable file object, got {type(file).__name__}")
        file.write(self._core.tabular_text(include_units, include_delegate_debug_data))

    def save_data_to_tsv(
        self,
        file: Union[IO[str], str, os.PathLike],
        include_units: bool = True,
        include_delegate_debug_data: bool = False,
    ) -> None:
        """The printed rows as TSV with pandas' leading index column, to a
        file object or a file name (written atomically; never onto one of
        this Inspector's inputs or a non-regular file: ValueError)."""
        if isinstance(file, (str, bytes, os.PathLike)):
            path = path_arg(file, "file")
        elif callable(getattr(file, "write", None)):
            path = None
        else:
            raise TypeError(f"file: expected a file name or a writable file object, got {type(file).__name__}")
        text = self._core.delimited_text(include_units, include_delegate_debug_data, "\t")
        if path is None:
            file.write(text)
        else:
            self._core.write_text(path, text)

    def find_total_for_module(self, module_name: str) -> float:
        """Sum of the average times of the events within module `module_name`
        (substring of a module frame key), OPERATOR_CALL excluded."""
        return self._core.find_total_for_module(module_name)

    def get_exported_program(self, graph: Optional[str] = None) -> Optional[ExportedProgramSummary]:
        """The ETRecord's edge-dialect program as a graph summary; None
        without an ETRecord (with the reference's warning) or for another
        graph name (etbench reads only the edge-dialect program)."""
        if not self._core.has_etrecord:
            log.warning(
                "Exported program is only available when a valid etrecord_path was "
                "provided at the time of Inspector construction"
            )
            return None
        if graph is not None:
            return None
        return ExportedProgramSummary(self._core.graph_summary())

    def get_op_list(self, event_block: str, show_delegated_ops: Optional[bool] = True) -> Dict[str, List[Event]]:
        """Unimplemented in the reference too: an empty dict."""
        return {}

    # -- torch.profiler-style views ----------------------------------------

    def key_averages(self, group_by: str = "name") -> ProfilerTable:
        """Events aggregated by name, op_type (needs an ETRecord), module or
        instruction; ``.table(sort_by=…, row_limit=…)`` renders them."""
        return ProfilerTable(self._core, "key_averages", group_by)

    def events(self) -> ProfilerTable:
        """Every event of every run, one row each (``.table()``)."""
        return ProfilerTable(self._core, "events", "name")

    def export_chrome_trace(self, path: str) -> None:
        """Chrome trace JSON (Perfetto, chrome://tracing), as `etbench export
        --chrome-trace` writes it; written atomically, never onto one of this
        Inspector's inputs or a non-regular file (ValueError)."""
        target = path_arg(path, "path")
        self._core.write_text(target, self._core.chrome_trace(self._trace_name()))

    def export_stacks(self, path: str) -> None:
        """Collapsed stacks for flame graphs (`etbench export --stacks`);
        refused targets as export_chrome_trace."""
        target = path_arg(path, "path")
        self._core.write_text(target, self._core.collapsed_stacks(self._trace_name()))

    def _trace_name(self) -> str:
        return self._trace_source_name
