"""A deterministic Junqi bot: it plays from its seat's view alone (what the umpire tells it), so the
same view always gets the same action.

Setup: the sound setup (the flag in a headquarters walled in by mines). Play: it follows every enemy
piece through the log and keeps the tokens it may still be — ruled out by where it stood at setup
(no flag off a headquarters, no mine off the last two rows, no bomb on the front row), by moving
(no mine, no flag; a turn on the railway: an engineer) and by every battle's outcome (only tokens
that give that outcome against the own piece that fought it). Each legal move is scored: an attack
by its expected gain over those tokens (the flag counts for a lot, shared among the pieces that may
be it), a quiet move by how much nearer it brings the piece to where the enemy flag may be. The best
score wins; ties go to the first move by code point.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import NamedTuple

from ..common.bot_style import style_of
from ..contract import Action
from .board import PLAY, SETUP, TIMEOUT, SeatView, move, set_up
from .geometry import FRONT_ROW, INDEX, MINE_ROWS, NAMES, NEIGHBOURS, OWN_HQ, RUNS, SETUP_SQUARES, row
from .moves import UNKNOWN, Cell, legal_moves
from .pieces import ATTACKER, BOMB, BOTH, COUNTS, DEFENDER, ENGINEER, FLAG, IMMOVABLE, MINE, TOKENS, battle
from .setup import sound_setup

VALUE = {
    "marshal": 10.0,
    "general": 8.0,
    "division": 6.0,
    "brigade": 4.5,
    "regiment": 3.5,
    "battalion": 2.5,
    "company": 2.0,
    "platoon": 1.5,
    ENGINEER: 2.5,
    MINE: 2.0,
    BOMB: 5.0,
    FLAG: 1000.0,
}


class Style(NamedTuple):
    flipped: bool  # the setup's flag in the right-hand headquarters
    advance: float  # a quiet move's worth per step nearer the enemy flag


STYLES = {"steady": Style(False, 0.3), "bold": Style(True, 0.5), "careful": Style(False, 0.15)}


def prior(sq: int, side: int) -> frozenset[str]:
    """What an enemy piece may be from where it stood at setup."""
    out = set(TOKENS)
    if sq not in OWN_HQ[side]:
        out.discard(FLAG)
    if row(sq) not in MINE_ROWS[side]:
        out.discard(MINE)
    if row(sq) == FRONT_ROW[side]:
        out.discard(BOMB)
    return frozenset(out)


def turned(frm: int, to: int) -> bool:
    """A move neither one step nor straight along a line: only an engineer's railway path turns."""
    return to not in NEIGHBOURS[frm] and not any(to in run for run in RUNS[frm])


def knowledge(view: SeatView) -> tuple[dict[int, str], dict[int, frozenset[str]]]:
    """The seat's pieces and, for each enemy piece by square, the tokens it may still be (replayed
    from the setup through the log: each ply's squares and outcome are all the umpire tells)."""
    me, them = view.seat, 1 - view.seat
    own = {INDEX[sq]: token for sq, token in view.setup}
    enemy = {sq: prior(sq, them) for sq in SETUP_SQUARES[them]}
    mover = 0
    for entry in view.log:
        if entry != TIMEOUT:
            text, _, outcome = entry.partition(":")
            frm, to = (INDEX[s] for s in text.split("-"))
            if mover == me:
                piece = own.pop(frm)
                if not outcome or outcome == ATTACKER:
                    own[to] = piece
                if outcome:
                    seen = enemy.pop(to)
                    if outcome == DEFENDER:
                        enemy[to] = frozenset(x for x in seen if battle(piece, x) == outcome) or seen
            else:
                seen = enemy.pop(frm) - IMMOVABLE
                if turned(frm, to):
                    seen &= {ENGINEER}
                if outcome:
                    mine = own.pop(to)
                    seen = frozenset(x for x in seen if battle(x, mine) == outcome) or seen
                    if outcome == DEFENDER:
                        own[to] = mine
                if not outcome or outcome == ATTACKER:
                    enemy[to] = frozenset(seen) or prior(to, them)
        mover = 1 - mover
    return own, enemy


def flag_odds(enemy: dict[int, frozenset[str]], shown: str | None) -> dict[int, float]:
    """The chance each enemy piece is the flag: a shown flag is certain, else shared evenly."""
    if shown is not None:
        return {INDEX[shown]: 1.0}
    maybe = [sq for sq, tokens in enemy.items() if FLAG in tokens]
    return {sq: 1.0 / len(maybe) for sq in maybe}


def expected_gain(piece: str, tokens: Iterable[str], flag: float) -> float:
    """An attack's expected material, over what the defender may be (by the counts a side owns)."""
    rest = [t for t in tokens if t != FLAG]
    total = sum(COUNTS[t] for t in rest)
    gain = flag * VALUE[FLAG]
    for t in rest:
        outcome = battle(piece, t)
        worth = (
            VALUE[t] if outcome == ATTACKER else -VALUE[piece] if outcome != BOTH else VALUE[t] - VALUE[piece]
        )
        gain += (1.0 - flag) * COUNTS[t] / total * worth
    return gain


def distances(targets: Iterable[int]) -> list[int]:
    """Steps from every square to the nearest target along the board's links."""
    far = [99] * len(NAMES)
    queue = deque(targets)
    for sq in queue:
        far[sq] = 0
    while queue:
        sq = queue.popleft()
        for n in NEIGHBOURS[sq]:
            if far[n] > far[sq] + 1:
                far[n] = far[sq] + 1
                queue.append(n)
    return far


class JunqiBot:
    def __init__(self, style: str = "steady") -> None:
        self.style_name = style
        self.style = style_of(STYLES, style)

    def decide(self, view: SeatView) -> Action | None:
        """The action for ``view.seat`` now, or None when the game is not waiting for it."""
        seat = view.seat
        if view.phase == SETUP:
            return None if view.ready[seat] else set_up(seat, sound_setup(seat, self.style.flipped))
        if view.phase != PLAY or view.turn != seat:
            return None
        own, enemy = knowledge(view)
        cells: list[Cell] = [None] * len(NAMES)
        for sq, token in own.items():
            cells[sq] = (seat, token)
        for sq in enemy:
            cells[sq] = (1 - seat, UNKNOWN)
        odds = flag_odds(enemy, view.flag_shown[1 - seat])
        far = distances(odds or enemy)
        best: tuple[float, str] | None = None
        for frm, to in legal_moves(cells, seat):
            piece = own[frm]
            if to in enemy:
                score = expected_gain(piece, enemy[to], odds.get(to, 0.0))
            else:
                score = self.style.advance * (far[frm] - far[to])
            text = f"{NAMES[frm]}-{NAMES[to]}"
            if best is None or score > best[0] or (score == best[0] and text < best[1]):
                best = (score, text)
        if best is None:
            return None
        frm_name, to_name = best[1].split("-")
        return move(seat, frm_name, to_name)
