"""A side's setup (RULES.md §6.3 Setup): the check with its reason codes in D9's order, the seeded
random legal setup a timed-out seat gets, the sound setups the bot plays, and a player's saved setup
turned to the side it plays now."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ...errors import DeckhandError
from .geometry import (
    CAMPS,
    FRONT_ROW,
    HALVES,
    INDEX,
    MINE_ROWS,
    NAMES,
    OWN_HQ,
    SETUP_SQUARES,
    SQUARE_NAME,
    mirror,
    row,
)
from .pieces import BOMB, COUNTS, FLAG, MINE

REASONS = ("square", "count", "camp", "flag_hq", "mine_row", "bomb_front")
Placement = dict[str, str]  # square → token, as a setup action's data and the calculator carry it


def reason(side: int, placement: Any) -> str | None:
    """The first rule ``placement`` breaks for ``side``, in D9's order; None when it is a legal setup."""
    if not isinstance(placement, dict):
        return "square"
    squares = []
    for key in placement:
        if not isinstance(key, str) or not SQUARE_NAME.fullmatch(key) or INDEX[key] not in HALVES[side]:
            return "square"
        squares.append(INDEX[key])
    tokens = list(placement.values())
    if not all(isinstance(t, str) and t in COUNTS for t in tokens) or Counter(tokens) != Counter(COUNTS):
        return "count"
    if any(sq in CAMPS for sq in squares):
        return "camp"
    where = {t: [sq for sq in squares if placement[NAMES[sq]] == t] for t in (FLAG, MINE, BOMB)}
    if where[FLAG][0] not in OWN_HQ[side]:
        return "flag_hq"
    if any(row(sq) not in MINE_ROWS[side] for sq in where[MINE]):
        return "mine_row"
    if any(row(sq) == FRONT_ROW[side] for sq in where[BOMB]):
        return "bomb_front"
    return None


def random_setup(seed: str, side: int) -> Placement:
    """A legal setup drawn from ``seed`` (the same seed, the same setup): the flag on an HQ, the mines
    on the last two rows, the bombs off the front row, the rest anywhere left."""
    rng = random.Random(f"junqi-setup/{seed}/{side}")
    free = sorted(SETUP_SQUARES[side])
    placed: dict[int, str] = {}

    def put(token: str, choices: list[int]) -> None:
        sq = rng.choice([c for c in choices if c not in placed])
        placed[sq] = token

    put(FLAG, sorted(OWN_HQ[side]))
    for _ in range(COUNTS[MINE]):
        put(MINE, [sq for sq in free if row(sq) in MINE_ROWS[side]])
    for _ in range(COUNTS[BOMB]):
        put(BOMB, [sq for sq in free if row(sq) != FRONT_ROW[side]])
    rest = [t for t, n in COUNTS.items() if t not in (FLAG, MINE, BOMB) for _ in range(n)]
    rng.shuffle(rest)
    for sq, token in zip([sq for sq in free if sq not in placed], rest, strict=True):
        placed[sq] = token
    return {NAMES[sq]: placed[sq] for sq in sorted(placed)}


# Red's sound setup (Blue's is its mirror): the flag in b1 walled in by mines on all three of its
# links (only an engineer gets through), bombs and the strong pieces behind a front row of middling ones.
_SOUND_RED = {
    "b1": FLAG, "a1": MINE, "c1": MINE, "b2": MINE, "d1": "platoon", "e1": "platoon",
    "a2": "company", "c2": "engineer", "d2": "battalion", "e2": "company",
    "a3": "division", "c3": "marshal", "e3": "brigade",
    "a4": "engineer", "b4": BOMB, "d4": BOMB, "e4": "regiment",
    "a5": "battalion", "c5": "general", "e5": "division",
    "a6": "regiment", "b6": "company", "c6": "engineer", "d6": "platoon", "e6": "brigade",
}  # fmt: skip


def sound_setup(side: int, flipped: bool = False) -> Placement:
    """The bot's setup for ``side``; ``flipped``: mirrored left to right (the flag in d1 / d12)."""
    out = {}
    for key, token in _SOUND_RED.items():
        sq = INDEX[key]
        if flipped:
            sq = sq - sq % 5 + 4 - sq % 5
        out[NAMES[mirror(sq) if side else sq]] = token
    return dict(sorted(out.items()))


def for_side(placement: Any, side: int) -> Placement:
    """A saved setup (accepted for either side) as ``side`` plays it: mirrored row r → 13 − r when it
    was saved on the other half. Anything that is not a legal setup of either side is an error."""
    if not isinstance(placement, dict) or not all(
        isinstance(k, str) and SQUARE_NAME.fullmatch(k) for k in placement
    ):
        raise DeckhandError(f"a saved junqi setup is {{square: piece}}, got {placement!r}")
    if reason(side, placement) is None:
        return dict(sorted(placement.items()))
    turned = {NAMES[mirror(INDEX[key])]: token for key, token in placement.items()}
    if reason(side, turned) is not None:
        raise DeckhandError(f"the saved junqi setup is not a legal setup of either side: {placement!r}")
    return dict(sorted(turned.items()))
