"""Round robin (RULES.md §4.3 Round robin; 002 §26): Berger tables, legs, groups by snake.

Berger tables: with n teams (a rest added when n is odd), team n stays at table 1 and the others
turn round the circle n/2 places a round, so ``1 v n, 2 v n−1 …`` opens and every two meet once
per leg. Even legs repeat the first with the sides swapped (double round robin: legs = 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import TypeVar

from .errors import MatchPlayError

T = TypeVar("T")

Game = tuple[T | None, T | None]  # None: the rest of an odd group


def berger(teams: Sequence[T]) -> list[list[Game[T]]]:
    """One leg: n−1 rounds (n rounded up to even), tables in Berger order."""
    if len(teams) < 2:
        raise MatchPlayError("teams", "a round robin needs at least two teams")
    slots: list[T | None] = list(teams)
    if len(slots) % 2:
        slots.append(None)
    n = len(slots)
    circle = n - 1
    last = slots[-1]
    rounds: list[list[Game[T]]] = []
    start = 0
    for r in range(circle):
        seq = [slots[(start + k) % circle] for k in range(circle)]
        first: Game[T] = (seq[0], last) if r % 2 == 0 else (last, seq[0])
        games: list[Game[T]] = [first]
        games.extend((seq[k], seq[circle - k]) for k in range(1, n // 2))
        rounds.append(games)
        start = (start + n // 2) % circle
    return rounds


def schedule(teams: Sequence[T], legs: int = 1) -> list[list[Game[T]]]:
    """``legs`` legs of Berger rounds; every two teams meet exactly ``legs`` times."""
    if legs < 1:
        raise MatchPlayError("legs", f"must be at least 1, got {legs}")
    leg = berger(teams)
    out: list[list[Game[T]]] = []
    for k in range(legs):
        out.extend(leg if k % 2 == 0 else [[(b, a) for a, b in rnd] for rnd in leg])
    return out


class GroupSeeding(Enum):
    """Groups are seeded by strength or by earlier results (002 §26.一)."""

    STRENGTH = "strength"
    RESULTS = "results"


def snake_groups(order: Sequence[T], groups: int) -> list[list[T]]:
    """Deal ``order`` (best first) into groups by snake: 1→A, 2→B, 3→C, 4→C, 5→B, 6→A …

    The caller chooses the order: seeds (GroupSeeding.STRENGTH) or standings (RESULTS).
    """
    if groups < 1 or groups > len(order):
        raise MatchPlayError("groups", f"need 1…{len(order)} groups, got {groups}")
    out: list[list[T]] = [[] for _ in range(groups)]
    for i, team in enumerate(order):
        lap, pos = divmod(i, groups)
        out[pos if lap % 2 == 0 else groups - 1 - pos].append(team)
    return out
