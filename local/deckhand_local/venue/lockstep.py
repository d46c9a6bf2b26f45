"""A simulated event in lock-step: play time on a simulated clock, so the same seed gives the same event.

Play time is a tie-break (RULES.md), so a simulated event whose clock is the wall clock can be seated
and ranked differently from one run to the next. Here the clock moves only between *ticks*: in a
tick every bot whose decision is due acts, then everything settles — the server has handled every
message, every device has received the last view and deal sent to it, every resend is answered —
and only then does the clock move on one second. Network hiccups, redeliveries and reconnects take
wall time but no play time, exactly as the issue's "same results as without the faults" demands.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from deckhand.service.infra.messaging import Publisher

TICK_MS = 1000
SEAT_VIEWS_KEPT = 16  # per device: its latest views (a settled device shows one of them)


class SimulatedClock:
    """Epoch milliseconds that advance only when told to (``service.clock.set_clock(clock.now)``)."""

    def __init__(self, start_ms: int) -> None:
        self.ms = start_ms

    def now(self) -> int:
        return self.ms

    def advance(self, ms: int = TICK_MS) -> None:
        self.ms += ms


class LastSent:
    """A publisher that remembers, per device, the last view ``(board, version)`` and the last deal
    board it sent, in the order the messages leave — what a settled device must have received."""

    def __init__(self, inner: Publisher) -> None:
        self.inner = inner
        self.views: dict[str, tuple[str, int]] = {}
        self.deals: dict[str, str] = {}
        # When each device's board next has something due (noted with its last view; 0: nothing): the
        # timers' sweep is needed then (a simulated event sweeps only then).
        self.due: dict[str, int] = {}
        # The engine's own view of each seat next to the view message it goes with, for the simulated
        # handsets' bots (never sent: a device gets the screen only): thing → (board, round, version) → view.
        self.seat_views: dict[str, dict[tuple[str, int, int], dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def note_seat_view(self, thing: str, message: dict[str, Any], view: dict[str, Any], due: int = 0) -> None:
        """The engine's view of the seat, and when its board next has something due (ms; 0: nothing)
        — a card of a paced deal too, which no seat's ``dl`` counts down."""
        with self._lock:
            self.due[thing] = due
            kept = self.seat_views.setdefault(thing, {})
            kept[(message["b"], message["r"], message["v"])] = view
            while len(kept) > SEAT_VIEWS_KEPT:
                del kept[next(iter(kept))]

    def seat_view(self, thing: str, message: dict[str, Any]) -> dict[str, Any] | None:
        """The engine's view that went with this view message (None when it is not known)."""
        with self._lock:
            return self.seat_views.get(thing, {}).get((message["b"], message["r"], message["v"]))

    def due_boards(self, now: int) -> list[tuple[str, str]]:
        """(thing, board) of the devices whose board has something due by ``now``."""
        with self._lock:
            return [
                (t, self.views[t][0]) for t, at in self.due.items() if at and at <= now and t in self.views
            ]

    def publish(self, topic: str, payload: dict[str, Any]) -> None:
        with self._lock:  # one order for sending and remembering
            self.inner.publish(topic, payload)
            parts = topic.split("/")
            if len(parts) == 3 and parts[2] == "down":
                if payload.get("t") in ("view", "pos"):  # an electronic board's position is its view
                    self.views[parts[1]] = (payload["b"], payload["v"])
                elif payload.get("t") == "deal":
                    self.deals[parts[1]] = payload["b"]


def settle(
    step_all: Callable[[], None],
    server_idle: Callable[[], bool],
    devices_settled: Callable[[], bool],
    *,
    timeout: float = 120.0,
    unsettled: Callable[[], list[str]] | None = None,
) -> None:
    """Step the devices until the server is idle and every device is settled (two checks in a row,
    so a message that left between them is not missed)."""
    deadline = time.monotonic() + timeout
    calm = 0
    while calm < 2:
        step_all()
        if server_idle() and devices_settled():
            calm += 1
        else:
            calm = 0
            time.sleep(0.005)
        if time.monotonic() > deadline:
            waiting = f"; waiting for {', '.join(unsettled()[:5])}" if unsettled else ""
            raise RuntimeError(f"the venue did not settle within {timeout:.0f} s{waiting}")
