"""The crash soak's devices: stepped by several threads, each device by exactly one, all of them held
still by a pause; and a bot's seat view that the database did not have is not asked for again at
every pass."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace
from typing import Any

from deckhand_local.venue import seat_views
from deckhand_local.venue.realtime import RealTimeDevices
from deckhand_local.venue.seat_views import DatabaseSeatViews


class Device:
    """Just what RealTimeDevices steps: a connection with a queue, and who stepped it."""

    def __init__(self, thing: str) -> None:
        self.thing = thing
        self.conn = SimpleNamespace(
            queue=SimpleNamespace(add=lambda message: None),
            on_message=lambda message: None,
            client=None,
            connects=0,
            connected=True,
        )
        self.steppers: set[str] = set()
        self.steps = 0

    def step(self) -> None:
        self.steppers.add(threading.current_thread().name)
        self.steps += 1


def test_every_device_is_stepped_by_one_of_several_threads_and_a_pause_holds_them_all():
    devices = [Device(f"hs-{n}") for n in range(10)]
    running = RealTimeDevices(devices, threads=4).start()  # type: ignore[arg-type]
    try:
        deadline = time.monotonic() + 10
        while not all(d.steps for d in devices) and time.monotonic() < deadline:
            time.sleep(0.01)
        running.pause()
        counted = [d.steps for d in devices]
        time.sleep(0.1)
        assert [d.steps for d in devices] == counted  # nothing stepped while paused
        running.resume()
    finally:
        running.close()
    assert all(len(d.steppers) == 1 for d in devices)
    assert len(set().union(*(d.steppers for d in devices))) == 4


def test_a_seat_view_not_found_is_read_again_only_after_a_while(monkeypatch):
    views = DatabaseSeatViews()
    reads: list[Any] = []
    found: dict[str, Any] = {}

    def read(thing: str, message: dict[str, Any]) -> dict[str, Any] | None:
        reads.append((thing, message["v"]))
        return found.get("view")

    clock = [100.0]
    monkeypatch.setattr(views, "_read", read)
    monkeypatch.setattr(seat_views.time, "monotonic", lambda: clock[0])
    message = {"b": "1", "r": 1, "v": 3}
    assert views.seat_view("hs-1", message) is None
    assert views.seat_view("hs-1", message) is None  # asked again at once: not read again
    assert len(reads) == 1
    assert views.seat_view("hs-1", {**message, "v": 4}) is None  # a newer screen is read at once
    assert len(reads) == 2
    clock[0] += seat_views.RETRY_SECONDS
    found["view"] = {"hand": []}
    assert views.seat_view("hs-1", {**message, "v": 4}) == {"hand": []}
    assert views.seat_view("hs-1", {**message, "v": 4}) == {"hand": []}  # kept: no read
    assert len(reads) == 3 and views.reads == 3
