"""Device messages (docs/protocol.md): from a thing name to its seat, validated, applied once.

A device may act only for the seat it is assigned; a duplicate (same thing, same message id — MQTT
QoS 1 redelivery, a Lambda retry, a handset resending after a reconnect) is acknowledged again and
never applied twice; every rejection goes back to the sender with a reason code and changes nothing.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from ..engines.common.cards import parse_cards
from ..engines.contract import Action, Rejected
from ..engines.registry import Game, game
from ..errors import CardError
from . import flow, outgoing, tableboard
from .clock import now_ms
from .events import get_device, get_event
from .keys import audit_sk, event_pk
from .messaging import down_topic
from .models import AuditItem, BoardStateItem, DeviceItem
from .runtime import Runtime
from .tableboard import Unchanged

THING = re.compile(r"^[A-Za-z0-9_:-]{1,128}$")
DEALER = -1

MsgId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")]
BoardId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]{1,32}$")]
RoundNo = Annotated[int, Field(ge=1, le=999)]
Tokens = Annotated[list[str], Field(min_length=1, max_length=108)]
Kind = Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,16}$")]


class BadMessage(Exception):
    def __init__(self, code: str, why: str, ask: dict[str, Any] | None = None) -> None:
        super().__init__(why)
        self.code = code
        self.why = why
        self.ask = ask  # the decision that resolves the refusal (docs/protocol.md, ``reject``)


class _Up(BaseModel):
    """Fields every message has; fields a message type does not list are ignored (docs/protocol.md)."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    msg: MsgId


class _OnBoard(_Up):
    board: BoardId
    r: RoundNo | None = None  # the round of the view the message was decided on

    @model_validator(mode="after")
    def _round_given_is_a_number(self) -> _OnBoard:
        if self.r is None and "r" in self.model_fields_set:
            raise ValueError("r must be a number")
        return self


class Hello(_Up):
    t: Literal["hello"]


class Dealt(_OnBoard):
    t: Literal["dealt"]
    cards: Tokens
    # A report while dealing (a game whose seats act during the deal): ``cards`` are the first ``upto``
    # cards read so far, and the server gives them to the seats. Absent: the whole deal, read.
    upto: Annotated[int, Field(ge=1, le=108)] | None = None

    @model_validator(mode="after")
    def _upto_counts_the_cards(self) -> Dealt:
        if self.upto is not None and self.upto != len(self.cards):
            raise ValueError("upto must be the number of cards reported")
        return self


class ActionBody(BaseModel):
    """``a`` of an ``act``: the kind, and what the game's action schema says it carries."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    k: Kind
    v: Any = None  # what ``v`` and ``c`` must be depends on the kind: checked against the game's schema
    c: Any = None
    d: Any = None


class Act(_OnBoard):
    t: Literal["act"]
    a: ActionBody


DeviceMessage = Annotated[Hello | Dealt | Act, Field(discriminator="t")]
_MESSAGE: TypeAdapter[Hello | Dealt | Act] = TypeAdapter(DeviceMessage)
_TOKENS: TypeAdapter[list[str]] = TypeAdapter(Tokens, config=ConfigDict(strict=True))

# What a malformed field is told, by its place in the message (the first one wins, in this order).
_WHY = (
    ("msg", "msg must be a message id of 1–64 letters, digits or _.:-"),
    ("board", "board must be a board id"),
    ("cards", "cards must be a non-empty list of card tokens"),
    ("upto", "upto must be the number of cards read so far (1–108)"),
    ("r", "r must be the round number of the view"),
    ("a.k", "a.k must be an action kind"),
    ("a", 'a must be an action: {"k": kind, "v"?: value, "c"?: cards, "d"?: data}'),
)


def parse(payload: Any) -> Hello | Dealt | Act:
    """The message, or ``BadMessage("malformed", …)`` saying which field is wrong."""
    if not isinstance(payload, dict):
        raise BadMessage("malformed", "a message must be a JSON object")
    try:
        return _MESSAGE.validate_python(payload)
    except ValidationError as exc:
        places = set()
        for error in exc.errors():
            if error["type"] in ("union_tag_invalid", "union_tag_not_found"):
                raise BadMessage("malformed", f"unknown message type {payload.get('t')!r}") from None
            loc = [str(part) for part in error["loc"][1:]]  # after the message type
            places.add(".".join(loc[:2]))
            places.add(loc[0] if loc else "")
        for place, why in _WHY:
            if place in places:
                raise BadMessage("malformed", why) from None
        raise BadMessage("malformed", str(exc.errors()[0]["msg"])) from None


def _action(g: Game, seat: int, body: ActionBody) -> Action:
    """The game's action schema: the kind exists, it carries cards, a value of its range, data."""
    rule = g.action(body.k)
    if rule is None:
        kinds = ", ".join(a.kind for a in g.actions)
        raise BadMessage("malformed", f"unknown action {body.k!r} (this game's: {kinds})")
    cards: tuple[int, ...] = ()
    if rule.cards:  # cards belong to a play only, ``v`` to a decision only: elsewhere ignored
        try:
            tokens = _TOKENS.validate_python(body.c)
        except ValidationError:
            raise BadMessage("malformed", "a.c must be a non-empty list of card tokens") from None
        try:
            cards = tuple(parse_cards(tokens, decks=g.decks, jokers=g.jokers))
        except CardError as exc:
            raise BadMessage("bad_card", str(exc)) from None
    value = 0
    if rule.values:
        if isinstance(body.v, bool) or not isinstance(body.v, int) or body.v not in rule.values:
            raise BadMessage("malformed", f"a.v must be {rule.values_text}")
        value = body.v
    return Action(seat, rule.kind, cards, value, data=body.d if rule.data else None)


