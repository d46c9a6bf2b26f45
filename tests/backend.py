"""A backend under moto for tests: one table, a recording publisher, in-process invocation."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import botocore.client
from deckhand.engines.registry import game
from deckhand.service.device_io import pipeline as devices
from deckhand.service.duplicate import rounds, scoring
from deckhand.service.infra import clock
from deckhand.service.infra.messaging import RecordingPublisher
from deckhand.service.infra.runtime import Runtime
from deckhand.service.schedule import sweep as timers
from deckhand.service.storage import models
from helpers import plays_in_any_order


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
        elif name == "pace":
            pass  # the tests move the clock and sweep (pacing.pace_deal has its own test)
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
        return next((p for p in reversed(self.publisher.to(thing)) if p["t"] == "view"), None)

    def seat_view(self, thing: str, message: dict[str, Any] | None = None) -> dict[str, Any]:
        """The engine's view of the seat that went with a view message (the last by default): what a
        simulated player decides from; the device itself gets the screen only."""
        message = message or self.last_view(thing)
        assert message is not None
        view = self.publisher.seat_view(thing, message)
        assert view is not None, "no engine view was noted with this view message"
        return view


def act(msg: str, board: str, kind: str, *, v: Any = None, c: Any = None, r: Any = None) -> dict[str, Any]:
    """A device's ``act`` message (docs/protocol.md)."""
    a: dict[str, Any] = {"k": kind}
    if v is not None:
        a["v"] = v
    if c is not None:
        a["c"] = c
    payload: dict[str, Any] = {"t": "act", "msg": msg, "board": board, "a": a}
    if r is not None:
        payload["r"] = r
    return payload


def moto_account(monkeypatch: Any, region: str) -> Iterator[Any]:
    """A boto3 session of an account under moto in ``region`` (a fixture's body: ``yield from``)."""
    import boto3
    from moto import mock_aws

    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": region,
    }.items():
        monkeypatch.setenv(name, value)
    with mock_aws():
        yield boto3.Session(region_name=region)


def setup_moto_env() -> None:
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
    os.environ["AWS_DEFAULT_REGION"] = "us-east-1"
    os.environ["POWERTOOLS_TRACE_DISABLED"] = "1"
    os.environ["POWERTOOLS_METRICS_NAMESPACE"] = "Deckhand"


def create_table() -> None:
    models.configure(table_name=TABLE, region="us-east-1", host="")
    for model in (models._Base, *models.ALL_MODELS):
        model.Meta.host = None
    models.create_table()
    from deckhand.service.organiser import events

    events._DEVICE_CACHE.clear()  # a new table: forget assignments cached from earlier tests


TABLE = "deckhand-test"  # create_table's


def table_items() -> list[dict[str, Any]]:
    """Every item of the test table under moto, as DynamoDB's wire form (to copy a played state)."""
    import boto3

    client = boto3.client("dynamodb", region_name="us-east-1")
    return [item for page in client.get_paginator("scan").paginate(TableName=TABLE) for item in page["Items"]]


def restore_items(items: list[dict[str, Any]]) -> None:
    """Write ``table_items``' items into the (empty) test table."""
    import boto3

    client = boto3.client("dynamodb", region_name="us-east-1")
    for i in range(0, len(items), 25):
        client.batch_write_item(
            RequestItems={TABLE: [{"PutRequest": {"Item": it}} for it in items[i : i + 25]]}
        )


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
        action = game(msg["g"]).view_bot("steady")(self.backend.seat_view(self.thing, msg))
        if action is None:
            assert "ask" not in msg  # the screen asks exactly when the seat has a decision
            return None
        self.counter += 1
        # The option of the screen's ask that sends this action, filled in as the firmware does.
        option = next(
            o["a"]
            for o in msg["ask"]["o"]
            if o["a"]["k"] == action.kind and o["a"].get("v", action.value) == action.value
        )
        from deckhand.engines.common.cards import format_cards

        payload = act(
            f"{self.thing}-{self.counter}",
            msg["b"],
            option["k"],
            v=option.get("v"),
            c=format_cards(action.cards) if option.get("c") else None,
            r=msg["r"],  # as the firmware sends it: the board is read without the event
        )
        return self.backend.send(self.thing, payload)


