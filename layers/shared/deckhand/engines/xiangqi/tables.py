"""The board's geometry, computed once: every piece's steps from every point, with the point that can
block it (a horse's leg, an elephant's eye), the sliding rays, and the reverse tables the check test
reads from the general outwards. Move generation then does no bounds arithmetic at all.

Points are numbered ``rank * 9 + file``: file 0..8 = ICCS a..i from Red's left, rank 0..9 from Red's
side (``a0`` = 0, ``i9`` = 89).
"""

from __future__ import annotations

import random

FILES, RANKS, POINTS = 9, 10, 90
KING, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER = range(1, 8)  # Red +n, Black -n, empty 0
RED, BLACK = 1, -1  # the side's sign; a side's index in pairs is 0 for Red, 1 for Black

Step = tuple[int, int]  # (to, the point that blocks the step, or -1)


def point(file: int, rank: int) -> int:
    return rank * FILES + file


def _on(file: int, rank: int) -> bool:
    return 0 <= file < FILES and 0 <= rank < RANKS


def _palace(file: int, rank: int) -> int | None:
    """Which palace (0 Red, 1 Black) the point is in, or None."""
    if 3 <= file <= 5 and 0 <= rank < RANKS:
        if rank <= 2:
            return 0
        if rank >= 7:
            return 1
    return None


def _steps(rule: object) -> tuple[tuple[Step, ...], ...]:
    out = []
    for sq in range(POINTS):
        f, r = sq % FILES, sq // FILES
        out.append(tuple(rule(f, r)))  # type: ignore[operator]
    return tuple(out)


def _king(f: int, r: int) -> list[Step]:
    home = _palace(f, r)
    steps = [(f + df, r + dr) for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    return [(point(a, b), -1) for a, b in steps if home is not None and _palace(a, b) == home]


def _advisor(f: int, r: int) -> list[Step]:
    home = _palace(f, r)
    steps = [(f + df, r + dr) for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1))]
    return [(point(a, b), -1) for a, b in steps if home is not None and _palace(a, b) == home]


def _elephant(f: int, r: int) -> list[Step]:
    half = r >= 5  # never across the river: the elephant stays on the half it stands on
    out = []
    for df, dr in ((2, 2), (2, -2), (-2, 2), (-2, -2)):
        a, b = f + df, r + dr
        if _on(a, b) and (b >= 5) == half:
            out.append((point(a, b), point(f + df // 2, r + dr // 2)))  # the eye
    return out


def _horse(f: int, r: int) -> list[Step]:
    out = []
    for lf, lr in ((1, 0), (-1, 0), (0, 1), (0, -1)):  # the leg, then one diagonal step outward
        ends = (
            ((f + 2 * lf, r + 1), (f + 2 * lf, r - 1)) if lf else ((f + 1, r + 2 * lr), (f - 1, r + 2 * lr))
        )
        out += [(point(a, b), point(f + lf, r + lr)) for a, b in ends if _on(a, b)]
    return out


def _soldier(sign: int) -> tuple[tuple[Step, ...], ...]:
    def rule(f: int, r: int) -> list[Step]:
        out = [(f, r + sign)]
        if (r >= 5) if sign == RED else (r <= 4):  # across the river: sideways too
            out += [(f - 1, r), (f + 1, r)]
        return [(point(a, b), -1) for a, b in out if _on(a, b)]

    return _steps(rule)


def _ray(sq: int, df: int, dr: int) -> tuple[int, ...]:
    f, r, out = sq % FILES, sq // FILES, []
    while _on(f + df, r + dr):
        f, r = f + df, r + dr
        out.append(point(f, r))
    return tuple(out)


KING_STEPS = _steps(_king)
ADVISOR_STEPS = _steps(_advisor)
ELEPHANT_STEPS = _steps(_elephant)
HORSE_STEPS = _steps(_horse)
SOLDIER_STEPS = (_soldier(RED), _soldier(BLACK))  # by side index
RAYS = tuple(tuple(_ray(sq, df, dr) for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))) for sq in range(POINTS))

# Reverse tables for the check test: the horses that reach a point (horse's point, its leg), and the
# points from which a side's soldier attacks a point.
HORSE_ATTACKS: tuple[tuple[Step, ...], ...] = tuple(
    tuple((h, leg) for h in range(POINTS) for to, leg in HORSE_STEPS[h] if to == sq) for sq in range(POINTS)
)
SOLDIER_ATTACKS = tuple(
    tuple(
        tuple(s for s in range(POINTS) for to, _ in SOLDIER_STEPS[side][s] if to == sq)
        for sq in range(POINTS)
    )
    for side in (0, 1)
)

# Zobrist keys: a position's 64-bit hash, updated move by move (repetition counts, the bot's tables).
_rng = random.Random(20040)  # fixed: the same position hashes the same in every process
ZOBRIST = tuple(tuple(_rng.getrandbits(64) for _ in range(POINTS)) for _ in range(15))  # piece + 7
BLACK_TO_MOVE = _rng.getrandbits(64)