def handle(rt: Runtime, thing: Any, payload: Any) -> dict[str, Any]:
    """Process one device message; returns the outcome (also sent to the device as ack/reject)."""
    if not isinstance(thing, str) or not THING.match(thing):
        return {"status": "rejected", "code": outgoing.UNKNOWN_DEVICE, "why": "no valid thing name"}
    msg = payload.get("msg") if isinstance(payload, dict) else None
    try:
        message = parse(payload)
        return _handle(rt, thing, message)
    except BadMessage as exc:
        return _reject(rt, thing, msg if isinstance(msg, str) else None, exc.code, exc.why, exc.ask)


def _reject(
    rt: Runtime, thing: str, msg: str | None, code: str, why: str, ask: dict[str, Any] | None = None
) -> dict[str, Any]:
    message = outgoing.reject(msg, code, why, ask)
    rt.publisher.publish(down_topic(thing), message)
    result = {"status": "rejected", "code": code, "why": why}
    if "ask" in message:
        result["ask"] = message["ask"]
    return result


def _ack(
    rt: Runtime, thing: str, msg: str, *, duplicate: bool = False, version: int | None = None
) -> dict[str, Any]:
    # ``v``: the board's version with this action in it: older views are stale
    rt.publisher.publish(down_topic(thing), outgoing.ack(msg, version=version, duplicate=duplicate))
    return {"status": "duplicate" if duplicate else "accepted"}


# Refusals that may come from a cached assignment gone stale (the thing was registered in a new event
# since): the assignment is read again, at most once a second per thing, and the message retried.
_PLACEMENT = frozenset({outgoing.UNKNOWN_DEVICE, "no_round", "wrong_board", "board_over", "not_your_seat"})
RECHECK_SECONDS = 1.0


def _handle(rt: Runtime, thing: str, message: Hello | Dealt | Act) -> dict[str, Any]:
    device = get_device(thing)
    try:
        return _handle_as(rt, thing, message, device)
    except BadMessage as exc:
        if exc.code not in _PLACEMENT:
            raise
        again = get_device(thing, max_age=RECHECK_SECONDS)
        if _placed(again) != _placed(device):
            return _handle_as(rt, thing, message, again)
        if isinstance(message, Hello) and exc.code == "no_round":
            # Nothing to resend yet: the first view comes when the round starts.
            return _ack(rt, thing, message.msg)
        raise


def _placed(device: DeviceItem | None) -> tuple[str, str, int] | None:
    return None if device is None else (device.event_id, device.table, device.seat)


