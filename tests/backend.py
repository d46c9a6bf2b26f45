"""A backend under moto for tests: one table, a recording publisher, in-process invocation."""

from __future__ import annotations

import json
import os
from typing import Any

from deckhand.engines.registry import game
from deckhand.service import clock, devices, models, rounds, scoring, timers
from deckhand.service.messaging import RecordingPublisher
from deckhand.service.runtime import Runtime


class FakeClock:
    def __init__(self) -> None:
        self.ms = 1_800_000_000_000

    def __call__(self) -> int:
        return self.ms

    def advance(self, ms: int) -> None:
        self.ms += ms


class Backend:
    def __init__(self) -> None:
        self.publisher = RecordingPublisher()
        self.invocations: list[tuple[str, dict[str, Any]]] = []
        self.rt = Runtime(self.publisher, self.invoke)
        self.clock = FakeClock()
        clock.set_clock(self.clock)

    def invoke(self, name: str, payload: dict[str, Any]) -> None:
        self.invocations.append((name, payload))
        if name == "deal":
            rounds.deal_round(self.rt, payload["event_id"], payload["round"])
        elif name == "score":
            scoring.record_result(
                self.rt, payload["event_id"], payload["round"], payload["table"], payload["board"]
            )
        else:
            raise AssertionError(f"unknown function {name}")

    def send(self, thing: str, payload: dict[str, Any]) -> dict[str, Any]:
        # Through JSON, as from the broker.
        return devices.handle(self.rt, thing, json.loads(json.dumps(payload)))

    def sweep(self) -> dict[str, int]:
        return timers.sweep(self.rt)

    def last_view(self, thing: str) -> dict[str, Any] | None:
        views = [p for p in self.publisher.to(thing) if p["t"] == "view"]
        return views[-1] if views else None


def setup_moto_env() -> None:
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
    os.environ["AWS_DEFAULT_REGION"] = "us-east-1"
    os.environ["POWERTOOLS_TRACE_DISABLED"] = "1"
    os.environ["POWERTOOLS_METRICS_NAMESPACE"] = "Deckhand"


def create_table() -> None:
    models.configure(table_name="deckhand-test", region="us-east-1", host="")
    for model in (models._Base, *models.ALL_MODELS):
        model.Meta.host = None
    models.create_table()
    from deckhand.service import events

    events._DEVICE_CACHE.clear()  # a new table: forget assignments cached from earlier tests


class DeviceBot:
    """A handset driven by the deterministic bot, seeing only what its device receives."""

    def __init__(self, backend: Backend, thing: str) -> None:
        self.backend = backend
        self.thing = thing
        self.counter = 0

    def act(self) -> dict[str, Any] | None:
        msg = self.backend.last_view(self.thing)
        if msg is None or msg["st"] != "playing":
            return None
        action = game(msg["g"]).view_bot("steady")(msg["view"])
        if action is None:
            return None
        self.counter += 1
        payload: dict[str, Any] = {
            "t": action.kind,
            "msg": f"{self.thing}-{self.counter}",
            "board": msg["b"],
            "r": msg["r"],  # as the firmware sends it: the board is read without the event
        }
        if action.kind == "play":
            from deckhand.engines.common.cards import format_cards

            payload["cards"] = format_cards(action.cards)
        if action.kind in ("show", "double", "bid"):
            payload["v"] = action.value
        return self.backend.send(self.thing, payload)
