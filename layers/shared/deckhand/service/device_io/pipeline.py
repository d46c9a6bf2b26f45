"""A device message's way through the service, top to bottom (docs/protocol.md):

1. parse it (``device_messages``: a malformed message is refused before anything is read);
2. who sent it: the thing's assignment gives its event, table and seat (a stale cached one is read
   again once);
3. route it: a ``hello`` (``device_hello``), a dealing table's report (``dealing_reports``), an
   electronic board's (``eboard_reports``), a call of the referee (``referee_calls``), or an action, applied to the board by the rules with a conditional
   write (``tableboard`` in ``board_store.transact``);
4. what goes out: the acknowledgement or refusal (``device_replies``), then the views, the scoring
   and the next board (``board_progress.after_change``).

A device may act only for the seat it is assigned; a duplicate (same thing, same message id — MQTT
QoS 1 redelivery, a Lambda retry, a handset resending after a reconnect) is acknowledged again and
never applied twice; every rejection goes back to the sender with a reason code and changes nothing.
"""

from __future__ import annotations

from typing import Any

from ...engines.contract import Action, Rejected
from ...engines.registry import game
from ..boards import log as board_log
from ..boards import progress as board_progress
from ..boards import store as board_store
from ..boards import table as tableboard
from ..boards import views as board_views
from ..boards.log import CALL
from ..boards.store import Unchanged
from ..infra import outgoing
from ..infra.clock import now_ms
from ..infra.runtime import Runtime
from ..infra.words import seat_lang
from ..organiser.events import get_device, get_event, remember_lang
from ..organiser.player_links import PLAYER_ROLE
from ..storage.models import BoardStateItem, DeviceItem
from . import eboard_reports, player_devices
from .dealing_reports import dealing_report
from .hello import hello
from .incoming import (
    DEALER,
    EBOARD,
    THING,
    Act,
    BadMessage,
    Dealt,
    Hello,
    Message,
    Moved,
    PositionReport,
    parse,
    to_action,
)
from .referee_calls import call_referee
from .replies import ack, reject


def handle(rt: Runtime, thing: Any, payload: Any) -> dict[str, Any]:
    """Process one device message; returns the outcome (also sent to the device as ack/reject)."""
    if not isinstance(thing, str) or not THING.match(thing):
        return {"status": "rejected", "code": outgoing.UNKNOWN_DEVICE, "why": "no valid thing name"}
    msg = payload.get("msg") if isinstance(payload, dict) else None
    try:
        message = parse(payload)  # 1. parse
        return _as_assigned(rt, thing, message)  # 2. who sent it, then 3. and 4.
    except BadMessage as exc:
        return reject(rt, thing, msg if isinstance(msg, str) else None, exc.code, exc.why, exc.ask)


# Refusals that may come from a cached assignment gone stale (the thing was registered in a new event
# since): the assignment is read again, at most once a second per thing, and the message retried.
_PLACEMENT = frozenset({outgoing.UNKNOWN_DEVICE, "no_round", "wrong_board", "board_over", "not_your_seat"})
RECHECK_SECONDS = 1.0


def _as_assigned(rt: Runtime, thing: str, message: Message) -> dict[str, Any]:
    """The message handled for the seat its thing is assigned (the cached assignment, read again once
    when the refusal may come from its being stale)."""
    device = get_device(thing)
    if device is not None and device.role == PLAYER_ROLE:
        return _as_player(rt, thing, message, device)
    try:
        return _route(rt, thing, message, device)
    except BadMessage as exc:
        if exc.code not in _PLACEMENT:
            raise
        again = get_device(thing, max_age=RECHECK_SECONDS)
        if _placed(again) != _placed(device):
            return _route(rt, thing, message, again)
        if isinstance(message, Hello) and exc.code == "no_round":
            # Nothing to resend yet: the first view comes when the round starts.
            return ack(rt, thing, message.msg)
        raise


def _as_player(rt: Runtime, thing: str, message: Message, device: DeviceItem) -> dict[str, Any]:
    """A player device's message: its link checked again, then handled for its player's seat in the
    round (a player sitting out, or no round in play: a hello is only acknowledged)."""
    player_devices.check_link(device, thing)
    if isinstance(message, Hello) and message.lang is not None:
        remember_lang(thing, device, message.lang)  # on the player's device itself, wherever it sits
    try:
        return _route(rt, thing, message, player_devices.placed(device, _round_of(message, device)))
    except BadMessage as exc:
        if isinstance(message, Hello) and exc.code in ("no_round", player_devices.NOT_SEATED):
            return ack(rt, thing, message.msg)
        raise


def _placed(device: DeviceItem | None) -> tuple[str, str, int] | None:
    return None if device is None else (device.event_id, device.table, device.seat)


