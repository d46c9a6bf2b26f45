"""Organiser operations: create an event, register players, register tables and their devices."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import secrets
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pynamodb.exceptions import DeleteError, DoesNotExist, PutError, TransactWriteError, UpdateError
from pynamodb.expressions.condition import Condition

from ...competition.grades import EventPlan, Violation, check_event
from ...competition.matchplay.entrants import RoundFormat
from ...engines.registry import game
from ...engines.spec import Competition
from ...errors import Conflict as Conflict
from ...errors import DeckhandError
from ...errors import NotFound as NotFound
from ..infra.clock import now_ms
from ..storage.keys import (
    META,
    PLAYER_PREFIX,
    PLAYER_THING_PREFIX,
    TABLE_PREFIX,
    device_pk,
    event_of,
    event_pk,
    player_of,
    player_sk,
    players_counter_sk,
    registration_sk,
    table_sk,
)
from ..storage.models import (
    CounterItem,
    DeviceItem,
    EventItem,
    PlayerItem,
    RegistrationItem,
    TableItem,
    transaction,
)
from . import access
from .match_settings import DEFAULT_MAX_GAMES, KnockoutDraw, MatchFormat, MatchSettings, rule_options

FORMATS = ("pvp", "pva")
THING_NAME = re.compile(r"^[A-Za-z0-9_:-]{1,128}$")
ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
MAX_ATTEMPTS = 8  # registrations racing for numbers: each lost race is one more registration done


class SeedNotAllowed(DeckhandError):
    """An organiser-chosen deal seed for a rated event (a 422: the body is well-formed but refused)."""


def get_event(event_id: str) -> EventItem:
    try:
        return EventItem.get(event_pk(event_id), META, consistent_read=True)
    except DoesNotExist:
        raise NotFound(f"no event {event_id!r}") from None


def events_of(identity: str) -> list[tuple[EventItem, access.Role]]:
    """The events where ``identity`` is the owner or has a role, newest first, each with that role.
    A scan of the events' META items: a venue's or a season's events are few (hundreds), and the
    identity's roles are inside each item."""
    found = [
        (item, role)
        for item in EventItem.scan((EventItem.sk == META) & EventItem.pk.startswith(event_pk("")))
        if (role := access.role_of(item, identity)) is not None
    ]
    return sorted(found, key=lambda pair: -pair[0].created_at)


HEAD_TO_HEAD_FORMATS = (MatchFormat.KNOCKOUT, MatchFormat.SWISS)
SWISS_GAMES = 2  # a Swiss of individuals: a match of two games a round, colours swapped (RULES.md §6.5)


def head_to_head_settings(settings: MatchSettings, given: dict[str, Any]) -> MatchSettings:
    """A board game's event (RULES.md §6.5): a knockout of individuals drawn by lot (unless the
    organiser seeds by strength), each tie a match of games up to ``max_games`` (default 8); or a
    Swiss of individuals, a match of two games a round."""
    if settings.format not in HEAD_TO_HEAD_FORMATS:
        raise DeckhandError(
            f"match.format: a board game's event is one of {', '.join(f.value for f in HEAD_TO_HEAD_FORMATS)}"
        )
    if settings.games is not RoundFormat.ONE_GAME or settings.knockout.match is not None:
        raise DeckhandError(
            "match.games: a board game's match plays games until one player leads (max_games)"
        )
    if settings.format is MatchFormat.SWISS:
        if settings.max_games not in (None, SWISS_GAMES):
            raise DeckhandError(f"match.max_games: a Swiss's match is {SWISS_GAMES} games, colours swapped")
        return replace(settings, max_games=SWISS_GAMES)
    ko = settings.knockout
    if "draw" not in (given.get("knockout") or {}):
        ko = replace(ko, draw=KnockoutDraw.LOT)
    return replace(settings, knockout=ko, max_games=settings.max_games or DEFAULT_MAX_GAMES)


