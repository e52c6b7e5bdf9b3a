"""Exceptions of the etbench package that keep the reference's types."""


class TimeScaleMismatchError(RuntimeError, ValueError):
    """Cycles mixed with a time unit.

    The reference Inspector raises RuntimeError here; etbench's bad-input
    errors are ValueError. This is both, so either ``except`` works.
    """
