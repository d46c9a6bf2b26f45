"""An electronic board's reports (a board game's physical board with sensors, docs/devices.md): each move
it senses is the seat to move's, checked by the rules and the clocks as a handset's move would be; an
illegal one stops the board for the referee (a call raised, the clocks held until the referee resumes:
service/refereeing/board_resume.py); its whole position may be reported and is checked against the
server's, a mismatch stopping the board too.

Only a board game whose seats see the same board has one (organiser.events.eboard_allowed): it is told
the position every seat sees, nothing more.
"""

from __future__ import annotations

from typing import Any

from ...engines.common.grid import MOVE, square_names
from ...engines.contract import Action, Rejected
from ...engines.registry import game
from ...engines.spec import Position
from ..boards import log as board_log
from ..boards import progress as board_progress
from ..boards import store as board_store
from ..boards import table as tableboard
from ..boards import views as board_views
from ..boards.log import CALL, POSITION
from ..boards.store import Unchanged
from ..infra import outgoing
from ..infra.clock import now_ms
from ..infra.messaging import down_topic
from ..infra.runtime import Runtime
from ..infra.words import seat_lang, words
from ..storage.models import BoardStateItem
from .incoming import EBOARD, BadMessage, Moved, PositionReport
from .replies import ack, reject

POSITION_MISMATCH = "position_mismatch"

# What a report came to: "moved" (applied), "stopped" (refused: the board stopped), "mismatch" (a position
# refused while stopped), "checked" (a position that matched), or a duplicate ("dup"), with the
# refusal's code and reason.
Outcome = tuple[str, str, str]


def report(rt: Runtime, thing: str, message: Moved | PositionReport, item: BoardStateItem) -> dict[str, Any]:
    """A ``moved`` or ``position`` of the table's electronic board, for the board ``item``."""
    position = usable(item.ruleset)
    if position is None or item.eboard != thing:
        raise BadMessage("not_your_seat", f"board {item.board} has no electronic board {thing!r}")
    earlier = board_log.find_logged(item, thing, message.msg)
    if earlier is not None:
        return _again(rt, thing, message.msg, item, earlier)
    check = _moved(thing, message, position) if isinstance(message, Moved) else _position(thing, message)
    item, (outcome, code, why) = board_store.transact(
        (item.event_id, item.round, item.table, item.board), check, first=item
    )
    if outcome == "dup":
        return _again(rt, thing, message.msg, item, board_log.find_logged(item, thing, message.msg) or {})
    if outcome == "stopped":
        _tell_stopped(rt, item, why)
    if outcome in ("stopped", "mismatch"):
        return reject(rt, thing, message.msg, code, why)
    result = ack(rt, thing, message.msg, version=item.version)
    if outcome == "moved":
        board_progress.after_change(rt, item)
    return result


def usable(ruleset: str) -> Position | None:
    """The game's board, when an electronic board may be told it (a board game, no piece hidden)."""
    position = game(ruleset).position
    return None if position is None or position.hidden else position


def moves_played(item: BoardStateItem) -> int:
    """The position's number: the moves played so far (``pos``'s ``n``, a ``moved``'s)."""
    return board_views.moves_played(item)


def _moved(thing: str, message: Moved, position: Position) -> Any:
    def change(current: BoardStateItem) -> Outcome | Unchanged[Outcome]:
        if board_log.find_logged(current, thing, message.msg):
            return Unchanged(("dup", "", ""))
        refuse_unless_in_play(current)
        played = moves_played(current)
        if message.n != played:
            # The position moved on since the board's report (a move entered on a handset): nothing to do.
            raise BadMessage(
                "not_your_turn",
                f"the board has {played} moves played; this report is of position {message.n}",
            )
        if len(message.sq) != len(position.move_data):
            raise BadMessage("malformed", f"sq must name {len(position.move_data)} square(s)")
        tableboard.apply_timeouts(current)
        refuse_unless_in_play(current)  # a clock ran out first: the board has ended
        pending = board_store.engine_of(current)[1].pending()
        if len(pending) != 1:
            raise BadMessage("not_your_turn", "no one seat is to move")
        seat = pending[0]
        action = Action(seat, MOVE, (), 0, data=dict(zip(position.move_data, message.sq, strict=True)))
        try:
            tableboard.apply_action(current, action, msg=message.msg)
        except Rejected as exc:
            why = f"electronic board: {' '.join(message.sq)} refused: {exc.message}"
            _stop(current, seat, thing, message.msg, exc.code, why)
            return "stopped", exc.code, why
        for entry in current.log:
            if entry.get("m") == message.msg and entry["s"] == seat and "th" not in entry:
                entry["th"] = thing  # the sender: a handset's message ids may be the same
        current.log = list(current.log)
        return "moved", "", ""

    return change