def create_event(spec: dict[str, Any], *, owner: str | None = None) -> EventItem:
    """Create an event after checking it against its grade; the grade's violations come back as an error.

    ``owner``: the verified identity of the caller (service/organiser/access.py); None for in-process callers.
    """
    spec, settings, options, violations = _checked(spec)
    if violations:
        raise GradeViolations([{"rule": v.rule, "message": v.message} for v in violations])
    event_id = spec.get("event_id") or secrets.token_hex(6)
    if not ID.match(event_id):
        raise DeckhandError("event_id may use letters, digits, '_', '.', '-' (1–64)")
    item = EventItem(
        event_pk(event_id),
        META,
        name=spec["name"],
        ruleset=game(spec["ruleset"]).ruleset,
        grade=spec["grade"],
        format=spec["format"],
        rounds=spec["rounds"],
        boards_per_round=spec["boards_per_round"],
        groups=spec["groups"],
        venue=spec.get("venue", True),
        ranking=spec.get("ranking", "competition"),
        seed=spec.get("seed") or secrets.token_hex(16),
        deal_seed=spec.get("deal_seed") or None,
        start=str(spec["start"]),
        created_at=now_ms(),
        owner=owner,
        roles={},
        match=settings.to_dict() if settings is not None else None,
        options=options.to_dict() if options is not None else None,
    )
    try:
        item.save(condition=EventItem.pk.does_not_exist())
    except PutError:
        raise Conflict(f"event {event_id!r} exists already") from None
    return item


def grade_findings(spec: dict[str, Any]) -> list[dict[str, str]]:
    """What the grade checker finds in an event's settings (``EventSpec``'s), writing nothing: the
    findings ``create_event`` would refuse it with (a bad setting is a ``DeckhandError`` as there)."""
    return [{"rule": v.rule, "message": v.message} for v in _checked(spec)[3]]


