"""A board's clocks, read from its item: when each seat's decision times out (its warning, then its
default), when the next card of a paced deal is due, and the match's clock."""

from __future__ import annotations

from ...engines.contract import Action, Board, DealtInSteps, Timing
from ...engines.registry import game
from ..infra.clock import now_ms
from ..storage.models import BoardStateItem
from .log import CLOCKS_STOPPED, NOT_ACTIONS, REDEAL


def dealing(board: Board) -> DealtInSteps | None:
    """The board, while its cards are still being given out (a game whose seats act during the deal)."""
    if isinstance(board, DealtInSteps) and board.dealt < board.deal_total:
        return board
    return None


def next_card_at(item: BoardStateItem, board: Board) -> int:
    """When the server gives out the next card of a paced deal (0: not a deal the server paces)."""
    steps = dealing(board)
    if steps is None or not item.deal_from or not item.deal_ms:
        return 0
    return item.deal_from + (steps.dealt + 1) * item.deal_ms


def clock_action(item: BoardStateItem, seat: int, timing: Timing) -> tuple[int, Action]:
    """When the seat's clock next acts, and what it applies: its warning (once per decision), then
    the decision's default."""
    asked = item.asked_at[seat]
    warning = timing.warning
    if timing.warn_ms is None or warning is None:
        return asked + timing.limit_ms, timing.default
    warned = warned_at(item, seat, warning.kind)
    if warned is None:
        return asked + timing.warn_ms, warning
    # The rest of the decision's time runs from the warning (a late sweep never gives both at once).
    return warned + timing.limit_ms - timing.warn_ms, timing.default


def warned_at(item: BoardStateItem, seat: int, kind: str) -> int | None:
    """When the seat's clock gave its warning in the decision it is asked now, if it has: the log
    back to the seat's own last action (or a redeal), the warning's time moved on by every outage
    since (``clocks_stopped``), as the seat's ``asked_at`` was."""
    moved = 0
    for entry in reversed(item.log):
        t = entry["t"]
        if t == CLOCKS_STOPPED:
            moved += int(entry["ms"])
        elif t == REDEAL:
            return None
        elif entry["s"] == seat and t not in NOT_ACTIONS and "by" not in entry:  # a referee's: looked past
            if t != kind:
                return None  # the seat's last decision: this one began after it
            if entry.get("to"):
                return int(entry["at"]) + moved
    return None


def clock_ran_out(item: BoardStateItem) -> bool:
    """The match's clock has run out while the board is in play (told or not)."""
    return bool(item.clock_ends_at) and item.status == "playing" and now_ms() >= item.clock_ends_at


def clock_due(item: BoardStateItem) -> bool:
    """The match's clock has run out and the board in play has not been told yet."""
    if not clock_ran_out(item) or item.time_up_told:
        return False
    kind = game(item.ruleset).time_up
    return bool(kind) and not any(entry["t"] == kind for entry in item.log)


def time_left(item: BoardStateItem) -> int:
    """The milliseconds left before the board's next timeout (``dl``; 0: none, or already due)."""
    return max(0, item.deadline - now_ms()) if item.deadline else 0
