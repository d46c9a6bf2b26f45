"""Referee penalties in a match (RULES.md §4 "Penalties"): applied to the board the player's table is
playing, by the engine's rules, logged on the board and in the event's audit.

A warning and a violation are recorded against the side (a violation also passes the player's next
turn); a foul loses the board (scored as 双下 for the opponents, no tribute next board); a game
forfeit ends the game 2:0 and 18:0 (or the real margin); a disqualification does the same and the
pair is paired no more.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ...engines.contract import Action, Rejected
from ...engines.registry import game
from ..boards import progress as board_progress
from ..boards import store as board_store
from ..boards import table as tableboard
from ..boards.round_boards import list_matches
from ..boards.store import Unchanged
from ..infra.runtime import Runtime
from ..organiser.events import Conflict, event_id_of
from ..storage.keys import event_pk, team_sk
from ..storage.models import BoardStateItem, EventItem, TeamItem

KINDS = ("warning", "violation", "foul", "forfeit", "disqualify")


def penalise(
    rt: Runtime, event: EventItem, kind: str, player: str, by: str, penalty: str | None
) -> dict[str, Any]:
    """Apply ``kind`` to ``player``'s seat at the board in play; where and when it was applied, and
    the penalty's id (``pid``).

    ``penalty`` identifies the request (from its Idempotency-Key): a retry of a penalty already applied
    changes no board again and completes what the first attempt may have left undone. Without a key
    (None) the penalty is identified by what it is and where play stands: the same referee giving
    the same penalty to the same player on the same board before any further move there is a retry
    (one change of state, one audit entry); after a move it is a new penalty."""
    event_id = event_id_of(event)
    if event.status != "playing":
        raise Conflict(
            f"no round is in play (the event is {event.status}): a penalty applies to a board in play"
        )
    round_no = event.current_round
    match = next((m for m in list_matches(event_id, round_no) if m.table and player in m.players), None)
    if match is None:
        raise Rejected("unknown_player", f"player {player!r} plays no match in round {round_no}")
    seat = match.players.index(player)
    if penalty is None:
        penalty = _content_id(event_id, round_no, match.table, match.boards[-1], kind, player, by)
    done = _applied(event_id, round_no, match.table, match.boards, penalty)
    if done is not None:
        board, at = done
    else:
        if match.status != "playing":
            raise Rejected("match_over", f"the match of {player!r} at table {match.table} has ended")
        board = match.boards[-1]

        def change(item: BoardStateItem) -> None | Unchanged[None]:
            if item.status != "playing":
                raise Rejected(
                    "board_not_in_play", f"board {item.board} at table {item.table} is {item.status}"
                )
            tableboard.apply_referee(item, Action(seat, kind), by, penalty)
            return None

        item, _ = board_store.transact((event_id, round_no, match.table, board), change)
        at = next(e["at"] for e in reversed(item.log) if e.get("pid") == penalty)
    if kind == "disqualify":
        # Before the round can end (after_change scores the board): the next round's pairing, stored
        # when the round ends, must already leave the pair out (RULES.md §4.3).
        side = next(i for i, seats in enumerate(game(event.ruleset).sides) if seat in seats)
        pair = match.pairs[side]
        TeamItem(event_pk(event_id), team_sk(pair)).update(actions=[TeamItem.active.set(False)])
    # A retry re-drives what follows the change (views, scoring, the next board): each step is
    # idempotent, and the first attempt may have stopped before it.
    current = board_store.load(event_id, round_no, match.table, board)
    if current is not None:
        board_progress.after_change(rt, current)
    return {"round": round_no, "table": match.table, "board": board, "seat": seat, "at": at, "pid": penalty}


def _content_id(event_id: str, round_no: int, table: str, board: str, kind: str, player: str, by: str) -> str:
    """A key-less penalty's id: what it is, and the board's moves so far (log entries no referee gave)."""
    item = board_store.load(event_id, round_no, table, board)
    moves = 0 if item is None else sum(1 for e in item.log if not e.get("by"))
    text = f"{by}/{kind}/{player}/{round_no}/{table}/{board}/{moves}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _applied(
    event_id: str, round_no: int, table: str, boards: list[str], penalty: str
) -> tuple[str, int] | None:
    """(board, time) of the penalty ``penalty`` if a board of the match logs it already."""
    items = board_store.load_many(event_id, round_no, [(table, b) for b in boards], consistent=True)
    for (_, board), item in items.items():
        for entry in item.log:
            if entry.get("pid") == penalty:
                return board, int(entry["at"])
    return None