def _checked(spec: dict[str, Any]) -> tuple[dict[str, Any], MatchSettings | None, Any, list[Violation]]:
    """The spec completed (a match event's format, groups and boards), its match settings and rule
    options checked, and its grade's violations."""
    g = game(spec["ruleset"])
    match = g.competition in (Competition.MATCH, Competition.HEAD_TO_HEAD)
    settings: MatchSettings | None = None
    options: Any = None
    if match:
        # Pairs play matches (RULES.md §4.3): a round is a match at every table, as many boards as its
        # end mode takes; the settings and the rule set's options are typed and checked now.
        settings = MatchSettings.from_dict(spec.get("match"))
        if g.competition is Competition.HEAD_TO_HEAD:
            settings = head_to_head_settings(settings, spec.get("match") or {})
            spec = {**spec, "match": settings.to_dict()}
        options = rule_options(g, spec.get("options"))
        whole_bracket = settings.format in (MatchFormat.KNOCKOUT, MatchFormat.DOUBLE_ELIMINATION)
        if whole_bracket and g.no_draws is not None and options is not None:
            options = rule_options(g, g.no_draws(options.to_dict()))  # a knockout game is never drawn
        settings.clock_minutes(g, options)
        staged = settings.stages.fixed_rounds()
        if staged is not None and staged != spec["rounds"]:
            raise DeckhandError(f"rounds: the stages take {staged} rounds; the event has {spec['rounds']}")
        if settings.knockout.match is not None and not settings.format.bracket:
            raise DeckhandError("match.knockout.match: only for the formats with a knockout")
        # A players-vs-AI (pva) match event keeps its format: its pairs may have AI players (pairs.py).
        fmt = spec.get("format") or "pvp"
        spec = {**spec, "format": fmt, "groups": 1, "boards_per_round": spec.get("boards_per_round") or 1}
    elif spec.get("match") or spec.get("options"):
        raise DeckhandError(f"{g.name} events are duplicate events: no match settings or options")
    if spec.get("deal_seed") and spec["grade"] != "unrated":
        # Boards derived from a seed the organiser chose are known in advance: never in a rated event.
        raise SeedNotAllowed(
            "deal_seed is accepted only for unrated events: a rated event's deals are secret"
        )
    if spec["format"] not in FORMATS:
        raise DeckhandError(f"format must be one of {', '.join(FORMATS)}")
    if spec["format"] == "pva" and spec["groups"] != 1:
        # Players vs AI: every participant plays every board from the same seat, all compared together.
        raise DeckhandError("a players-vs-AI (pva) event has one group: every participant is compared")
    if not spec.get("boards_per_round"):
        raise DeckhandError("boards_per_round is required for a duplicate event")
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
    if match:
        # A match takes as many boards as its end mode gives at the table: no count to check beforehand.
        violations = [v for v in violations if v.rule != "min_boards"]
    return spec, settings, options, violations


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
    """Bulk registration; a player registered twice is an error, never a silent merge.

    Numbers come from the event's counter, taken once per request (by the digest of its players)
    in one transaction with the record of the numbers given: two registrations at once never share
    a number, and a retry of the same request gets the same numbers. Players are written in
    transactions of 25; a failure half-way is completed by a retry of the request (its players
    already written are its own, not duplicates), and a player taken meanwhile by another request
    withdraws the players written so far: all or nothing.
    """
    event = get_event(event_id)
    if event.match is not None:
        raise Conflict("a match event registers pairs (two players each), not single players")
    if event.status not in ("registering", "between_rounds"):
        # A late entry (or a substitute) enters between rounds with nothing scored (RULES.md §4.3
        # options; 001's substitutes): never while a round is dealt or played.
        raise Conflict(
            f"players can be registered before a round starts, not while the event is {event.status}"
        )
    registered = list_players(event_id)
    digest = request_digest(players)
    taken = {player_of(p.sk) for p in registered if p.registration != digest}
    seen: set[str] = set()
    for p in players:
        pid = p["id"]
        if not ID.match(pid):
            raise DeckhandError(f"player id {pid!r} may use letters, digits, '_', '.', '-' (1–64)")
        if pid in seen or pid in taken:
            raise Conflict(f"player {pid!r} is registered twice")
        seen.add(pid)
    registration = take_numbers(event_id, digest, len(players), registered)
    if registration.done:  # the same players, registered by an earlier request that completed
        raise Conflict(f"player {players[0]['id']!r} is registered twice")
    items = [
        PlayerItem(
            event_pk(event_id),
            player_sk(p["id"]),
            name=p.get("name") or p["id"],
            number=registration.first + i,
            silver_points=p.get("silver_points", 0),
            red_points=p.get("red_points", 0),
            region=p.get("region") or None,
            registration=digest,
        )
        for i, p in enumerate(players)
    ]
    write_registration(items, digest, registration, "a player in this batch is registered already")
    return items


def request_digest(players: list[dict[str, Any]]) -> str:
    """The same players in the same order: the same request (a retry)."""
    canonical = json.dumps(players, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:32]


def take_numbers(
    event_id: str, digest: str, count: int, registered: list[Any], counter_sk: str | None = None
) -> RegistrationItem:
    """The request's registration numbers: taken from the counter by compare-and-set, in the same
    transaction as the request's record, or read back from that record when a retry finds it.
    ``registered``: items with a ``number`` (players, or a match event's pairs: ``counter_sk``)."""
    key = (event_pk(event_id), registration_sk(digest))
    counter_key = counter_sk or players_counter_sk()
    for _ in range(MAX_ATTEMPTS):
        try:
            return RegistrationItem.get(*key, consistent_read=True)
        except DoesNotExist:
            pass
        last, unchanged = _last_number(event_id, registered, counter_key)
        counter = CounterItem(event_pk(event_id), counter_key)
        registration = RegistrationItem(*key, first=last + 1, size=count)
        try:
            with transaction() as tx:
                tx.update(counter, actions=[CounterItem.value.set(last + count)], condition=unchanged)
                tx.save(registration, condition=RegistrationItem.sk.does_not_exist())
        except TransactWriteError:
            continue  # another registration took numbers meanwhile: read the counter again
        return registration
    raise Conflict("other registrations kept taking numbers meanwhile; try again")