def _handle_as(
    rt: Runtime, thing: str, message: Hello | Dealt | Act, device: DeviceItem | None
) -> dict[str, Any]:
    msg = message.msg
    if device is None:
        raise BadMessage(outgoing.UNKNOWN_DEVICE, f"thing {thing!r} is not assigned to any table")
    kind = message.t
    seat = device.seat
    if not isinstance(message, Hello) and message.r is not None:
        # The round from the device's view: its board is read directly, without the event (one read
        # fewer on every play). An old round's board has ended and refuses the action.
        round_no = message.r
    else:
        event = get_event(device.event_id)
        if event.status != "playing" or not event.current_round:
            raise BadMessage("no_round", "no round is in play")
        round_no = event.current_round
    if isinstance(message, Hello):
        return _hello(rt, thing, device.event_id, round_no, device.table, seat, msg)
    if (kind == "dealt") != (seat == DEALER):
        raise BadMessage("not_your_seat", "only the dealing table reports dealt; only handsets play")
    key = (device.event_id, round_no, device.table, message.board)
    item = tableboard.load(*key)
    if item is None:
        raise BadMessage("wrong_board", f"board {message.board!r} is not played at this table in this round")
    if isinstance(message, Act) and message.a.k == CALL:
        return _call_referee(rt, thing, msg, item, seat)
    if tableboard.find_logged(item, thing, msg):
        return _duplicate(rt, thing, msg, item)
    if isinstance(message, Dealt):
        if item.dealer != thing:
            # The referee had the server deal this board (its dealing table failed): reads change nothing.
            raise BadMessage("not_your_seat", f"board {item.board} is not dealt by this table")
        return _dealt(rt, thing, msg, item, message.cards, partial=message.upto is not None)
    action = _action(game(item.ruleset), seat, message.a)

    def change(current: BoardStateItem) -> bool | None | Unchanged[bool | None]:
        """True when the board moved to its next deal; Unchanged(None) for a duplicate."""
        if tableboard.find_logged(current, thing, msg):
            return Unchanged(None)
        if current.status == "waiting":
            raise BadMessage("wrong_board", f"board {current.board} has not started at this table")
        if current.status == "stopped":
            # Never the stop's detail: a misread names where a card lies in a board other tables play.
            raise BadMessage(
                "board_stopped", f"board {current.board} is stopped: {outgoing.STOPPED_FOR_HANDSETS}"
            )
        if current.status == "ended":
            raise BadMessage("board_over", f"board {current.board} has ended")
        timeouts = tableboard.apply_timeouts(current)
        try:
            redealt = tableboard.apply_action(current, action, msg=msg)
        except Rejected as exc:
            offered = _offer(current, action, exc.code)
            raise BadMessage(exc.code, OFFERED_WHY if offered else exc.message, offered) from None
        return redealt or timeouts.redealt

    item, redealt = tableboard.transact(key, change, first=item)
    if redealt is None:
        return _duplicate(rt, thing, msg, item)
    result = _ack(rt, thing, msg, version=item.version)
    flow.after_change(rt, item, redealt=redealt)
    return result


# What a refusal that offers a choice says (its ask names the choices; the message stays well under 1 KiB).
OFFERED_WHY = "choose one of the options"


def _offer(item: BoardStateItem, action: Action, code: str) -> dict[str, Any] | None:
    """The game's ask that resolves a refused action (a play that reads several ways), if any."""
    g, board = tableboard.engine_of(item)
    if g.offer is None:
        return None
    return g.offer(board, action, code)


CALL = "call"  # the platform's action in every game: a handset calls the referee to its table
CALL_AGAIN_MS = 60_000  # a seat's second call within this is acknowledged and not recorded again


def _call_referee(rt: Runtime, thing: str, msg: str, item: BoardStateItem, seat: int) -> dict[str, Any]:
    """A handset calls the referee: noted on the board (the round's status shows it to the event's
    staff) and in the audit, once per message and once a minute per seat; the game goes on."""
    key = (item.event_id, item.round, item.table, item.board)

    Noted = tuple[int | None, bool]  # when the call is noted (None: not noted), and if it was before

    def change(current: BoardStateItem) -> Noted | Unchanged[Noted]:
        logged = tableboard.find_logged(current, thing, msg)
        if logged is not None:  # a resend: the first delivery's time
            return Unchanged((int(logged["at"]), True))
        now = now_ms()
        recent = any(
            e["t"] == CALL and e["s"] == seat and now - e.get("at", 0) < CALL_AGAIN_MS for e in current.log
        )
        if recent:
            return Unchanged((None, False))
        current.log = [*current.log, {"s": seat, "t": CALL, "at": now, "m": msg}]
        return now, False

    item, (at, resent) = tableboard.transact(key, change, first=item)
    if at is not None:
        # Keyed by the call's message: a resend after a failure here writes the same entry again.
        AuditItem(
            event_pk(item.event_id),
            audit_sk(at, msg),
            kind="call_referee",
            detail={"round": item.round, "table": item.table, "board": item.board, "seat": seat},
            by=thing,
            at=at,
        ).save()
    return _ack(rt, thing, msg, duplicate=resent, version=item.version)


