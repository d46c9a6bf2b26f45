"""Swiss movement (RULES.md §1.4, seed 001 appendix 3): groups, tables and seats for a round.

Round 1 is random but reproducible from a recorded seed; later rounds follow the standings: places
1…kN to group 1 and so on, snake seating inside each group. A field that is not a multiple of k is
completed with AI seats (``None``), spread over the lowest tables of the field.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..engines.common.shuffle import seeded_shuffle
from ..engines.registry import TABLE_SIZES
from ..errors import DeckhandError


class Table(NamedTuple):
    group: int
    table: int  # numbered from 1 within its group
    seats: tuple[str | None, ...]  # player per seat 0..k-1; None is an AI seat


def _check_field(players: Sequence[str], seats_per_table: int, groups: int) -> int:
    if seats_per_table not in TABLE_SIZES:  # a field is seated for the tables of some game
        sizes = " or ".join(map(str, sorted(TABLE_SIZES)))
        raise DeckhandError(f"seats_per_table must be {sizes}, got {seats_per_table!r}")
    if not isinstance(groups, int) or isinstance(groups, bool) or groups < 1:
        raise DeckhandError(f"groups must be a whole number ≥ 1, got {groups!r}")
    if not players:
        raise DeckhandError("the field has no players")
    seen: set[str] = set()
    for p in players:
        if not isinstance(p, str) or not p:
            raise DeckhandError(f"player ids must be non-empty strings, got {p!r}")
        if p in seen:
            raise DeckhandError(f"player {p!r} appears twice in the field")
        seen.add(p)
    tables = -(-len(players) // seats_per_table)
    if tables < groups:
        raise DeckhandError(f"{len(players)} players make {tables} tables, too few for {groups} groups")
    return tables


def _layout(tables: int, groups: int) -> list[int]:
    """Tables per group: as equal as possible, the larger groups first."""
    base, extra = divmod(tables, groups)
    return [base + (1 if g < extra else 0) for g in range(groups)]


def seat_field(order: Sequence[str], seats_per_table: int, groups: int, *, snake: bool) -> list[Table]:
    """Seat players in ``order`` (best first): fill groups in turn, tables in order, snake when asked."""
    k = seats_per_table
    tables_total = _check_field(order, k, groups)
    ai_seats = tables_total * k - len(order)
    # AI seats go to the lowest tables of the field, spread one per table (round again if there are
    # more AI seats than tables), in the seats the lowest places at that table would take.
    ai_at = [0] * tables_total
    for i in range(ai_seats):
        ai_at[tables_total - 1 - i % tables_total] += 1
    out: list[Table] = []
    position = 0
    table_index = 0
    for g, n_tables in enumerate(_layout(tables_total, groups), start=1):
        for t in range(1, n_tables + 1):
            humans = k - ai_at[table_index]
            seated: list[str | None] = list(order[position : position + humans])
            position += humans
            seated.extend([None] * ai_at[table_index])
            if snake and t % 2 == 0:
                seated.reverse()
            out.append(Table(g, t, tuple(seated)))
            table_index += 1
    assert position == len(order)
    return out


def first_round(players: Sequence[str], seats_per_table: int, groups: int, seed: str) -> list[Table]:
    """Random groups, tables and seats, reproducible from ``seed`` (record it with the round)."""
    _check_field(players, seats_per_table, groups)
    order = [players[i] for i in seeded_shuffle(list(range(len(players))), seed)]
    return seat_field(order, seats_per_table, groups, snake=False)


def next_round(standings: Sequence[str], seats_per_table: int, groups: int) -> list[Table]:
    """Seating by current standing (best first): groups by place, snake seating in each group."""
    return seat_field(standings, seats_per_table, groups, snake=True)
