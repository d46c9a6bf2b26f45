"""The engine's view of a seat read straight from the database, for simulated handsets' bots when the
venue runs in another process (no publisher to ask): the bench is trusted, like a referee's tool."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from deckhand.service.boards import store as board_store
from deckhand.service.boards.views import view_message
from deckhand.service.organiser.events import get_device

KEPT = 4096  # views remembered (a device asks again for the view it shows)
# A view not found (the stored board is already newer than the screen, or the database is restarting)
# is read again no sooner than this: a newer view is on its way to the handset, and a bot asking at
# every pass would keep the database busy for nothing.
RETRY_SECONDS = 0.5


# What a view's screen may differ in and still show the same board: its version, and the time left
# as it was sent.
NOT_SHOWN = frozenset({"v", "dl"})


def same_screen(shown: dict[str, Any], stored: dict[str, Any]) -> bool:
    """The stored board draws the screen the handset shows (as it came over the wire, JSON)."""
    wire = json.loads(json.dumps(stored))
    return all(shown.get(k) == wire.get(k) for k in (shown.keys() | wire.keys()) - NOT_SHOWN)


class DatabaseSeatViews:
    """``SeatViews`` from the stored board: answered only when the stored board is the one the screen
    shows, so a bot never decides on a state newer or older than what its player can see. That is the
    view message's own version, or a later one that changed nothing the seat is shown (a dealing
    table's report of a deal the handsets had already, clocks moved on for an outage): such a write
    sends no new view, and a bot waiting for one would let its decision run out on the clock."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, str, int, int], dict[str, Any] | None] = {}
        self._missed: dict[str, tuple[tuple[str, str, int, int], float]] = {}  # thing → key, when
        self._lock = threading.Lock()
        self.reads = 0  # database reads made (for a bench to see how busy its bots keep it)

    def seat_view(self, thing: str, message: dict[str, Any]) -> dict[str, Any] | None:
        key = (thing, message["b"], message["r"], message["v"])
        with self._lock:
            if key in self._kept:
                return self._kept[key]
            missed = self._missed.get(thing)
            if missed is not None and missed[0] == key and time.monotonic() - missed[1] < RETRY_SECONDS:
                return None
            self.reads += 1
        view = self._read(thing, message)
        with self._lock:
            if view is None:
                self._missed[thing] = (key, time.monotonic())
                return None
            self._missed.pop(thing, None)
            self._kept[key] = view
            while len(self._kept) > KEPT:
                del self._kept[next(iter(self._kept))]
        return view

    def _read(self, thing: str, message: dict[str, Any]) -> dict[str, Any] | None:
        device = get_device(thing)
        if device is None:
            return None
        try:
            item = board_store.load(device.event_id, message["r"], device.table, message["b"])
        except Exception:  # noqa: BLE001 - the database restarts with the venue: asked again later
            return None
        if item is None or item.version < message["v"] or thing not in item.devices:
            return None
        seat = item.devices.index(thing)
        _, board = board_store.engine_of(item)
        if item.version != message["v"] and not same_screen(message, view_message(item, seat, board)):
            return None  # the board moved on since the screen was drawn: its new view is on its way
        view: dict[str, Any] = board.view(seat)
        return view
