"""Event, EventBlock and PerfData: the reference Inspector's data classes,
filled from etbench's C++ core (etbench._core)."""

import dataclasses
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np
import pandas as pd


class TimeScale(Enum):
    """Units of ETDump ticks and of reported times (the reference's enum)."""

    NS = "ns"
    US = "us"
    MS = "ms"
    S = "s"
    CYCLES = "cycles"


TIME_SCALE_DICT = {
    TimeScale.NS: 1000000000,
    TimeScale.US: 1000000,
    TimeScale.MS: 1000,
    TimeScale.S: 1,
    TimeScale.CYCLES: 1,
}


def calculate_time_scale_factor(
    source_time_scale: TimeScale, target_time_scale: TimeScale
) -> float:
    """Factor by which source ticks are divided to get target units."""
    return TIME_SCALE_DICT[source_time_scale] / TIME_SCALE_DICT[target_time_scale]


@dataclass
class PerfData:
    """Durations of one event across runs; statistics computed with numpy on
    ``raw`` exactly as the reference's PerfData computes them."""

    def __init__(self, raw: List[float]):
        self.raw: List[float] = raw

    @property
    def p10(self) -> float:
        return np.percentile(self.raw, 10)

    @property
    def p50(self) -> float:
        return np.percentile(self.raw, 50)

    @property
    def p90(self) -> float:
        return np.percentile(self.raw, 90)

    @property
    def avg(self) -> float:
        return np.mean(self.raw)

    @property
    def min(self) -> float:
        return min(self.raw)

    @property
    def max(self) -> float:
        return max(self.raw)


def _calculate_elapsed_time(start_time, end_time):
    # The reference's rule, used where the reference's callback semantics are
    # kept (a user delegate_time_scale_converter): a wrap assumes a 32-bit
    # counter, one tick short of the true distance.
    max_uint32 = 2**32 - 1
    if start_time > end_time:
        if (start_time > max_uint32) or (end_time > max_uint32):
            raise ValueError(
                f"Expected start_time ({start_time}) and end_time ({end_time}) to be "
                f"less than {max_uint32} for cases where there is wrap-around of time values."
            )
        return (max_uint32 - start_time) + end_time
    return end_time - start_time


