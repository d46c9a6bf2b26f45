"""A referee's artificial score for one table's board of a duplicate event (docs/competition.md).

The table's result stays as played (``was``, like every adjustment); each seat is given a kind
(competition/artificial.py) that takes the table out of the board's comparison. A board the table
could not play (never begun, or stuck) is ended unplayed first (service/refereeing/unplayed_boards.py). Everything
is checked before the first write, so a refused request changes nothing.
"""

from __future__ import annotations

from typing import Any

from pynamodb.exceptions import DoesNotExist

from ...competition.artificial import Artificial
from ...engines.contract import Rejected
from ..boards.log import ended_unplayed
from ..duplicate import scoring
from ..duplicate.scoring import recompute_latest_standings
from ..infra.runtime import Runtime
from ..storage.keys import event_pk, player_sk, result_sk
from ..storage.models import PlayerItem, ResultItem
from . import unplayed_boards


def give(rt: Runtime, event_id: str, action: dict[str, Any], by: str) -> None:
    """Mark the result of ``action``'s round, table and board with one kind a seat (null for an AI
    seat: it is never compared), who gave it and the scores played. A board the table has not ended
    is ended unplayed first (service/refereeing/unplayed_boards.py), its result written with the kinds."""
    if not (action.get("round") and action.get("table") and action.get("board")):
        raise Rejected("adjustment_incomplete", "an adjustment names the round, table and board")
    where = (event_id, int(action["round"]), str(action["table"]), str(action["board"]))
    result = _stored(*where)
    if result is None:
        item = unplayed_boards.board_to_end(*where)
        adjusted = _adjusted(event_id, action, by, item.players, [0] * len(item.players))
        if item.status != "ended" or ended_unplayed(item):  # (ended unplayed: a retry finishes it)
            item = unplayed_boards.end_unplayed(rt, item, by, adjusted)
            if ended_unplayed(item):
                recompute_latest_standings(event_id, adjusted=(item.round, item.group, item.board))
                return
        scoring.record_result(rt, *where)  # played to its end: scored as played, then marked
        result = _stored(*where)
        assert result is not None, "an ended board's result is stored by then"
    result.adjusted = _adjusted(event_id, action, by, result.players, list(result.scores))
    result.save()
    recompute_latest_standings(event_id, adjusted=(int(result.round), result.group, result.board))


def _adjusted(
    event_id: str, action: dict[str, Any], by: str, players: list[str | None], played: list[int]
) -> dict[str, Any]:
    """The adjustment a result is marked with, checked: one known kind a seat, every player registered;
    ``was``: the scores played (result.scores never changes)."""
    kinds = _kinds(action.get("artificial"), players)
    for player in {p for p in players if p}:
        try:
            PlayerItem.get(event_pk(event_id), player_sk(player), attributes_to_get=["sk"])
        except DoesNotExist:
            raise Rejected("unknown_player", f"player {player!r} is not registered in this event") from None
    return {
        "artificial": [k.value if k else None for k in kinds],
        "reason": action["reason"],
        "by": by,
        "was": played,
    }


def _stored(event_id: str, round_no: int, table: str, board: str) -> ResultItem | None:
    """The stored result of a board that ended at that table (played, ended by its clock, or ended
    unplayed by a referee), if any."""
    try:
        return ResultItem.get(event_pk(event_id), result_sk(round_no, table, board), consistent_read=True)
    except DoesNotExist:
        return None


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
