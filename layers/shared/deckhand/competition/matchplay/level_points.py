"""Level points: the 26-point level-difference table (RULES.md §4.1) and the level difference 级差分 (§5).

A side's level is 2…14 (A) or 15 (past A, "A+"): fourteen levels, so a level difference d is 0…13.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .errors import ExtraBoardNeeded, MatchPlayError

LOWEST_LEVEL = 2
PAST_A = 15  # "A+": a side that passed A
MAX_DIFFERENCE = PAST_A - LOWEST_LEVEL  # 13
FORFEIT_POINTS = (18, 0)  # RULES.md §4.3 Forfeit (002 §15)

_LEVEL_NAMES = {"J": 11, "Q": 12, "K": 13, "A": 14, "A+": PAST_A, "T": 10}


def parse_level(value: int | str, field: str = "level") -> int:
    """A level as 2…15 from ``2``…``10``, ``"T"``, ``"J"``…``"A"`` or ``"A+"``."""
    if isinstance(value, bool):
        raise MatchPlayError(field, f"expected a level 2…A or A+, got {value!r}")
    if isinstance(value, str):
        text = value.strip().upper()
        if text in _LEVEL_NAMES:
            return _LEVEL_NAMES[text]
        if not text.isdigit():
            raise MatchPlayError(field, f"expected a level 2…A or A+, got {value!r}")
        value = int(text)
    if not LOWEST_LEVEL <= value <= PAST_A:
        raise MatchPlayError(field, f"expected a level 2…A or A+, got {value!r}")
    return value


@dataclass(frozen=True)
class LevelPointsTable:
    """Winner's and loser's level points by level difference d = 0…13, and the forfeit score.

    ⚖ RULES.md §4.1: the official table is unknown; the default gives 13+d : 13−d (a draw 13:13).
    The table is an event setting, so an organiser can load the official one.
    """

    winner: tuple[int, ...]
    loser: tuple[int, ...]
    forfeit: tuple[int, int] = FORFEIT_POINTS

    def __post_init__(self) -> None:
        size = MAX_DIFFERENCE + 1
        for name, row in (("winner", self.winner), ("loser", self.loser)):
            if len(row) != size:
                raise MatchPlayError(
                    f"level_table.{name}", f"needs {size} entries (d = 0…13), got {len(row)}"
                )
        if self.winner[0] != self.loser[0]:
            raise MatchPlayError("level_table", "a draw (d = 0) must give both sides the same points")

    @classmethod
    def default(cls) -> LevelPointsTable:
        return cls(
            winner=tuple(13 + d for d in range(MAX_DIFFERENCE + 1)),
            loser=tuple(13 - d for d in range(MAX_DIFFERENCE + 1)),
        )

    @classmethod
    def from_document(cls, doc: Mapping[str, Any], field: str = "level_table") -> LevelPointsTable:
        """Load an event's table: ``{"winner": [...14], "loser": [...14], "forfeit": [18, 0]}``."""
        rows: dict[str, tuple[int, ...]] = {}
        for name in ("winner", "loser"):
            rows[name] = _int_row(doc.get(name), f"{field}.{name}", MAX_DIFFERENCE + 1)
        forfeit = _int_row(doc.get("forfeit", list(FORFEIT_POINTS)), f"{field}.forfeit", 2)
        return cls(winner=rows["winner"], loser=rows["loser"], forfeit=(forfeit[0], forfeit[1]))

    def points(self, difference: int) -> tuple[int, int]:
        """(winner, loser) level points for a level difference."""
        if not 0 <= difference <= MAX_DIFFERENCE:
            raise MatchPlayError("difference", f"a level difference is 0…13, got {difference}")
        return self.winner[difference], self.loser[difference]


def _int_row(value: object, field: str, size: int) -> tuple[int, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != size:
        raise MatchPlayError(field, f"expected a list of {size} whole numbers")
    out: list[int] = []
    for i, item in enumerate(value):
        if not isinstance(item, int) or isinstance(item, bool):
            raise MatchPlayError(f"{field}[{i}]", f"expected a whole number, got {item!r}")
        out.append(item)
    return tuple(out)


DEFAULT_TABLE = LevelPointsTable.default()


class LevelScale(Enum):
    """What a game's level points are (RULES.md §4.3: the 26-point table, or the 级差分 of seed 003)."""

    TABLE_26 = "table_26"  # seed 002: the §4.1 table
    LEVEL_DIFFERENCE = "level_difference"  # ⚖ seed 003: +d for the winner, −d for the loser


class LevelDraw(Enum):
    """A game ending at equal levels (RULES.md §4.3 Draws)."""

    DRAW = "draw"  # 1:1, Swiss and round robin under the boards or time end modes
    EXTRA_BOARD = "extra_board"  # knockout (and the Swiss last-rounds option): one more board decides


class Side(Enum):
    A = 0
    B = 1


@dataclass(frozen=True)
class GameScore:
    """A game's match points and level points, side A first."""

    mp: tuple[int, int]
    lp: tuple[int, int]


def score_game(
    level_a: int,
    level_b: int,
    *,
    scale: LevelScale = LevelScale.TABLE_26,
    draw: LevelDraw = LevelDraw.DRAW,
    extra_board_winner: Side | None = None,
    table: LevelPointsTable = DEFAULT_TABLE,
) -> GameScore:
    """Score a game from both sides' final levels (RULES.md §4.3, §4.1).

    The higher level wins 2:0; equal levels draw 1:1, or under ``LevelDraw.EXTRA_BOARD`` the
    winner of the extra board(s) wins 2:0 (002 §29 "加打一副牌") — level points still follow the
    final levels, so a take-over board (§5) that left the levels equal scores d = 0.
    """
    a = parse_level(level_a, "level_a")
    b = parse_level(level_b, "level_b")
    d = abs(a - b)
    if a > b:
        winner: Side | None = Side.A
    elif b > a:
        winner = Side.B
    elif draw is LevelDraw.EXTRA_BOARD:
        if extra_board_winner is None:
            raise ExtraBoardNeeded()
        winner = extra_board_winner
    else:
        winner = None
    if scale is LevelScale.TABLE_26:
        win_lp, lose_lp = table.points(d)
    else:
        win_lp, lose_lp = d, -d
    if winner is None:
        return GameScore(mp=(1, 1), lp=(win_lp, lose_lp))
    if winner is Side.A:
        return GameScore(mp=(2, 0), lp=(win_lp, lose_lp))
    return GameScore(mp=(0, 2), lp=(lose_lp, win_lp))


def forfeit_score(
    real_lp: tuple[int, int] | None = None,
    *,
    scale: LevelScale = LevelScale.TABLE_26,
    table: LevelPointsTable = DEFAULT_TABLE,
) -> GameScore:
    """A forfeit won by side A (RULES.md §4.3 Forfeit, 002 §15 and 003 "场分2:0,级分18:0").

    2:0 match points and the table's forfeit level points (18:0), or the real level points when
    the winner's real margin was already strictly above the forfeit margin. ⚖ Under the
    level difference the forfeit is the largest difference, +13 : −13.
    """
    forfeit = table.forfeit if scale is LevelScale.TABLE_26 else (MAX_DIFFERENCE, -MAX_DIFFERENCE)
    margin = forfeit[0] - forfeit[1]
    if real_lp is not None and real_lp[0] - real_lp[1] > margin:
        return GameScore(mp=(2, 0), lp=real_lp)
    return GameScore(mp=(2, 0), lp=forfeit)
