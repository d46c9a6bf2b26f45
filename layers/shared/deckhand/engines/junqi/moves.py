"""Where a Junqi piece may go (RULES.md §6.3 Moves), what an attack does, and how a game ends (D7).

A position is a list of 60 cells, each None or ``(side, token)``. Legality depends only on who
stands where and on the mover's own pieces (an enemy piece may be unknown, ``"?"``): so the umpire's
full board and a seat's view give the seat the same moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .geometry import CAMPS, HEADQUARTERS, NAMES, NEIGHBOURS, RAIL_NEIGHBOURS, RUNS, STATIONS
from .pieces import ATTACKER, DEFENDER, ENGINEER, FLAG, IMMOVABLE, MARSHAL, battle

Cell = tuple[int, str] | None
UNKNOWN = "?"  # an enemy piece as a seat sees it
QUIET_LIMIT = 70  # plies without a capture that draw the game
FLAG_WHY, NO_MOVES, QUIET70 = "flag", "no_moves", "quiet70"
DRAW = -1  # no winner


def destinations(cells: Sequence[Cell], sq: int) -> set[int]:
    """The squares the piece on ``sq`` may move to (empty, or an enemy outside a camp)."""
    cell = cells[sq]
    assert cell is not None
    side, piece = cell
    if piece in IMMOVABLE or sq in HEADQUARTERS:
        return set()

    def open_to(t: int) -> bool:
        c = cells[t]
        return c is None or (c[0] != side and t not in CAMPS)

    out = {t for t in NEIGHBOURS[sq] if open_to(t)}
    if sq not in STATIONS:
        return out
    if piece == ENGINEER:  # any railway path through empty stations, ending anywhere on it or on an enemy
        seen, frontier = {sq}, [sq]
        while frontier:
            s = frontier.pop()
            for t in RAIL_NEIGHBOURS[s]:
                c = cells[t]
                if c is None:
                    if t not in seen:
                        seen.add(t)
                        out.add(t)
                        frontier.append(t)
                elif c[0] != side:
                    out.add(t)  # (stations are never camps)
        return out
    for run in RUNS[sq]:  # straight along one line, up to the first piece
        for t in run:
            c = cells[t]
            if c is None:
                out.add(t)
                continue
            if c[0] != side:
                out.add(t)
            break
    return out


def legal_moves(cells: Sequence[Cell], side: int) -> list[tuple[int, int]]:
    return [
        (sq, t)
        for sq, c in enumerate(cells)
        if c is not None and c[0] == side
        for t in destinations(cells, sq)
    ]


def has_move(cells: Sequence[Cell], side: int) -> bool:
    return any(c is not None and c[0] == side and destinations(cells, sq) for sq, c in enumerate(cells))


def move_text(move: tuple[int, int]) -> str:
    return f"{NAMES[move[0]]}-{NAMES[move[1]]}"


def sorted_texts(moves: list[tuple[int, int]]) -> list[str]:
    """Moves as ``from-to``, sorted by code point (D11: ``a10-…`` before ``a2-…``)."""
    return sorted(map(move_text, moves))


class Played(NamedTuple):
    """A move made on the umpire's board: the battle's outcome (None: no attack) and what was attacked."""

    outcome: str | None
    defender: str | None


def play(cells: list[Cell], frm: int, to: int) -> Played:
    """Make a legal move on a full board (every piece known); the battle settles any attack."""
    mover, target = cells[frm], cells[to]
    assert mover is not None
    cells[frm] = None
    if target is None:
        cells[to] = mover
        return Played(None, None)
    outcome = battle(mover[1], target[1])
    cells[to] = mover if outcome == ATTACKER else target if outcome == DEFENDER else None
    return Played(outcome, target[1])


class Ending(NamedTuple):
    winner: int  # a side, or DRAW
    why: str


def ending(cells: Sequence[Cell], mover: int, played: Played, quiet: int) -> Ending | None:
    """D7, after ``mover``'s move: its flag taken, then the opponent stuck (both stuck: a draw), then
    ``quiet`` (after the move) reaching 70; None while the game goes on. The mover is not tested."""
    if played.defender == FLAG and played.outcome == ATTACKER:
        return Ending(mover, FLAG_WHY)
    if not has_move(cells, 1 - mover):
        return Ending(mover if has_move(cells, mover) else DRAW, NO_MOVES)
    if quiet >= QUIET_LIMIT:
        return Ending(DRAW, QUIET70)
    return None


def has_marshal(cells: Sequence[Cell], side: int) -> bool:
    return (side, MARSHAL) in cells


def flag_square(cells: Sequence[Cell], side: int) -> int | None:
    return next((sq for sq, c in enumerate(cells) if c == (side, FLAG)), None)
