"""Checks of the arguments every public entry point takes, so that the
Python side refuses what the CLI refuses, with the message naming the
argument: a file name that is not a str, bytes or os.PathLike is a
TypeError (``history.open(5)`` must not create a file named ``5``); a NUL
byte is a ValueError (the system would end the name there and open another
file); an unknown value of a string choosing among fixed options is a
ValueError listing the valid ones."""

import os
from typing import Iterable, Union

PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


def path_arg(value: PathArg, name: str) -> bytes:
    """The file name `value` as the exact bytes the system sees (str names
    encoded with os.fsencode, so undecodable names survive the round trip)."""
    if isinstance(value, (bool, int, float)) or not isinstance(value, (str, bytes, os.PathLike)):
        raise TypeError(f"{name}: expected a file name (str, bytes or os.PathLike), "
                        f"got {type(value).__name__}")
    raw = os.fsencode(os.fspath(value))
    if b"\0" in raw:
        raise ValueError(f"{name}: file name contains a NUL byte")
    return raw


def choice_arg(value: str, name: str, choices: Iterable[str]) -> str:
    """`value` when it is one of `choices`."""
    choices = list(choices)
    if not isinstance(value, str):
        raise TypeError(f"{name}: expected a str, one of {', '.join(choices)}; "
                        f"got {type(value).__name__}")
    if value not in choices:
        raise ValueError(f"{name}: unknown value {value!r} (expected {_listing(choices)})")
    return value


def int_arg(value: int, name: str, minimum: int = 0) -> int:
    """`value` when it is an int (not a bool) of at least `minimum`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name}: expected an int, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name}: {value} is less than {minimum}")
    return value


def bytes_arg(value, name: str) -> bytes:
    """The bytes of a bytes-like object (bytes, bytearray, memoryview, numpy
    buffer). An int is refused: bytes(5) would be five zero bytes."""
    if isinstance(value, (str, int)):
        raise TypeError(f"{name}: expected bytes-like data, got {type(value).__name__}")
    try:
        return bytes(memoryview(value))
    except TypeError:
        raise TypeError(f"{name}: expected bytes-like data, got {type(value).__name__}") from None


def _listing(choices) -> str:
    if len(choices) < 2:
        return "".join(choices)
    return ", ".join(choices[:-1]) + " or " + choices[-1]
