"""Organiser operations: create an event, register players, register tables and their devices."""

from __future__ import annotations

import re
import secrets
from typing import Any

from pynamodb.exceptions import DoesNotExist, PutError, TransactWriteError

from ..competition.grades import EventPlan, check_event
from ..engines.registry import game
from ..errors import DeckhandError
from .clock import now_ms
from .keys import (
    META,
    PLAYER_PREFIX,
    TABLE_PREFIX,
    device_pk,
    event_of,
    event_pk,
    player_of,
    player_sk,
    table_sk,
)
from .models import DeviceItem, EventItem, PlayerItem, TableItem, transaction

FORMATS = ("pvp", "pva")
THING_NAME = re.compile(r"^[A-Za-z0-9_:-]{1,128}$")
ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


class NotFound(DeckhandError):
    pass


class Conflict(DeckhandError):
    pass


def get_event(event_id: str) -> EventItem:
    try:
        return EventItem.get(event_pk(event_id), META, consistent_read=True)
    except DoesNotExist:
        raise NotFound(f"no event {event_id!r}") from None


def create_event(spec: dict[str, Any]) -> EventItem:
    """Create an event after checking it against its grade; the grade's violations come back as an error."""
    g = game(spec["ruleset"])
    if spec["format"] not in FORMATS:
        raise DeckhandError(f"format must be one of {', '.join(FORMATS)}")
    if spec["format"] == "pva" and spec["groups"] != 1:
        # Players vs AI: every participant plays every board from the same seat, all compared together.
        raise DeckhandError("a players-vs-AI (pva) event has one group: every participant is compared")
    if spec["rounds"] < 1 or spec["boards_per_round"] < 1 or spec["groups"] < 1:
        raise DeckhandError("rounds, boards_per_round and groups must be at least 1")
    plan = EventPlan(
        name=spec["name"],
        grade=spec["grade"],
        organiser=spec.get("organiser", "registered_unit"),
        venue=spec.get("venue", True),
        rounds=spec["rounds"],
        boards=spec["rounds"] * spec["boards_per_round"],
        fee=spec.get("fee", 0),
        start=spec["start"],
    )
    violations = check_event(plan)
    if violations:
        raise GradeViolations([{"rule": v.rule, "message": v.message} for v in violations])
    event_id = spec.get("event_id") or secrets.token_hex(6)
    if not ID.match(event_id):
        raise DeckhandError("event_id may use letters, digits, '_', '.', '-' (1–64)")
    item = EventItem(
        event_pk(event_id),
        META,
        name=spec["name"],
        ruleset=g.ruleset,
        grade=spec["grade"],
        format=spec["format"],
        rounds=spec["rounds"],
        boards_per_round=spec["boards_per_round"],
        groups=spec["groups"],
        venue=spec.get("venue", True),
        ranking=spec.get("ranking", "competition"),
        seed=spec.get("seed") or secrets.token_hex(16),
        deal_seed=spec.get("deal_seed") or None,
        created_at=now_ms(),
    )
    try:
        item.save(condition=EventItem.pk.does_not_exist())
    except PutError:
        raise Conflict(f"event {event_id!r} exists already") from None
    return item


class GradeViolations(DeckhandError):
    def __init__(self, violations: list[dict[str, str]]) -> None:
        super().__init__("; ".join(v["message"] for v in violations))
        self.violations = violations


def event_id_of(item: EventItem) -> str:
    return event_of(item.pk)


def list_players(event_id: str) -> list[PlayerItem]:
    items = list(
        PlayerItem.query(event_pk(event_id), PlayerItem.sk.startswith(PLAYER_PREFIX), consistent_read=True)
    )
    return sorted(items, key=lambda p: p.number)


