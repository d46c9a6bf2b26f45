"""Entrants (pairs) and match results: what every format and ranking reads (RULES.md §4.3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from .errors import MatchPlayError
from .level_points import DEFAULT_TABLE, GameScore, LevelPointsTable, LevelScale, forfeit_score


class Status(Enum):
    """Whether a pair is still paired (RULES.md §4.3: withdrawals keep their results)."""

    ACTIVE = "active"
    WITHDRAWN = "withdrawn"  # keeps its results, no longer paired
    DISQUALIFIED = "disqualified"  # §4.3: its later games are forfeits; never paired again


@dataclass(frozen=True)
class Entrant:
    """A pair of two players: the unit of every match-play format."""

    id: str
    reg: int  # registration number: the last key of the Swiss standing order
    name: str = ""
    players: tuple[str, ...] = ()
    seed: int | None = None  # strength, 1 the strongest (snake round 1, knockouts, groups)
    region: str | None = None
    club: str | None = None
    status: Status = Status.ACTIVE

    @property
    def active(self) -> bool:
        return self.status is Status.ACTIVE


class ResultKind(Enum):
    PLAYED = "played"
    FORFEIT = "forfeit"  # §4.3: 2:0 and 18:0 (or the real margin above 18); the loser is still an opponent
    BYE = "bye"  # §4.3: scores as a forfeit win; no opponent


class RoundFormat(Enum):
    """A round (轮) is one game or best of three (RULES.md §4.3, option)."""

    ONE_GAME = "one_game"
    BEST_OF_THREE = "best_of_three"


@dataclass(frozen=True)
class MatchResult:
    """One round's result between pairs ``a`` and ``b`` (``b`` None: a bye), side ``a`` first."""

    round: int
    a: str
    b: str | None
    mp: tuple[int, int]
    lp: tuple[int, int]
    kind: ResultKind = ResultKind.PLAYED

    def __post_init__(self) -> None:
        if (self.b is None) != (self.kind is ResultKind.BYE):
            raise MatchPlayError("b", "a bye has no opponent and a game has one")
        if self.b == self.a:
            raise MatchPlayError("b", f"{self.a!r} cannot meet itself")
        if sorted(self.mp) not in ([0, 2], [1, 1]):
            raise MatchPlayError("mp", f"match points are 2:0, 1:1 or 0:2, got {list(self.mp)}")
        if self.kind is ResultKind.BYE and self.mp != (2, 0):
            raise MatchPlayError("mp", "a bye scores as a forfeit win, 2:0")

    def teams(self) -> tuple[str, ...]:
        return (self.a,) if self.b is None else (self.a, self.b)

    def side_of(self, team: str) -> int:
        return 0 if team == self.a else 1


def bye(
    round_no: int,
    team: str,
    table: LevelPointsTable = DEFAULT_TABLE,
    *,
    scale: LevelScale = LevelScale.TABLE_26,
) -> MatchResult:
    """A bye scores as a forfeit win (RULES.md §4.3 Swiss: 2 MP, 18:0 LP) and has no opponent.

    Whatever a forfeit win scores on the event's scale: the table's forfeit points, or ⚖ +13:−13
    under the level difference (级差分).
    """
    score = forfeit_score(scale=scale, table=table)
    return MatchResult(round_no, team, None, score.mp, score.lp, ResultKind.BYE)


def forfeit(
    round_no: int,
    winner: str,
    loser: str,
    real_lp: tuple[int, int] | None = None,
    *,
    scale: LevelScale = LevelScale.TABLE_26,
    table: LevelPointsTable = DEFAULT_TABLE,
) -> MatchResult:
    """A forfeited game (RULES.md §4.3 Forfeit): 2:0, 18:0 or the real level points above 18."""
    score = forfeit_score(real_lp, scale=scale, table=table)
    return MatchResult(round_no, winner, loser, score.mp, score.lp, ResultKind.FORFEIT)


def played(round_no: int, a: str, b: str, score: GameScore) -> MatchResult:
    return MatchResult(round_no, a, b, score.mp, score.lp)


def combine_games(games: Sequence[GameScore], fmt: RoundFormat) -> GameScore:
    """A round's score from its games (RULES.md §4.3: one game or best of three).

    ⚖ Best of three: the side with more won games takes 2:0 (1:1 when the games are even, e.g. two
    draws); level points are summed over the games played.
    """
    limit = 1 if fmt is RoundFormat.ONE_GAME else 3
    if not 1 <= len(games) <= limit:
        raise MatchPlayError("games", f"a {fmt.value} round has 1…{limit} games, got {len(games)}")
    if fmt is RoundFormat.ONE_GAME:
        return games[0]
    wins_a = sum(1 for g in games if g.mp[0] == 2)
    wins_b = sum(1 for g in games if g.mp[1] == 2)
    before_last = games[:-1]
    if max(sum(1 for g in before_last if g.mp[0] == 2), sum(1 for g in before_last if g.mp[1] == 2)) >= 2:
        raise MatchPlayError("games", "best of three was decided before its last game: drop that game")
    if max(wins_a, wins_b) < 2 and len(games) < 3:
        raise MatchPlayError("games", "best of three is not decided yet: play the next game")
    lp = (sum(g.lp[0] for g in games), sum(g.lp[1] for g in games))
    if wins_a > wins_b:
        return GameScore((2, 0), lp)
    if wins_b > wins_a:
        return GameScore((0, 2), lp)
    return GameScore((1, 1), lp)