def _last_number(event_id: str, registered: list[Any], counter_sk: str) -> tuple[int, Condition]:
    """The last number given, and the condition that it is still the last (players registered before
    the counter existed count too)."""
    try:
        last = CounterItem.get(event_pk(event_id), counter_sk, consistent_read=True).value
    except DoesNotExist:
        return max((p.number for p in registered), default=0), CounterItem.value.does_not_exist()
    return last, CounterItem.value == last


def write_registration(
    items: list[Any],
    digest: str,
    registration: RegistrationItem,
    taken: str,
    with_each: Callable[[Any], list[Any]] = lambda item: [],
) -> None:
    """A request's registered items (players, or a match event's pairs), written in transactions of
    25 (with ``with_each``'s items for each: a pair's players), each only if absent or this request's
    own; one taken meanwhile by another request withdraws those written so far (Conflict ``taken``):
    all or nothing. Then the request is marked done."""
    for chunk in range(0, len(items), 25):
        group = [x for item in items[chunk : chunk + 25] for x in [item, *with_each(item)]]
        try:
            with transaction() as tx:
                for item in group:
                    model = type(item)
                    tx.save(item, condition=model.sk.does_not_exist() | (model.registration == digest))
        except TransactWriteError:
            for written in [x for item in items[:chunk] for x in [item, *with_each(item)]]:
                with contextlib.suppress(DeleteError):
                    written.delete(condition=type(written).registration == digest)
            raise Conflict(taken) from None
    registration.update(actions=[RegistrationItem.done.set(True)])


def list_tables(event_id: str) -> list[TableItem]:
    items = list(
        TableItem.query(event_pk(event_id), TableItem.sk.startswith(TABLE_PREFIX), consistent_read=True)
    )
    return sorted(items, key=lambda t: t.order)


# A device's seat when it is no seat's: the table's dealing table, its electronic board.
DEALER_SEAT = -1
EBOARD_SEAT = -3


def eboard_allowed(ruleset: str, table: str) -> None:
    """An electronic board senses a board game's pieces and is told the position: a game of cards has no
    board, and a game whose seats see different boards (pieces hidden from a side) may tell no device
    at the table where every piece is. Decided from the game's spec, never its name."""
    position = game(ruleset).position
    if position is None:
        raise DeckhandError(f"table {table!r}: an electronic board is for a board game, not {ruleset}")
    if position.hidden:
        raise DeckhandError(
            f"table {table!r}: {ruleset} hides pieces from a side, so no electronic board may see the position"
        )


# A thing's previous event lets it go once it can no longer use it: finished (every round ended), or
# never started (still registering — its own first round then refuses to start without it).
RELEASED = ("finished", "registering")