# A resend of the message that ended a board re-drives what its first delivery may not have done
# (scoring, the next board) for this long after the board ended; the timers' sweep (every minute)
# re-drives anyway, so after that a resend costs one read and no write.
REDRIVE_WINDOW_MS = 120_000


def _duplicate(rt: Runtime, thing: str, msg: str, item: BoardStateItem) -> dict[str, Any]:
    """Acknowledge again, resend the sender's view; costs nothing beyond the board's read already made.

    The ack carries the board's version, that of the view resent with it: the first ack may have been
    lost with the link, and the handset waits for a view at least that recent. Only the message that
    ended a board, resent soon after, re-drives it (scored again, the next board begun: idempotent);
    a resend of any other old message id — a flood of them — writes and invokes nothing."""
    result = _ack(rt, thing, msg, duplicate=True, version=item.version)
    seat = next((s for s, t in enumerate(item.devices) if t == thing), None)
    if seat is not None:
        tableboard.publish_views(rt.publisher, item, only_seat=seat)
    if item.status == "ended" and _ended_it_recently(item, msg):
        rt.invoke(
            "score",
            {"event_id": item.event_id, "round": item.round, "table": item.table, "board": item.board},
        )
        # The first delivery may have failed after the board was saved, before the next one started.
        flow.start_next(rt, item)
    return result


def _ended_it_recently(item: BoardStateItem, msg: str) -> bool:
    """``msg`` is the last device message the ended board logged, within the re-drive window."""
    last = next((entry for entry in reversed(item.log) if "m" in entry and entry["t"] != CALL), None)
    if last is None or last["m"] != msg:
        return False
    ended_at = max((entry.get("at", 0) for entry in item.log), default=0)
    return now_ms() - ended_at <= REDRIVE_WINDOW_MS


def _hello(
    rt: Runtime, thing: str, event_id: str, round_no: int, table: str, seat: int, msg: str
) -> dict[str, Any]:
    """A (re)connected device gets its full current view (a rebooted handset resumes mid-board).

    What it costs is capped whatever the round: the event and the round (read before), then the
    table's boards in one batch read. A board left waiting after the one before it ended (a crash in
    between) is started first: then every device at the table gets its view with the start. A board
    the table has not begun is never shown: neither its hands, nor its card order to the dealing table."""
    from .round_boards import boards_of_table
    from .rounds import get_round

    boards = boards_of_table(event_id, round_no, get_round(event_id, round_no), table)
    items = tableboard.load_many(event_id, round_no, [(table, b) for b in boards], consistent=True)
    current, restart = _where_the_table_is([items[(table, b)] for b in boards if (table, b) in items])
    rt.publisher.publish(down_topic(thing), outgoing.ack(msg))
    if restart is not None:
        if flow.start_next(rt, restart):
            return {"status": "accepted"}
        # Started meanwhile (by the sweep, a retried message): its view is the current one.
        following = tableboard.load(event_id, round_no, table, restart.next_board)
        current = following if following is not None and following.status != "waiting" else current
    if current is None:
        return {"status": "accepted"}
    if seat == DEALER:
        if current.status in ("playing", "stopped"):
            flow.send_deal_order(rt, current)  # the board being dealt or played: never a later one
    else:
        tableboard.publish_views(rt.publisher, current, only_seat=seat)
    return {"status": "accepted"}


def _where_the_table_is(
    items: list[BoardStateItem],
) -> tuple[BoardStateItem | None, BoardStateItem | None]:
    """(the board to show: in play, stopped, or the last ended; the ended board whose next one a
    crash left waiting, if any). Boards are in the round's order; waiting ones are never shown."""
    shown = None
    for item in items:
        if item.status in ("playing", "stopped"):
            return item, None
        if item.status == "waiting":
            if shown is not None and shown.status == "ended":
                return shown, shown
            return shown, None
        shown = item
    return shown, None