def _route(rt: Runtime, thing: str, message: Message, device: DeviceItem | None) -> dict[str, Any]:
    """3. Each kind of message to its handler: a hello, a call of the referee, a resend, a dealing
    table's report, or a seat's action."""
    if device is None:
        raise BadMessage(outgoing.UNKNOWN_DEVICE, f"thing {thing!r} is not assigned to any table")
    round_no = _round_of(message, device)
    if isinstance(message, Hello):
        if message.lang is not None and device.seat not in (DEALER, EBOARD) and device.role != PLAYER_ROLE:
            remember_lang(thing, device, message.lang)  # a player device's was remembered before placing it
        # A player device gets its seat's view itself, whichever thing the board names for the seat.
        to = thing if device.role == PLAYER_ROLE else None
        return hello(rt, thing, device, round_no, message.msg, message.lang, to=to)
    if isinstance(message, Dealt) != (device.seat == DEALER) or isinstance(
        message, Moved | PositionReport
    ) != (device.seat == EBOARD):
        raise BadMessage(
            "not_your_seat",
            "only the dealing table reports dealt, only the electronic board moved and position; "
            "only handsets play",
        )
    item = board_store.load(device.event_id, round_no, device.table, message.board)
    if item is None:
        raise BadMessage("wrong_board", f"board {message.board!r} is not played at this table in this round")
    if isinstance(message, Moved | PositionReport):
        return eboard_reports.report(rt, thing, message, item)  # its own duplicates: a refusal is repeated
    seat = player_devices.seat_on(device, item)  # a player device: its player's seat on this board
    if isinstance(message, Act) and message.a.k == CALL:
        return call_referee(rt, thing, message.msg, item, seat)
    if board_log.find_logged(item, thing, message.msg):
        return _duplicate(rt, thing, message.msg, item)
    if isinstance(message, Dealt):
        if item.dealer != thing:
            # The referee had the server deal this board (its dealing table failed): reads change nothing.
            raise BadMessage("not_your_seat", f"board {item.board} is not dealt by this table")
        return dealing_report(rt, thing, message.msg, item, message.cards, partial=message.upto is not None)
    return _act(rt, thing, message, item, seat)


def _round_of(message: Message, device: DeviceItem) -> int:
    """The round the message is for: the one of the device's view when it says (its board is read
    directly, without the event: one read fewer on every play; an old round's board has ended and
    refuses the action), else the event's round in play."""
    if not isinstance(message, Hello) and message.r is not None:
        return message.r
    event = get_event(device.event_id)
    if event.status != "playing" or not event.current_round:
        raise BadMessage("no_round", "no round is in play")
    return int(event.current_round)


def _act(rt: Runtime, thing: str, message: Act, item: BoardStateItem, seat: int) -> dict[str, Any]:
    """A seat's action: checked against the game's schema, applied by the rules in a conditional write
    (the clocks' due defaults first), then 4. what goes out: the ack, the views, the next board."""
    msg = message.msg
    action = to_action(game(item.ruleset), seat, message.a)

    def change(current: BoardStateItem) -> bool | None | Unchanged[bool | None]:
        """True when the board moved to its next deal; Unchanged(None) for a duplicate."""
        if board_log.find_logged(current, thing, msg):
            return Unchanged(None)
        eboard_reports.refuse_unless_in_play(current)
        timeouts = tableboard.apply_timeouts(current)
        try:
            redealt = tableboard.apply_action(current, action, msg=msg)
        except Rejected as exc:
            offered = _offer(current, action, exc.code)
            raise BadMessage(exc.code, OFFERED_WHY if offered else exc.message, offered) from None
        return redealt or timeouts.redealt

    key = (item.event_id, item.round, item.table, item.board)
    item, redealt = board_store.transact(key, change, first=item)
    if redealt is None:
        return _duplicate(rt, thing, msg, item)
    result = ack(rt, thing, msg, version=item.version)
    board_progress.after_change(rt, item, redealt=redealt)
    return result


# What a refusal that offers a choice says (its ask names the choices; the message stays well under 1 KiB).
OFFERED_WHY = "choose one of the options"


def _offer(item: BoardStateItem, action: Action, code: str) -> dict[str, Any] | None:
    """The game's ask that resolves a refused action (a play that reads several ways), if any."""
    g, board = board_store.engine_of(item)
    if g.offer is None:
        return None
    return g.offer(board, action, code, seat_lang(item.langs, action.seat))


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
    result = ack(rt, thing, msg, duplicate=True, version=item.version)
    seat = next((s for s, t in enumerate(item.devices) if t == thing), None)
    if seat is not None:
        board_views.publish_views(rt.publisher, item, only_seat=seat)
    if item.status == "ended" and _ended_it_recently(item, msg):
        rt.invoke(
            "score",
            {"event_id": item.event_id, "round": item.round, "table": item.table, "board": item.board},
        )
        # The first delivery may have failed after the board was saved, before the next one started.
        board_progress.start_next(rt, item)
    return result


def _ended_it_recently(item: BoardStateItem, msg: str) -> bool:
    """``msg`` is the last device message the ended board logged, within the re-drive window."""
    last = next((entry for entry in reversed(item.log) if "m" in entry and entry["t"] != CALL), None)
    if last is None or last["m"] != msg:
        return False
    ended_at = max((entry.get("at", 0) for entry in item.log), default=0)
    return now_ms() - ended_at <= REDRIVE_WINDOW_MS