def register_tables(event_id: str, tables: list[dict[str, Any]], by: str | None = None) -> list[TableItem]:
    """Venue tables with the thing name of each seat's handset, of the dealing table and of the electronic
    board (both optional; an electronic board only in a board game whose seats see the same board).

    A thing is bound to one seat of one event while that event can use it: it may act for that seat
    and nothing else. It may be registered in another event once its event has finished or if that
    event never started; while the other event runs (dealing, playing, between rounds) → Conflict.
    The move is conditional on the other event still being so, in the same transaction. A thing of
    an event that never started is moved only by ``by`` who may organise that event too: another
    organiser cannot take its handsets (``by`` None: the venue itself, which organises every event).
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
        if t.get("eboard"):
            eboard_allowed(event.ruleset, t["id"])
        for thing in [*t["seats"], t.get("dealer") or "", t.get("eboard") or ""]:
            if not thing:
                continue
            if not THING_NAME.match(thing):
                raise DeckhandError(f"thing name {thing!r} is not valid")
            if thing.startswith(PLAYER_THING_PREFIX):
                raise DeckhandError(
                    f"thing name {thing!r}: names starting {PLAYER_THING_PREFIX!r} are the players' own devices "
                    "(join links), not a table's"
                )
            if thing in things:
                raise Conflict(f"thing {thing!r} is assigned twice")
            things.add(thing)
    bound = _bound_elsewhere(event_id, sorted(things), by)
    items = []
    for i, t in enumerate(tables):
        table_item = TableItem(
            event_pk(event_id),
            table_sk(t["id"]),
            order=len(existing) + i,
            seats=t["seats"],
            dealer=t.get("dealer") or "",
            eboard=t.get("eboard") or "",
        )
        table_things: list[tuple[int, str]] = [
            *enumerate(t["seats"]),
            (DEALER_SEAT, t.get("dealer") or ""),
            (EBOARD_SEAT, t.get("eboard") or ""),
        ]
        try:
            with transaction() as tx:
                tx.save(table_item, condition=TableItem.sk.does_not_exist())
                released: set[str] = set()
                for seat, thing in table_things:
                    if not thing:
                        continue
                    previous = bound.get(thing)
                    free = DeviceItem.pk.does_not_exist()
                    if previous is not None:
                        free = free | (DeviceItem.event_id == previous)
                        released.add(previous)
                    tx.save(
                        DeviceItem(device_pk(thing), META, event_id=event_id, table=t["id"], seat=seat),
                        condition=free,
                    )
                for previous in sorted(released):
                    tx.condition_check(
                        EventItem, event_pk(previous), META, condition=EventItem.status.is_in(*RELEASED)
                    )
        except TransactWriteError:
            raise Conflict(f"table {t['id']!r} or one of its things is registered already") from None
        for _, thing in table_things:
            if thing:
                forget_device(thing)
        items.append(table_item)
    return items


def _bound_elsewhere(event_id: str, things: list[str], by: str | None) -> dict[str, str]:
    """Things bound to an event that has let them go: thing → that event. A thing bound to this
    event, or to one that still runs, is a Conflict; one of a not-started event whose staff ``by``
    is not, Forbidden (only a finished or deleted event lets anyone take its things)."""
    keys = [(device_pk(thing), META) for thing in things]
    devices = list(DeviceItem.batch_get(keys, consistent_read=True)) if keys else []
    statuses: dict[str, str] = {}
    bound: dict[str, str] = {}
    for device in sorted(devices, key=lambda d: d.pk):
        thing, previous = device.pk.removeprefix(device_pk("")), device.event_id
        if previous == event_id:
            raise Conflict(f"thing {thing!r} is registered already in this event")
        if previous not in statuses:
            try:
                holder = get_event(previous)
                statuses[previous] = holder.status
                if holder.status != "finished" and by is not None:
                    access.require(holder, by, "organise")
            except NotFound:
                statuses[previous] = "finished"  # its event is gone: nothing can use it there
        if statuses[previous] not in RELEASED:
            raise Conflict(
                f"thing {thing!r} is registered in event {previous!r}, which is {statuses[previous]}: "
                "it can be registered again once that event has finished"
            )
        bound[thing] = previous
    return bound


def things_taken(event_id: str, tables: list[TableItem]) -> list[str]:
    """The things of this event's tables that another event has taken since (this one never started
    and let them go): a round cannot start with them."""
    things = sorted({thing for t in tables for thing in [*t.seats, t.dealer, t.eboard] if thing})
    keys = [(device_pk(thing), META) for thing in things]
    mine = (
        {d.pk for d in DeviceItem.batch_get(keys, consistent_read=True) if d.event_id == event_id}
        if keys
        else set()
    )
    return [thing for thing in things if device_pk(thing) not in mine]


_DEVICE_CACHE: dict[tuple[str, str | None, str], tuple[float, DeviceItem | None]] = {}
DEVICE_CACHE_SECONDS = 60.0
UNKNOWN_DEVICE_SECONDS = 5.0  # a thing at no table: asked again after this (it may be registered since)


def get_device(thing: str, max_age: float = DEVICE_CACHE_SECONDS) -> DeviceItem | None:
    """The seat a thing is assigned to. Assignments change only between events, so a warm Lambda keeps
    them for a minute (one read fewer on every device message), and a thing at no table for a few
    seconds (a flood from an unknown name costs one read, not one a message). ``max_age``: a cached
    answer older than this is read again (a message that the cached assignment cannot place checks
    whether the thing has moved to another event since). Kept per table and endpoint: a process that
    works on two tables (tests, benches) never answers from the other one's."""
    import time

    key = (DeviceItem.Meta.table_name, DeviceItem.Meta.host, thing)
    cached = _DEVICE_CACHE.get(key)
    now = time.monotonic()
    if cached is not None:
        at, item = cached
        if now - at < min(max_age, DEVICE_CACHE_SECONDS if item is not None else UNKNOWN_DEVICE_SECONDS):
            return item
    try:
        found: DeviceItem | None = DeviceItem.get(device_pk(thing), META)
    except DoesNotExist:
        found = None
    if len(_DEVICE_CACHE) >= 100_000:
        _DEVICE_CACHE.clear()  # made-up names by the thousand: start again rather than grow
    _DEVICE_CACHE[key] = (now, found)
    return found


