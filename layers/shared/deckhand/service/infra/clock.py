"""Time in one place, so tests and timers can move it."""

from __future__ import annotations

import time
from collections.abc import Callable

_now: Callable[[], int] = lambda: int(time.time() * 1000)  # noqa: E731


def now_ms() -> int:
    return _now()


def set_clock(fn: Callable[[], int] | None) -> None:
    """Replace the clock (tests); None restores wall time."""
    global _now
    _now = fn if fn is not None else (lambda: int(time.time() * 1000))
