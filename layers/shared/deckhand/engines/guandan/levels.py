"""Levels, upgrades, the A rule, game end and level points of Guandan (RULES.md §4, §4.1, §4.2).

A side's level is an index 0…13 into :data:`LEVEL_NAMES` (2 … A, then A+ = "past A"); 14 levels, so
the largest level difference is 13 and the §4.1 26-point table has 14 rows. Everything here is pure:
the board calls it at its end, the referee calculator calls it on its own, and the platform asks
:func:`verdict` whether another board is dealt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from ...errors import DeckhandError
from . import SEATS

LEVEL_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "A+")
TWO = 0
ACE = 12
PAST_A = 13
SIDES = ((0, 2), (1, 3))


def parse_level(token: object) -> int:
    """A level token ("2"…"9", "T" or "10", "J", "Q", "K", "A", "A+") to its index."""
    if not isinstance(token, str):
        raise DeckhandError(f"a level is a string such as '7' or 'A+', got {token!r}")
    text = token.strip().upper()
    if text == "10":
        text = "T"
    try:
        return LEVEL_NAMES.index(text)
    except ValueError:
        raise DeckhandError(f"unknown level {token!r}; levels are {', '.join(LEVEL_NAMES)}") from None


def format_level(level: int) -> str:
    return LEVEL_NAMES[level]


def level_rank(level: int) -> int:
    """The rank index (common.cards encoding, 3…A,2 = 0…12) of a level's level cards: "2" → 12, "3" → 0."""
    if not TWO <= level <= ACE:
        raise DeckhandError(f"level {format_level(level)} is not played (the game is over past A)")
    return 12 if level == TWO else level - 1


def rank_level(rank: int) -> int:
    """The level whose level cards have this rank index (inverse of :func:`level_rank`)."""
    if not 0 <= rank <= 12:
        raise DeckhandError(f"not a card rank index: {rank!r}")
    return TWO if rank == 12 else rank + 1


def side_of(seat: int) -> int:
    """Partners 0/2 are side 0, 1/3 side 1 (RULES.md §4)."""
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % SEATS


class ReturnRule(StrEnum):
    """Which card the first finisher may return (RULES.md §4.2 "Return")."""

    R2023 = "2023"  # 002: to one's partner 10 or lower (the lowest card if none), to an opponent any card
    R2022 = "2022"  # option: always 10 or lower, the lowest card if none


class EndMode(StrEnum):
    """How a game ends (RULES.md §4 "Game end", 002 第十四条二); passing A ends it in every mode."""

    GAME = "game"  # 计局制: a side passes A
    BOARDS = "boards"  # 计副制: N boards
    TIME = "time"  # 计时制: the platform's clock (60 min by default)
    TIME_OR_BOARDS = "time_or_boards"  # 计时计副制: whichever comes first


class Verdict(StrEnum):
    """What the engine tells the platform about the next board."""

    NEW_BOARD = "new_board"  # deal another board
    NO_NEW_BOARD = "no_new_board"  # the board in play is the game's last: finish it, deal no other
    GAME_OVER = "game_over"


DEFAULT_ROWS = tuple((13 + d, 13 - d) for d in range(PAST_A + 1))


@dataclass(frozen=True)
class LevelTable:
    """The 26-point level-difference table (RULES.md §4.1): row d = (winner, loser) points.

    The official table could not be found, so the default is 13±d; an organiser loads the real one
    with :meth:`from_data`. ``forfeit`` is the 18:0 of a game forfeit (002 第十五条三4).
    """

    rows: tuple[tuple[int, int], ...] = DEFAULT_ROWS
    forfeit: tuple[int, int] = (18, 0)

    def points(self, difference: int) -> tuple[int, int]:
        return self.rows[difference]

    def to_data(self) -> dict[str, Any]:
        return {"rows": [list(r) for r in self.rows], "forfeit": list(self.forfeit)}

    @classmethod
    def from_data(cls, data: object) -> LevelTable:
        """A table from JSON: a list of 14 [winner, loser] rows, or {"rows": […], "forfeit": [18, 0]}."""
        forfeit: object = [18, 0]
        if isinstance(data, dict):
            forfeit = data.get("forfeit", forfeit)
            data = data.get("rows")
        if not isinstance(data, list) or len(data) != PAST_A + 1:
            raise DeckhandError(f"a level table has {PAST_A + 1} rows (differences 0…{PAST_A})")
        rows = tuple(_pair(row, f"row {d}") for d, row in enumerate(data))
        return cls(rows=rows, forfeit=_pair(forfeit, "forfeit"))


def _pair(value: object, what: str) -> tuple[int, int]:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise DeckhandError(f"level table {what} must be [winner, loser] integers, got {value!r}")
    return (value[0], value[1])