def read_devices(things: list[str]) -> None:
    """The assignments of many things read at once (BatchGetItem, 100 a call) into the cache that
    :func:`get_device` answers from: a deal's boards need every seated device's language, one read
    each otherwise (10,000 at 2,500 tables of handsets)."""
    import time

    table, host, now = DeviceItem.Meta.table_name, DeviceItem.Meta.host, time.monotonic()

    def fresh(thing: str) -> bool:
        cached = _DEVICE_CACHE.get((table, host, thing))
        if cached is None:
            return False
        age = DEVICE_CACHE_SECONDS if cached[1] is not None else UNKNOWN_DEVICE_SECONDS
        return now - cached[0] < age

    wanted = sorted({t for t in things if t and not fresh(t)})
    if not wanted:
        return
    found = {d.pk: d for d in DeviceItem.batch_get([(device_pk(t), META) for t in wanted])}
    if len(_DEVICE_CACHE) + len(wanted) >= 100_000:
        _DEVICE_CACHE.clear()
    for thing in wanted:
        _DEVICE_CACHE[(table, host, thing)] = (now, found.get(device_pk(thing)))


def remember_lang(thing: str, device: DeviceItem, lang: str) -> None:
    """A device's language, said in its ``hello``: written on its assignment (idempotent, and only
    while the thing is still assigned where ``device`` says: a thing moved since is not written), for
    the boards made from now on (:func:`device_langs`); this process's cached assignment with it."""
    if device.lang == lang:
        return
    try:
        device.update(
            actions=[DeviceItem.lang.set(lang)],
            condition=(DeviceItem.event_id == device.event_id)
            & (DeviceItem.table == device.table)
            & (DeviceItem.seat == device.seat),
        )
    except UpdateError as exc:
        if getattr(exc, "cause_response_code", "") != "ConditionalCheckFailedException":
            raise
        forget_device(thing)  # moved meanwhile: the message's placement is checked again


def device_langs(things: list[str]) -> dict[str, str] | None:
    """The languages of a table's devices by seat, for a board made for them (BoardStateItem.langs); None
    when all draw in English. From the assignments as cached (a language said in the last minute may be
    missing here: the device's next hello writes it on the board it is shown)."""
    langs = {}
    for seat, thing in enumerate(things):
        device = get_device(thing) if thing else None
        if device is not None and device.lang:
            langs[str(seat)] = device.lang
    return langs or None


def forget_device(thing: str) -> None:
    """A registration in this process moved the thing: its cached assignment (or absence) is stale."""
    for key in list(_DEVICE_CACHE):
        if key[2] == thing:
            _DEVICE_CACHE.pop(key, None)