@dataclass
class Event:
    """One operator instance (or framework / delegate event) with its timings
    across runs and, with an ETRecord, its graph metadata.

    ``debug_data`` holds numpy arrays where the reference holds torch tensors.
    etbench adds ``instruction_id`` and ``occurrence`` (the reference keeps
    only the last of several events with one signature in a run).
    """

    name: str
    perf_data: Optional[PerfData] = None
    op_types: List[str] = dataclasses.field(default_factory=list)
    delegate_debug_identifier: Optional[Union[int, str]] = None
    debug_handles: Optional[Union[int, Sequence[int]]] = None
    stack_traces: Dict[str, str] = dataclasses.field(default_factory=dict)
    module_hierarchy: Dict[str, Dict] = dataclasses.field(default_factory=dict)
    is_delegated_op: Optional[bool] = None
    delegate_backend_name: Optional[str] = None
    _delegate_debug_metadatas: List[Any] = dataclasses.field(default_factory=list)
    debug_data: List[Any] = dataclasses.field(default_factory=list)
    _instruction_id: Optional[int] = None
    _delegate_metadata_parser: Optional[Callable[[List[Any]], Dict[str, Any]]] = None
    _delegate_time_scale_converter: Optional[Callable] = None
    _start_time: Optional[List[Union[int, float]]] = None
    occurrence: int = 0
    # etbench: the raw end ticks per run (the reference keeps only starts).
    _end_time: Optional[List[int]] = dataclasses.field(default=None, repr=False)

    @cached_property
    def delegate_debug_metadatas(self) -> Union[List[Any], Dict[str, Any]]:
        """Parsed through the delegate_metadata_parser when one was given (and
        the event is delegated), else the raw metadatas."""
        if not self.is_delegated_op or self._delegate_metadata_parser is None:
            return self._delegate_debug_metadatas
        return self._delegate_metadata_parser(self._delegate_debug_metadatas)

    @property
    def raw_delegate_debug_metadatas(self) -> List[Any]:
        return self._delegate_debug_metadatas

    @property
    def start_time(self) -> Optional[List[Union[int, float]]]:
        return self._start_time

    @property
    def instruction_id(self) -> Optional[int]:
        return self._instruction_id

    def asdict(self, _units: str = "") -> dict:
        """The reference's row of this event (see Inspector.to_dataframe)."""

        def truncated_list(long_list: List[str]) -> str:
            return (
                f"['{long_list[0]}', '{long_list[1]}' ... '{long_list[-1]}'] "
                f"({len(long_list)} total)"
            )

        p = self.perf_data
        return {
            "event_name": self.name,
            "raw": [p.raw if p else None],
            "p10" + _units: p.p10 if p else None,
            "p50" + _units: p.p50 if p else None,
            "p90" + _units: p.p90 if p else None,
            "avg" + _units: p.avg if p else None,
            "min" + _units: p.min if p else None,
            "max" + _units: p.max if p else None,
            "op_types": [
                self.op_types if len(self.op_types) < 5 else truncated_list(self.op_types)
            ],
            "delegate_debug_identifier": self.delegate_debug_identifier,
            "stack_traces": [self.stack_traces],
            "module_hierarchy": [self.module_hierarchy],
            "is_delegated_op": self.is_delegated_op,
            "delegate_backend_name": self.delegate_backend_name,
            "debug_data": [self.debug_data],
            "start_time": [self._start_time],
        }

    def to_dataframe(self, _units: str = "") -> pd.DataFrame:
        return pd.DataFrame(self.asdict(_units=_units))

    @staticmethod
    def _from_core(
        d: dict,
        scale_factor: float,
        delegate_metadata_parser,
        delegate_time_scale_converter,
    ) -> "Event":
        raw = d["raw"]
        if (
            raw is not None
            and d["is_delegated_op"]
            and delegate_time_scale_converter is not None
        ):
            # Called exactly as the reference calls it: on the start and on the
            # end tick of every run, then subtracted.
            name = d["name"]
            raw = [
                _calculate_elapsed_time(
                    delegate_time_scale_converter(name, start),
                    delegate_time_scale_converter(name, end),
                )
                for start, end in zip(d["start_ticks"], d["end_ticks"])
            ]
        return Event(
            name=d["name"],
            perf_data=PerfData(raw) if raw is not None else None,
            op_types=d["op_types"],
            delegate_debug_identifier=d["delegate_debug_identifier"],
            debug_handles=d["debug_handles"],
            stack_traces=d["stack_traces"],
            module_hierarchy=d["module_hierarchy"],
            is_delegated_op=d["is_delegated_op"],
            delegate_backend_name=d["delegate_backend_name"],
            _delegate_debug_metadatas=d["delegate_debug_metadatas"],
            debug_data=d["debug_data"],
            _instruction_id=d["instruction_id"],
            _delegate_metadata_parser=delegate_metadata_parser,
            _delegate_time_scale_converter=delegate_time_scale_converter,
            _start_time=d["start_ticks"],
            occurrence=d["occurrence"],
            _end_time=d["end_ticks"],
        )


@dataclass
class EventBlock:
    """The events of one kind of run (Default, Execute, …), grouped like the
    reference groups them."""

    name: str
    events: List[Event] = dataclasses.field(default_factory=list)
    source_time_scale: TimeScale = TimeScale.NS
    target_time_scale: TimeScale = TimeScale.MS
    bundled_input_index: Optional[int] = None
    run_output: Optional[List[Any]] = None
    reference_output: Optional[List[Any]] = None

    def to_dataframe(
        self, include_units: bool = False, include_delegate_debug_data: bool = False
    ) -> pd.DataFrame:
        """One row per event, the reference's columns (see docs/python.md)."""
        units = " (" + self.target_time_scale.value + ")" if include_units else ""
        df = pd.concat([e.to_dataframe(units) for e in self.events], ignore_index=True)
        df.insert(
            0,
            "event_block_name",
            np.asarray([self.name for _ in range(len(self.events))]),
            allow_duplicates=True,
        )
        if include_delegate_debug_data:
            df = _with_delegate_columns(df, self.events)
        return df


def _delegate_series(events: List[Event]) -> List[pd.Series]:
    data = []
    for event in events:
        metadata = event.delegate_debug_metadatas
        if metadata is not None and len(metadata) > 0:
            if isinstance(metadata, list):
                data.append(pd.Series([metadata], index=["delegate_debug_metadata"]))
            elif isinstance(metadata, dict):
                data.append(pd.Series(metadata))
            else:
                raise ValueError(
                    f"Unexpected type for delegate_debug_metadata: {type(metadata)}"
                )
        else:
            data.append(pd.Series(dtype=object))
    return data


def _with_delegate_columns(df: pd.DataFrame, events: List[Event]) -> pd.DataFrame:
    """The reference's delegate debug metadata columns, appended."""
    data = _delegate_series(events)
    if any(not s.empty for s in data):
        extra = pd.DataFrame(data)
        extra.index = df.index
        df = pd.concat([df, extra], axis=1)
    return df