# The Big Two "cup" of the backend tests: two tables of handsets, eight players, two rounds of two boards.
CUP_EVENT: dict[str, Any] = {
    "event_id": "cup",
    "name": "Harbour Cup",
    "ruleset": "bigtwo-2017",
    "grade": "unrated",
    "format": "pvp",
    "rounds": 2,
    "boards_per_round": 2,
    "groups": 1,
    "venue": True,
    "start": __import__("datetime").date(2026, 12, 14),
    "seed": "cup-seed",
}
THINGS = [f"hs-{t}-{s}" for t in "AB" for s in range(4)]


def prepare(b: Backend, **spec: Any) -> list[DeviceBot]:
    """Create the cup (``spec``: fields changed), register its players and tables; one bot per handset."""
    from deckhand.service.organiser import events

    events.create_event({**CUP_EVENT, **spec})
    events.register_players("cup", [{"id": f"P{i}"} for i in range(1, 9)])
    events.register_tables(
        "cup",
        [{"id": "A", "seats": THINGS[:4], "dealer": "dealer-A"}, {"id": "B", "seats": THINGS[4:]}],
    )
    return [DeviceBot(b, t) for t in THINGS]


@contextmanager
def cup_started(**spec: Any) -> Iterator[tuple[Backend, list[DeviceBot]]]:
    """The cup (``spec``: fields changed) on a fresh moto table, its first round dealt."""
    from moto import mock_aws

    with mock_aws():
        create_table()
        b = Backend()
        bots = prepare(b, **spec)
        rounds.request_next_round(b.rt, "cup")
        yield b, bots


def run_round(b: Backend, bots: list[DeviceBot], limit: int = 5000) -> None:
    """The bots play until none has a decision (the round is done, or a table stands still)."""
    for _ in range(limit):
        moved = False
        for bot in bots:
            outcome = bot.act()
            if outcome is not None:
                assert outcome["status"] == "accepted", outcome
                moved = True
        if not moved:
            return
    raise AssertionError("the round did not finish")


def event_outcome(event_id: str) -> dict[str, Any]:
    """What an event's run must reproduce: status, player numbers, results, standings, round ends."""
    from deckhand.service.organiser import events

    event = events.get_event(event_id)
    # Play records in a fixed order: seats acting at once may arrive in another order in a run that
    # crashed and was redriven (helpers.plays_in_any_order).
    results = plays_in_any_order(scoring.results_export(event))
    return {
        "status": event.status,
        "numbers": {p.sk: p.number for p in events.list_players(event_id)},
        "results": results,
        "standings": scoring.compute_standings(event, event.current_round),
        "rounds": [rounds.round_status(event_id, n) for n in range(1, event.current_round + 1)],
    }


SEEDED = {"deal_seed": "recovery"}  # the cup with the same boards in every run, so outcomes compare


class Crash(Exception):
    """A step failing once, as a Lambda that dies at that point (fault injection)."""


def play_event(b: Backend, bots: list[DeviceBot], redrive: Any = None) -> None:
    """Both rounds of the cup; a ``Crash`` out of a round is handed to ``redrive``, then play goes on."""
    for _ in (1, 2):
        rounds.request_next_round(b.rt, "cup")
        while True:
            try:
                run_round(b, bots)
            except Crash:
                assert redrive is not None, "a crash with nothing to recover from it"
                redrive()
                continue
            break


WRITES = {"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"}


@contextmanager
def database_calls() -> Iterator[Counter[str]]:
    """Every DynamoDB operation made inside, by name (PynamoDB goes through botocore)."""
    calls: Counter[str] = Counter()
    original = botocore.client.BaseClient._make_api_call

    def counting(self: Any, operation: str, params: dict[str, Any]) -> Any:
        calls[operation] += 1
        return original(self, operation, params)

    botocore.client.BaseClient._make_api_call = counting  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        botocore.client.BaseClient._make_api_call = original  # type: ignore[method-assign]