@dataclass(frozen=True)
class Options:
    """The event's Guandan options (RULES.md §4 "Options"): typed, with the §4/§4.2 defaults."""

    end_mode: EndMode = EndMode.GAME
    boards: int = 10  # N for the boards modes (⚖ the seed leaves N to the event; 10 by default)
    minutes: int = 60  # for the time modes; the clock is the platform's
    return_rule: ReturnRule = ReturnRule.R2023
    a_drop: bool = False  # ⚖ three failed own-A boards drop a side back to 2 (off by default)
    a_drop_after: int = 3
    draws: bool = True  # False in knockouts: a game level at its end plays extra boards (§4.3)
    table: LevelTable = field(default_factory=LevelTable)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "end_mode": self.end_mode.value,
            "boards": self.boards,
            "minutes": self.minutes,
            "return_rule": self.return_rule.value,
            "a_drop": self.a_drop,
            "a_drop_after": self.a_drop_after,
            "draws": self.draws,
        }
        if self.table != LevelTable():
            data["table"] = self.table.to_data()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Options:
        """Options from JSON; missing keys take their defaults, unknown keys and bad values are errors."""
        if not data:
            return cls()
        if not isinstance(data, dict):
            raise DeckhandError(f"Guandan options must be an object, got {data!r}")
        known = {"end_mode", "boards", "minutes", "return_rule", "a_drop", "a_drop_after", "draws", "table"}
        unknown = set(data) - known
        if unknown:
            raise DeckhandError(f"unknown Guandan options: {', '.join(sorted(unknown))}")
        try:
            end_mode = EndMode(data.get("end_mode", EndMode.GAME.value))
            return_rule = ReturnRule(str(data.get("return_rule", ReturnRule.R2023.value)))
        except ValueError as exc:
            raise DeckhandError(str(exc)) from None
        ints = {k: data.get(k, getattr(cls, k)) for k in ("boards", "minutes", "a_drop_after")}
        for name, value in ints.items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise DeckhandError(f"option {name!r} must be a positive integer, got {value!r}")
        flags = {k: data.get(k, getattr(cls, k)) for k in ("a_drop", "draws")}
        for name, value in flags.items():
            if not isinstance(value, bool):
                raise DeckhandError(f"option {name!r} must be true or false, got {value!r}")
        table = LevelTable.from_data(data["table"]) if "table" in data else LevelTable()
        return cls(end_mode, ints["boards"], ints["minutes"], return_rule, flags["a_drop"],
                   ints["a_drop_after"], flags["draws"], table)  # fmt: skip


def check_order(order: Sequence[int]) -> list[int]:
    """A finishing order: distinct seats, the first two at least, or all three/four out."""
    seats = list(order)
    if (
        len(seats) < 2
        or len(seats) > SEATS
        or len(set(seats)) != len(seats)
        or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < SEATS for s in seats)
    ):
        raise DeckhandError(f"a finishing order lists distinct seats 0…3, at least two, got {order!r}")
    if len(seats) == 2 and side_of(seats[0]) != side_of(seats[1]):
        raise DeckhandError("a two-seat finishing order must be a 双下 (both of one side)")
    return seats


def is_double_down(order: Sequence[int]) -> bool:
    """双下: one side finished 1st and 2nd (RULES.md §4 "Play")."""
    return side_of(order[0]) == side_of(order[1])


def steps(order: Sequence[int]) -> int:
    """Levels won by the first finisher's side: partner 2nd +3, 3rd +2, last +1 (at 双下 only the first two count)."""
    seats = check_order(order)
    partner = partner_of(seats[0])
    place = seats.index(partner) + 1 if partner in seats else SEATS
    return {2: 3, 3: 2}.get(place, 1)


class Upgrade(NamedTuple):
    """What a board did to the levels (RULES.md §4 "Upgrade", §4.2 "The A rule")."""

    levels: tuple[int, int]
    winner_side: int
    steps: int
    passed_a: bool  # the winner passed A: the game is over in every end mode
    a_attempts: tuple[int, int]  # failed own-A boards per side (the drop option counts them)
    dropped: bool  # the drop option sent a side back to 2

    @property
    def game_over(self) -> bool:
        return self.passed_a


