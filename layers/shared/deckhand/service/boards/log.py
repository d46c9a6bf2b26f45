"""A board's log: what each entry records, which message an entry came from, and the board rebuilt
from its log alone (the audit's replay)."""

from __future__ import annotations

from typing import Any

from ...engines.common.cards import format_cards, parse_cards
from ...engines.contract import Action, Board, DealtInSteps, Rejected
from ...engines.registry import Game, game
from ..storage.models import BoardStateItem

# Cards given out to the seats (a game dealt in steps): ``{"s": -1, "t": "step", "n": upto}``.
STEP = "step"


# The board's running clocks moved on by an outage of the system (service/refereeing/outage.py):
# ``{"s": -1, "t": "clocks_stopped", "ms": moved by, "since": the outage's start, "at": when}``.
CLOCKS_STOPPED = "clocks_stopped"

# A board the table could not play, ended by the referee (service/refereeing/unplayed_boards.py), its last entry:
# ``{"s": -1, "t": "unplayed", "by": the referee, "at": when}``; its result is marked ``not_played``.
UNPLAYED = "unplayed"

# A referee's upheld claim that ended the game (service/refereeing/board_rulings.py): ``{"s": -1,
# "t": "ruling", "d": {"claim": …, "winner": seat or None}, "by": the referee, "at": when, "rid": its id}``;
# replay applies it as the engine's ``adjudicate``.
RULING = "ruling"

DEALT = "dealt"  # a dealing table's report of the cards it read
REDEAL = "redeal"  # the board dealt again (a game that redeals when every seat passes): ``n`` its number
CALL = "call"  # the platform's action in every game: a handset calls the referee to its table
SERVE_DEAL = "serve_deal"  # the referee had the server deal the rest of the board (its dealing table failed)
# An electronic board's whole position as it sensed it, checked against the game's:
# ``{"s": -3, "t": "position", "ok": matched, "m", "th", "at"}`` (service/device_io/eboard_reports.py).
POSITION = "position"
# The referee resumed a board the electronic board stopped (service/refereeing/board_resume.py):
# ``{"s": -1, "t": "resumed", "v": the version resumed, "by", "at"}``.
RESUMED = "resumed"

# Log entries that are not the engine's actions — replay skips them (a deal step excepted: replay gives
# the cards out again at the same points). Every other view of the log (the audit, the play record)
# starts from this one classification and says what it keeps of it.
NOT_ACTIONS = frozenset(
    {DEALT, REDEAL, CALL, STEP, SERVE_DEAL, CLOCKS_STOPPED, UNPLAYED, POSITION, RESUMED, RULING}
)


def log_entry(g: Game, action: Action, at: int, msg: str = "") -> dict[str, Any]:
    entry: dict[str, Any] = {"s": action.seat, "t": action.kind, "at": at}
    if action.cards:
        entry["c"] = format_cards(action.cards)
    rule = g.action(action.kind)
    if rule is not None and rule.values:
        entry["v"] = action.value
    if action.data is not None:
        entry["d"] = action.data  # a declared reading or declaration: replay needs it
    if action.timeout:
        entry["to"] = True
    if msg:
        entry["m"] = msg  # with the seat: the sender (a thing has one seat), for de-duplication
    return entry


def ended_unplayed(item: BoardStateItem) -> bool:
    """The referee ended this board unplayed: the engine's board never finished, so its result is
    the one for nothing played (scoring.py), not the engine's."""
    return item.status == "ended" and any(entry["t"] == UNPLAYED for entry in item.log)


def seat_of(item: BoardStateItem, thing: str) -> int | None:
    """The seat ``thing`` acts for at this board (-1: the dealing table), None if none."""
    if thing and thing == item.dealer:
        return -1
    return item.devices.index(thing) if thing in item.devices else None


def find_logged(item: BoardStateItem, thing: str, msg: str) -> dict[str, Any] | None:
    """The log entry of a message already applied (same sender, same message id)."""
    seat = seat_of(item, thing)
    for entry in item.log:
        if entry.get("m") == msg and (entry.get("th") == thing or "th" not in entry and entry["s"] == seat):
            return dict(entry)
    return None


def adjudicate(board: Board, claim: str, winner: int | None) -> None:
    """A referee's ruling applied to the board: the engine's ``adjudicate`` (a board game's), or
    refused for a game whose boards take none."""
    rule = getattr(board, "adjudicate", None)
    if rule is None:
        raise Rejected("no_rulings", "this game's boards take no referee's ruling")
    rule(claim, winner)


def replay(item: BoardStateItem, order: list[int]) -> Board:
    """Rebuild a board from its dealt card order and its log alone (audit): it must equal the stored one."""
    g = game(item.ruleset)
    # A game dealt in steps starts every board with no card out (match_boards, _make_from_carry).
    board = (g.new_board_in_steps or g.new_board)(order, item.carry)
    for entry in item.log:
        if entry["t"] == STEP and isinstance(board, DealtInSteps):
            board.deal_step(entry["n"])
            continue
        if entry["t"] == RULING:
            adjudicate(board, entry["d"]["claim"], entry["d"]["winner"])
            continue
        if entry["t"] in NOT_ACTIONS:
            continue
        cards = tuple(parse_cards(entry.get("c", []), decks=g.decks, jokers=g.jokers))
        board.apply(
            Action(entry["s"], entry["t"], cards, entry.get("v", 0), bool(entry.get("to")), entry.get("d"))
        )
    return board