def _position(thing: str, message: PositionReport) -> Any:
    def change(current: BoardStateItem) -> Outcome | Unchanged[Outcome]:
        if board_log.find_logged(current, thing, message.msg):
            return Unchanged(("dup", "", ""))
        if current.status == "waiting":
            raise BadMessage("wrong_board", f"board {current.board} has not started at this table")
        if current.status == "ended":
            raise BadMessage("board_over", f"board {current.board} has ended")
        differ = position_differs(current, message.rows)
        entry = {"s": EBOARD, "t": POSITION, "ok": not differ, "m": message.msg, "th": thing, "at": now_ms()}
        why = f"electronic board: the pieces differ from the game at {' '.join(differ[:8])}"
        stops = bool(differ) and current.status == "playing"
        if stops:
            pending = board_store.engine_of(current)[1].pending()
            _stop(current, pending[0] if pending else 0, thing, "", POSITION_MISMATCH, why)
        current.log = [*current.log, entry]  # after the stop: it keeps the board stopped (board_resume)
        if not differ:
            return "checked", "", ""
        return ("stopped" if stops else "mismatch"), POSITION_MISMATCH, why

    return change


def position_differs(item: BoardStateItem, rows: list[str]) -> list[str]:
    """The squares where ``rows`` (the board's sensed glyphs) differ from the game's grid."""
    drawn = board_views.shared_grid(item)
    names = {cell: name for name, cell in square_names(drawn).items()}
    width = drawn["w"]
    mine, theirs = list(drawn["r"]), list(rows)
    differ = []
    for i in range(max(len(mine), len(theirs))):
        a = (mine[i] if i < len(mine) else "").ljust(width)
        b = (theirs[i] if i < len(theirs) else "").ljust(width)
        for j in range(max(len(a), len(b))):
            if (a[j] if j < len(a) else " ") != (b[j] if j < len(b) else " "):
                differ.append(names.get(i * width + j, f"row {i + 1} column {j + 1}"))
    return differ


def refuse_unless_in_play(current: BoardStateItem) -> None:
    """A board not in play refuses a move, a handset's or a board's: not begun, stopped (never the stop's
    detail: a misread names where a card lies in a board other tables play), or ended."""
    if current.status == "waiting":
        raise BadMessage("wrong_board", f"board {current.board} has not started at this table")
    if current.status == "stopped":
        raise BadMessage(
            "board_stopped", f"board {current.board} is stopped: {outgoing.STOPPED_FOR_HANDSETS}"
        )
    if current.status == "ended":
        raise BadMessage("board_over", f"board {current.board} has ended")


def _stop(current: BoardStateItem, seat: int, thing: str, msg: str, code: str, why: str) -> None:
    """The board stopped for the referee: a call of the seat to move's table raised (the round's status
    lists it), the clocks held (a stopped board is never timed out; the referee's resume moves them on
    by the time stopped, as for an outage)."""
    current.status = "stopped"
    current.stop_reason = why
    call: dict[str, Any] = {"s": seat, "t": CALL, "at": now_ms(), "th": thing, "eb": code}
    if msg:
        call["m"] = msg
    current.log = [*current.log, call]


def _tell_stopped(rt: Runtime, item: BoardStateItem, why: str) -> None:
    """Each seat's device learns the board stopped; the electronic board, why (the referee's too)."""
    for seat, t in enumerate(item.devices):
        if t:
            told = words(seat_lang(item.langs, seat))("stopped.referee")
            rt.publisher.publish(down_topic(t), outgoing.stopped(item.board, told))
    rt.publisher.publish(down_topic(item.eboard), outgoing.stopped(item.board, why))


def _again(rt: Runtime, thing: str, msg: str, item: BoardStateItem, entry: dict[str, Any]) -> dict[str, Any]:
    """A repeated report (QoS 1): answered as the first was, and nothing changes."""
    if entry.get("t") == CALL and "eb" in entry:
        return reject(rt, thing, msg, entry["eb"], item.stop_reason or "the board stopped on this report")
    if entry.get("t") == POSITION and not entry.get("ok"):
        return reject(rt, thing, msg, POSITION_MISMATCH, "the pieces differed from the game")
    board_views.publish_position(rt.publisher, item)
    return ack(rt, thing, msg, duplicate=True, version=item.version)