def upgrade(
    levels: Sequence[int],
    level_side: int,
    order: Sequence[int],
    a_attempts: Sequence[int] = (0, 0),
    options: Options | None = None,
) -> Upgrade:
    """The levels after a board played at ``level_side``'s level with finishing ``order``.

    Only the first finisher's side goes up; it stops at A (no jumping A). A side at A passes A only
    on a board played at its own A, won with one partner first and the other not last (§4.2: winning
    the opponents' board does not count, even when both are at A). ⚖ A failure is an own-A board that
    did not pass; with the drop option, the ``a_drop_after``-th failure sends the side back to 2.
    """
    opts = options or Options()
    if len(levels) != 2 or not all(TWO <= lv <= PAST_A for lv in levels):
        raise DeckhandError(f"levels are two levels 2…A+, got {list(levels)!r}")
    if PAST_A in levels:
        raise DeckhandError("a side has passed A: the game is over and no board is played")
    if level_side not in (0, 1):
        raise DeckhandError(f"level_side is 0 or 1, got {level_side!r}")
    if len(a_attempts) != 2:
        raise DeckhandError("a_attempts has one count per side")
    n = steps(order)
    win = side_of(order[0])
    new = [levels[0], levels[1]]
    attempts = [a_attempts[0], a_attempts[1]]
    passed = False
    if levels[win] == ACE:
        if level_side == win and n >= 2:
            new[win] = PAST_A
            passed = True
    else:
        new[win] = min(levels[win] + n, ACE)
        if new[win] == ACE:
            attempts[win] = 0  # a side arriving at A starts its attempts afresh
    dropped = False
    if levels[level_side] == ACE and not passed:
        attempts[level_side] += 1
        if opts.a_drop and attempts[level_side] >= opts.a_drop_after:
            new[level_side] = TWO
            attempts[level_side] = 0
            dropped = True
    return Upgrade((new[0], new[1]), win, n, passed, (attempts[0], attempts[1]), dropped)


class GamePoints(NamedTuple):
    """A game's match points (2/1/0) and level points (§4.1) per side."""

    match_points: tuple[int, int]
    level_points: tuple[int, int]
    winner_side: int | None  # None for a draw


def level_points(
    levels: Sequence[int], table: LevelTable | None = None, decider: int | None = None
) -> GamePoints:
    """Points of a finished game: the higher level wins; equal levels draw 1:1 (002 第十三条三).

    ``decider`` is the side that won the extra board of a level knockout game (§4.3): it wins 2:0 with
    the level points of a zero difference.
    """
    tab = table or LevelTable()
    d = abs(levels[0] - levels[1])
    high, low = tab.points(d)
    if d == 0 and decider is None:
        return GamePoints((1, 1), (high, low), None)
    winner = decider if d == 0 and decider is not None else (0 if levels[0] > levels[1] else 1)
    if winner == 0:
        return GamePoints((2, 0), (high, low), 0)
    return GamePoints((0, 2), (low, high), 1)


def forfeit_points(levels: Sequence[int], winner_side: int, table: LevelTable | None = None) -> GamePoints:
    """A game forfeit or disqualification: 2:0 and 18:0, or the real level points if the winner's margin
    was already above 18 (002 第十五条三4-5, RULES.md §4.1)."""
    tab = table or LevelTable()
    real = level_points(levels, tab)
    forfeit_win, forfeit_lose = tab.forfeit
    win_pts, lose_pts = forfeit_win, forfeit_lose
    if real.winner_side == winner_side:
        w, lose = real.level_points[winner_side], real.level_points[1 - winner_side]
        if w - lose > forfeit_win - forfeit_lose:
            win_pts, lose_pts = w, lose
    lp = (win_pts, lose_pts) if winner_side == 0 else (lose_pts, win_pts)
    mp = (2, 0) if winner_side == 0 else (0, 2)
    return GamePoints(mp, lp, winner_side)


def limit_reached(boards: int, options: Options, *, time_up: bool) -> bool:
    """Has the event's board count or clock run out (the A rule aside)?"""
    mode = options.end_mode
    by_boards = mode in (EndMode.BOARDS, EndMode.TIME_OR_BOARDS) and boards >= options.boards
    by_time = mode in (EndMode.TIME, EndMode.TIME_OR_BOARDS) and time_up
    return by_boards or by_time


def verdict(
    levels: Sequence[int],
    boards: int,
    options: Options | None = None,
    *,
    time_up: bool = False,
    in_progress: bool = False,
    extra_done: bool = False,
) -> Verdict:
    """Whether another board follows (RULES.md §4 "Game end"; the clock is the platform's).

    ``boards`` counts completed boards; with ``in_progress`` the board being played counts too, and
    the answer is NO_NEW_BOARD when it is the last (finish it, deal no other). Between boards the game
    is over when a side has passed A or the limit is reached, except a level game that may not draw
    (``draws`` off) plays one extra board at a time until one is won (``extra_done``).
    """
    opts = options or Options()
    if PAST_A in levels:
        return Verdict.GAME_OVER
    counted = boards + (1 if in_progress else 0)
    if not limit_reached(counted, opts, time_up=time_up):
        return Verdict.NEW_BOARD
    if in_progress:
        return Verdict.NO_NEW_BOARD
    if levels[0] == levels[1] and not opts.draws and not extra_done:
        return Verdict.NEW_BOARD
    return Verdict.GAME_OVER
