"""Knockouts (RULES.md §4.3; 002 §25): bracket placement, single and double elimination plans.

Seeds are numbers 1…n, 1 the strongest. Brackets have 2^k slots; a seed above n is a bye, and the
standard placement puts those byes against the strongest seeds in round 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from .errors import ExtraBoardNeeded, MatchPlayError
from .level_points import GameScore, Side


def bracket_size(n: int) -> int:
    if n < 2:
        raise MatchPlayError("teams", f"a knockout needs at least 2 teams, got {n}")
    size = 1
    while size < n:
        size *= 2
    return size


def bracket_order(slots: int) -> list[int]:
    """Seed numbers by bracket position: 1 v 2ⁿ, 2ⁿ⁻¹ v 2ⁿ⁻¹+1 … (§4.3 Single elimination).

    Built by doubling: each seed s of a bracket of m slots is followed by its partner 2m+1−s, which
    keeps seeds 1 and 2 in opposite halves, 1–4 in different quarters, and so on (snake halves).
    """
    order = [1]
    while len(order) < slots:
        m = 2 * len(order)
        order = [x for s in order for x in (s, m + 1 - s)]
    return order


def first_round(n: int) -> list[tuple[int | None, int | None]]:
    """Round 1 tables of a bracket for n teams; None is a bye, which goes to the strongest seeds."""
    order = bracket_order(bracket_size(n))
    seats = [s if s <= n else None for s in order]
    return [(seats[i], seats[i + 1]) for i in range(0, len(seats), 2)]


class Bracket(Enum):
    WINNERS = "winners"
    LOSERS = "losers"
    FINAL = "final"
    RESET = "reset"  # double elimination option: played only if the losers' bracket winner won the final
    THIRD_PLACE = "third_place"


class ThirdPlace(Enum):
    """§29: an optional 3rd-place match between the losing semi-finalists."""

    NONE = "none"
    PLAY = "play"


class FinalReset(Enum):
    """⚖ Double elimination: one final (the seed); a reset second final is an option."""

    ONE_FINAL = "one_final"
    RESET = "reset"


@dataclass(frozen=True)
class SeedSlot:
    seed: int | None  # None: a bye


@dataclass(frozen=True)
class WinnerOf:
    match: str


@dataclass(frozen=True)
class LoserOf:
    match: str


Source = SeedSlot | WinnerOf | LoserOf


@dataclass(frozen=True)
class Match:
    id: str
    bracket: Bracket
    round: int
    a: Source
    b: Source


def _winners_bracket(n: int) -> tuple[list[Match], int]:
    size = bracket_size(n)
    matches: list[Match] = []
    for i, (x, y) in enumerate(first_round(n)):
        matches.append(Match(f"W1-{i + 1}", Bracket.WINNERS, 1, SeedSlot(x), SeedSlot(y)))
    rounds = size.bit_length() - 1
    for r in range(2, rounds + 1):
        for i in range(size >> r):
            matches.append(
                Match(
                    f"W{r}-{i + 1}",
                    Bracket.WINNERS,
                    r,
                    WinnerOf(f"W{r - 1}-{2 * i + 1}"),
                    WinnerOf(f"W{r - 1}-{2 * i + 2}"),
                )
            )
    return matches, rounds


def single_elimination(n: int, third_place: ThirdPlace = ThirdPlace.NONE) -> list[Match]:
    """Every match of a single-elimination bracket in playing order (002 §25.一)."""
    matches, rounds = _winners_bracket(n)
    if third_place is ThirdPlace.PLAY and rounds >= 2:
        semis = [m.id for m in matches if m.round == rounds - 1]
        matches.append(Match("3rd", Bracket.THIRD_PLACE, rounds, LoserOf(semis[0]), LoserOf(semis[1])))
    return matches


def double_elimination(n: int, final: FinalReset = FinalReset.ONE_FINAL) -> list[Match]:
    """Every match of a double-elimination bracket (002 §25.二).

    Losers' round 1 pairs the losers of winners' round 1 in bracket order; each later winners'
    round drops its losers in at the mirrored (reversed) positions, against the losers' bracket
    survivors, so pairs from one section of the draw do not meet again at once. Then the final
    between the two brackets' winners, and the reset final as an option.
    """
    matches, rounds = _winners_bracket(n)
    lb_round = 0
    survivors: list[Source] = []
    if rounds == 1:
        lb_winner: Source = LoserOf("W1-1")
    else:
        lb_round = 1
        w1 = [m.id for m in matches if m.round == 1]
        for i in range(0, len(w1), 2):
            mid = f"L1-{i // 2 + 1}"
            matches.append(Match(mid, Bracket.LOSERS, 1, LoserOf(w1[i]), LoserOf(w1[i + 1])))
            survivors.append(WinnerOf(mid))
        for r in range(2, rounds + 1):
            drops = [LoserOf(m.id) for m in matches if m.bracket is Bracket.WINNERS and m.round == r]
            drops.reverse()  # the mirrored position
            lb_round += 1
            merged: list[Source] = []
            for i, (s, d) in enumerate(zip(survivors, drops, strict=True)):
                mid = f"L{lb_round}-{i + 1}"
                matches.append(Match(mid, Bracket.LOSERS, lb_round, s, d))
                merged.append(WinnerOf(mid))
            survivors = merged
            if len(survivors) > 1:
                lb_round += 1
                halved: list[Source] = []
                for i in range(0, len(survivors), 2):
                    mid = f"L{lb_round}-{i // 2 + 1}"
                    matches.append(Match(mid, Bracket.LOSERS, lb_round, survivors[i], survivors[i + 1]))
                    halved.append(WinnerOf(mid))
                survivors = halved
        lb_winner = survivors[0]
    wb_final = f"W{rounds}-1"
    matches.append(Match("F", Bracket.FINAL, rounds + 1, WinnerOf(wb_final), lb_winner))
    if final is FinalReset.RESET:
        matches.append(Match("F2", Bracket.RESET, rounds + 2, WinnerOf("F"), LoserOf("F")))
    return matches


@dataclass(frozen=True)
class Resolved:
    """Who plays a match (None: nobody — a bye or a walkover) once its sources are known."""

    a: int | None
    b: int | None


def resolve(plan: list[Match], winners: Mapping[str, int]) -> dict[str, Resolved]:
    """Fill the plan from the winners known so far (seed numbers by match id).

    A match with one side empty is a walkover: the other side advances without a result, and its
    loser is nobody. Matches whose sides are not yet known are left out. The reset final is left
    out when the winners' bracket winner took the first final.
    """
    known: dict[str, Resolved] = {}
    outcome: dict[str, tuple[int | None, int | None]] = {}  # match → (winner, loser)

    def side(src: Source) -> tuple[bool, int | None]:
        if isinstance(src, SeedSlot):
            return True, src.seed
        if src.match not in outcome:
            return False, None
        win, lose = outcome[src.match]
        return True, win if isinstance(src, WinnerOf) else lose

    for m in plan:
        ready_a, a = side(m.a)
        ready_b, b = side(m.b)
        if not (ready_a and ready_b):
            continue
        if m.bracket is Bracket.RESET and "F" in outcome and outcome["F"][0] == known["F"].a:
            continue
        known[m.id] = Resolved(a, b)
        if a is None or b is None:
            outcome[m.id] = (a if b is None else b, None)
        elif m.id in winners:
            w = winners[m.id]
            if w not in (a, b):
                raise MatchPlayError(f"winners.{m.id}", f"seed {w} does not play in {m.id} ({a} v {b})")
            outcome[m.id] = (w, b if w == a else a)
    return known


class KnockoutDecision(Enum):
    """How a §29 knockout match of several games is won."""

    SUMMED_LEVEL_POINTS = "summed_level_points"  # 2 or 3 games, the higher summed level points
    BEST_OF = "best_of"  # best of 3 or 5 games


@dataclass(frozen=True)
class KnockoutMatchRule:
    decision: KnockoutDecision
    games: int

    def __post_init__(self) -> None:
        allowed = (2, 3) if self.decision is KnockoutDecision.SUMMED_LEVEL_POINTS else (3, 5)
        if self.games not in allowed:
            raise MatchPlayError(
                "games", f"{self.decision.value} is played over {allowed[0]} or {allowed[1]} games"
            )


def knockout_winner(
    rule: KnockoutMatchRule, games: Sequence[GameScore], extra_board_winner: Side | None = None
) -> Side | None:
    """The winner of a §29 knockout match so far, or None while more games are due.

    Summed level points: all games are played and the higher sum wins; ⚖ equal sums are decided
    like a level knockout game, by one extra board at a time (§4.3 Draws). Best of N: the first to
    win a majority; a knockout game never ends level (its extra board decides it), so a 1:1 game is
    an error.
    """
    if len(games) > rule.games:
        raise MatchPlayError("games", f"the match has at most {rule.games} games, got {len(games)}")
    if rule.decision is KnockoutDecision.SUMMED_LEVEL_POINTS:
        if len(games) < rule.games:
            return None
        total_a = sum(g.lp[0] for g in games)
        total_b = sum(g.lp[1] for g in games)
        if total_a != total_b:
            return Side.A if total_a > total_b else Side.B
        if extra_board_winner is None:
            raise ExtraBoardNeeded("summed level points are equal: play an extra board")
        return extra_board_winner
    if any(g.mp == (1, 1) for g in games):
        raise MatchPlayError("games", "a knockout game cannot end level: its extra board decides it")
    need = rule.games // 2 + 1
    wins_a = sum(1 for g in games if g.mp[0] == 2)
    wins_b = len(games) - wins_a
    if wins_a >= need:
        return Side.A
    if wins_b >= need:
        return Side.B
    return None


def knockout_places(plan: list[Match], winners: Mapping[str, int], seeds: Sequence[int]) -> dict[int, int]:
    """Places of a single elimination so far (002 §25): a pair knocked out in round k shares the place
    after every pair that went on past round k; the pairs still in share the first place (one, the
    champion, once the final is played)."""
    resolved = resolve(plan, winners)
    out_in: dict[int, int] = {}  # seed → the round it lost
    for m in plan:
        r = resolved.get(m.id)
        if r is None or r.a is None or r.b is None or m.id not in winners:
            continue
        loser = r.b if winners[m.id] == r.a else r.a
        out_in[loser] = m.round
    places: dict[int, int] = {}
    for seed in seeds:
        k = out_in.get(seed)
        if k is None:
            places[seed] = 1
        else:
            places[seed] = 1 + sum(1 for s in seeds if out_in.get(s) is None or out_in[s] > k)
    return places