def _dealt(
    rt: Runtime, thing: str, msg: str, item: BoardStateItem, tokens: list[str], *, partial: bool = False
) -> dict[str, Any]:
    """Check what the dealing table read against the stored board; a mismatch stops that table's board.

    In a game whose seats act during the deal the cards read reach the seats' handsets only now: a
    report while dealing (``partial``) gives out the cards it names, checked as far as they go."""
    g = game(item.ruleset)
    _, expected = flow.current_deal(item)
    try:
        read = parse_cards(tokens, decks=g.decks, jokers=g.jokers)
    except CardError as exc:
        read = None
        problem = f"unreadable report: {exc}"
    if read is not None:
        problem = _deal_problem(expected[: len(read)] if partial else expected, read)
    count = 0 if read is None else len(read)

    def change(current: BoardStateItem) -> bool | Unchanged[bool]:
        if current.dealer != thing:  # the server took this board over meanwhile (serve_deal)
            raise BadMessage("not_your_seat", f"board {current.board} is not dealt by this table")
        if partial and not problem:
            # Progress: only what gives out new cards is written (a resent report changes nothing). It
            # never resumes a stopped board: a report sent before the misread may arrive after it; the
            # table's whole report of the deal dealt again does (below).
            if current.status != "playing":
                return Unchanged(False)
            _, board = tableboard.engine_of(current)
            moved = tableboard.give_out(current, board, count, now_ms(), msg, thing)
            return True if moved else Unchanged(False)
        current.log = [*current.log, {"s": DEALER, "t": "dealt", "ok": not problem, "m": msg, "th": thing}]
        if problem and _dealt_correctly(current.log[:-1]):
            # Overtaken: the table's later, correct report of this deal was handled first (messages
            # can arrive out of order). The cards on the table are right; the stale report changes nothing.
            return False
        current.dealt_ok = not problem
        if problem and current.status in ("playing", "waiting"):
            current.status = "stopped"
            current.stop_reason = problem
            current.deadline = 0
        elif not problem and current.status == "stopped" and current.stop_reason:
            # The referee cleared the fault and the table dealt the board again, correctly: play resumes,
            # with the clocks of the seats to act started afresh.
            current.stop_reason = None
            tableboard.resume(current)
            _, board = tableboard.engine_of(current)
            tableboard.give_out(current, board, count, now_ms())
            return True
        if not problem and current.status == "playing":
            _, board = tableboard.engine_of(current)
            return tableboard.give_out(current, board, count, now_ms())  # the whole deal read: every card out
        return False

    item, resumed = tableboard.transact((item.event_id, item.round, item.table, item.board), change)
    if partial and not problem:
        # A report whose cards were all out already (overtaken by a later one) is answered as a
        # duplicate: it is not lost, a later report carried everything it did.
        result = _ack(rt, thing, msg, duplicate=not resumed)
        if resumed:
            flow.after_change(rt, item)
        return result
    if resumed:
        result = _ack(rt, thing, msg)
        flow.after_change(rt, item)
        return result
    if problem and item.status != "stopped":
        return _ack(rt, thing, msg)  # an overtaken report (above)
    if problem:
        # The detail (which card lies where) goes to the dealing table that must fix it and to the
        # referee (the board's stop reason, in the round's status); handsets learn only that it stopped.
        for t in item.devices:
            if t:
                rt.publisher.publish(
                    down_topic(t), outgoing.stopped(item.board, outgoing.STOPPED_FOR_HANDSETS)
                )
        rt.publisher.publish(down_topic(thing), outgoing.stopped(item.board, problem))
        return _reject(rt, thing, msg, "deal_mismatch", problem)
    return _ack(rt, thing, msg)


def _dealt_correctly(log: list[dict[str, Any]]) -> bool:
    """A correct report of the current deal is logged (since the last redeal)."""
    for entry in reversed(log):
        if entry["t"] == "redeal":
            return False
        if entry["t"] == "dealt" and entry.get("ok"):
            return True
    return False


def _deal_problem(expected: list[int], read: list[int]) -> str:
    from ..engines.common.cards import format_card

    for i, (want, got) in enumerate(zip(expected, read, strict=False)):
        if want != got:
            return f"card {i + 1} read as {format_card(got)}, the board has {format_card(want)}"
    if len(read) < len(expected):
        return f"only {len(read)} of {len(expected)} cards were dealt"
    if len(read) > len(expected):
        return f"{len(read) - len(expected)} card(s) more than the board has"
    return ""
