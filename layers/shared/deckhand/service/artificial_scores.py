"""A referee's artificial score for one table's board of a duplicate event (docs/competition.md).

The table's result stays as played (``was``, like every adjustment); each seat is given a kind
(competition/artificial.py) that takes the table out of the board's comparison. Everything is
checked before the one write, so a refused request changes nothing.
"""

from __future__ import annotations

from typing import Any

from pynamodb.exceptions import DoesNotExist

from ..competition.artificial import Artificial
from ..engines.contract import Rejected
from .events import NotFound
from .keys import event_pk, player_sk, result_sk
from .models import PlayerItem, ResultItem
from .scoring import recompute_latest_standings


def give(event_id: str, action: dict[str, Any], by: str) -> None:
    """Mark the result of ``action``'s round, table and board with one kind a seat (null for an AI
    seat: it is never compared), who gave it and the scores played."""
    result = ended_result(event_id, action)
    kinds = _kinds(action.get("artificial"), result.players)
    for player in {p for p in result.players if p}:
        try:
            PlayerItem.get(event_pk(event_id), player_sk(player), attributes_to_get=["sk"])
        except DoesNotExist:
            raise Rejected("unknown_player", f"player {player!r} is not registered in this event") from None
    result.adjusted = {
        "artificial": [k.value if k else None for k in kinds],
        "reason": action["reason"],
        "by": by,
        "was": list(result.scores),  # the scores played: result.scores never changes
    }
    result.save()
    recompute_latest_standings(event_id)


def ended_result(event_id: str, action: dict[str, Any]) -> ResultItem:
    """The stored result the action names: a board that ended at that table (played, or ended by
    its clock or a referee); a board still in play has no result to adjust yet."""
    if not (action.get("round") and action.get("table") and action.get("board")):
        raise Rejected("adjustment_incomplete", "an adjustment names the round, table and board")
    key = result_sk(action["round"], action["table"], action["board"])
    try:
        return ResultItem.get(event_pk(event_id), key, consistent_read=True)
    except DoesNotExist:
        raise NotFound(
            f"no result for round {action['round']} table {action['table']} board {action['board']}"
            " (a board gets an artificial score once it has ended at the table)"
        ) from None


def _kinds(given: Any, players: list[str | None]) -> list[Artificial | None]:
    """One kind a seat, in seat order: known kinds for the players, null for the AI seats."""
    if not isinstance(given, list) or len(given) != len(players):
        raise Rejected("adjustment_seats", f"artificial must have {len(players)} entries, one a seat")
    kinds: list[Artificial | None] = []
    for seat, (kind, player) in enumerate(zip(given, players, strict=True)):
        if not player:
            if kind is not None:
                raise Rejected("adjustment_seats", f"seat {seat} is an AI seat: its entry is null")
            kinds.append(None)
            continue
        try:
            kinds.append(Artificial(kind))
        except ValueError:
            raise Rejected(
                "unknown_artificial",
                f"seat {seat}: unknown artificial score {kind!r}; use one of {', '.join(Artificial)}",
            ) from None
    return kinds