def register_players(event_id: str, players: list[dict[str, Any]]) -> list[PlayerItem]:
    """Bulk registration, all or nothing; a player registered twice is an error, never a silent merge."""
    event = get_event(event_id)
    if event.status != "registering":
        raise Conflict("players can be registered only before the first round")
    existing = {player_of(p.sk) for p in list_players(event_id)}
    seen: set[str] = set()
    for p in players:
        pid = p["id"]
        if not ID.match(pid):
            raise DeckhandError(f"player id {pid!r} may use letters, digits, '_', '.', '-' (1–64)")
        if pid in seen or pid in existing:
            raise Conflict(f"player {pid!r} is registered twice")
        seen.add(pid)
    start = len(existing)
    items = [
        PlayerItem(
            event_pk(event_id),
            player_sk(p["id"]),
            name=p.get("name") or p["id"],
            number=start + i + 1,
            silver_points=p.get("silver_points", 0),
            red_points=p.get("red_points", 0),
        )
        for i, p in enumerate(players)
    ]
    for chunk in range(0, len(items), 25):
        try:
            with transaction() as tx:
                for item in items[chunk : chunk + 25]:
                    tx.save(item, condition=PlayerItem.sk.does_not_exist())
        except TransactWriteError:
            raise Conflict("a player in this batch is registered already") from None
    return items


def list_tables(event_id: str) -> list[TableItem]:
    items = list(
        TableItem.query(event_pk(event_id), TableItem.sk.startswith(TABLE_PREFIX), consistent_read=True)
    )
    return sorted(items, key=lambda t: t.order)


def register_tables(event_id: str, tables: list[dict[str, Any]]) -> list[TableItem]:
    """Venue tables with the thing name of each seat's handset and of the dealing table (optional).

    A thing can be assigned to one seat of one event only: it may act for that seat and nothing else.
    """
    event = get_event(event_id)
    seats = game(event.ruleset).seats
    existing = list_tables(event_id)
    things: set[str] = set()
    for t in tables:
        if not ID.match(t["id"]):
            raise DeckhandError(f"table id {t['id']!r} may use letters, digits, '_', '.', '-'")
        if len(t["seats"]) != seats:
            raise DeckhandError(f"table {t['id']!r} needs {seats} seats, got {len(t['seats'])}")
        for thing in [*t["seats"], t.get("dealer") or ""]:
            if not thing:
                continue
            if not THING_NAME.match(thing):
                raise DeckhandError(f"thing name {thing!r} is not valid")
            if thing in things:
                raise Conflict(f"thing {thing!r} is assigned twice")
            things.add(thing)
    items = []
    for i, t in enumerate(tables):
        table_item = TableItem(
            event_pk(event_id),
            table_sk(t["id"]),
            order=len(existing) + i,
            seats=t["seats"],
            dealer=t.get("dealer") or "",
        )
        try:
            with transaction() as tx:
                tx.save(table_item, condition=TableItem.sk.does_not_exist())
                for seat, thing in [*enumerate(t["seats"]), (-1, t.get("dealer") or "")]:
                    if thing:
                        tx.save(
                            DeviceItem(device_pk(thing), META, event_id=event_id, table=t["id"], seat=seat),
                            condition=DeviceItem.pk.does_not_exist(),
                        )
        except TransactWriteError:
            raise Conflict(f"table {t['id']!r} or one of its things is registered already") from None
        items.append(table_item)
    return items


_DEVICE_CACHE: dict[str, tuple[float, DeviceItem]] = {}
DEVICE_CACHE_SECONDS = 60.0


def get_device(thing: str) -> DeviceItem | None:
    """The seat a thing is assigned to. Assignments never change within an event, so a warm Lambda
    keeps them for a minute: one read fewer on every device message."""
    import time

    cached = _DEVICE_CACHE.get(thing)
    now = time.monotonic()
    if cached is not None and now - cached[0] < DEVICE_CACHE_SECONDS:
        return cached[1]
    try:
        item = DeviceItem.get(device_pk(thing), META)
    except DoesNotExist:
        return None
    _DEVICE_CACHE[thing] = (now, item)
    return item
