"""A board game's record (docs/export.md, "Game records"): its actions replayed through the engine from
the carry the game started from, each move written in the game's notations, a picture of the board
after every action (the results site's replay) and the result the replay reaches.

A record that does not replay (an action the engine refuses, a game that does not end where the record
does) raises ``RecordError``: ``deckhand verify`` reports it as a record that does not check.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...errors import DeckhandError
from ..contract import Action, Board, Rejected

# A picture of the board: rows top first, each cell None (no point there), "" (an empty point) or the
# side's seat digit and a label ("0车", "1●12"); ``marks`` the [row, column] cells of the last move.
Picture = dict[str, Any]
Describe = Callable[[Board, Action], dict[str, Any]]  # a move before it is made → its notations
After = Callable[[Board, Action, dict[str, Any]], dict[str, Any]]  # once made, with what was noted before
Draw = Callable[[Board, Action | None], Picture]  # the board after an action (None: the start)
Step = Mapping[str, Any]  # a play record's entry: {"s": seat, "t": kind, "d": data, "to": true}


class RecordError(DeckhandError):
    """A record the engine does not replay to its end."""


def action_of(step: Step) -> Action:
    """The engine's action of a play record's entry."""
    return Action(
        int(step["s"]), str(step["t"]), (), int(step.get("v") or 0), bool(step.get("to")), step.get("d")
    )


def replay_record(board: Board, steps: Sequence[Step], describe: Describe, draw: Draw,
                  after: After | None = None) -> dict[str, Any]:  # fmt: skip
    """``moves`` (each action numbered, its seat and kind, a timed-out one marked, a move's notations:
    ``describe``'s before it is made, ``after``'s once made), ``frames`` (the start's picture, then one
    after each action) and ``result`` (the winning seat or None, why, each seat's points) of the game
    ``steps`` play on ``board``."""
    moves: list[dict[str, Any]] = []
    frames = [draw(board, None)]
    for n, step in enumerate(steps, 1):
        action = action_of(step)
        entry: dict[str, Any] = {"n": n, "seat": action.seat, "kind": action.kind}
        if action.timeout:
            entry["timeout"] = True
        try:
            entry.update(describe(board, action))
            board.apply(action)
            if after is not None:
                entry.update(after(board, action, entry))
        except Rejected as exc:
            raise RecordError(f"action {n} ({action.kind} of seat {action.seat}) is refused: {exc}") from None
        moves.append(entry)
        frames.append(draw(board, action))
    if not board.finished:
        raise RecordError(f"the game has not ended after the record's {len(steps)} actions")
    result = board.result()
    points = [float(p) for p in result["points"]]
    winner = None if points[0] == points[1] else 0 if points[0] > points[1] else 1
    return {
        "moves": moves,
        "frames": frames,
        "result": {"winner": winner, "why": result["why"], "points": points},
    }


def no_notation(board: Board, action: Action) -> dict[str, Any]:
    """A word (resign, offer, a clock's warning): nothing more than its kind."""
    return {}


def picture(rows: Sequence[Sequence[str | None]], marks: Sequence[tuple[int, int]] = ()) -> Picture:
    """A picture of ``rows`` with ``marks`` marked."""
    return {"rows": [list(r) for r in rows], "marks": [list(m) for m in marks]}
