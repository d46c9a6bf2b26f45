"""Ranking chains of match play (RULES.md §4.3 Ranking = 002 §26.四 / §27.二; 003; §5 Match).

Seed 002's chain: 1 match points, 2 level points, 3 level points in the games among the tied pairs,
4 opponents' level points (对手分), 5 shared place (1,1,3) or lot. Seed 003's: the same with
the level difference (级差分) in place of level points. Each standing names the step that decided it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from .entrants import Entrant, MatchResult
from .tally import Tally, tally


class Chain(Enum):
    """The ranking chain. Its value is the name the ``match-standings`` JSON contract gives it
    (docs/cli.md); behaviour follows the member, named by what step 2 reads."""

    LEVEL_POINTS = "guandan"  # seed 002 (JSON contract name)
    LEVEL_DIFFERENCE = "shengji2010"  # seed 003 (JSON contract name)

    @property
    def points_step(self) -> Step:
        """Step 2 reads level points (§4.1) or the level difference (级差分)."""
        return Step.LP if self is Chain.LEVEL_POINTS else Step.LD


class Step(Enum):
    """A step of the chain, as reported in ``decided_by``."""

    NONE = "none"  # a field of one: nothing to decide
    MP = "mp"
    LP = "lp"
    LD = "ld"  # the level difference 级差分
    H2H = "h2h"
    OPP = "opp"
    SHARED = "shared"
    LOT = "lot"
    KNOCKOUT = "knockout"  # a knockout's place: the round its pair was knocked out in
    CUT = "cut"  # a staged event's place: the stage a pair left in (cut, or not qualified)


_ORDER = [
    Step.NONE,
    Step.KNOCKOUT,
    Step.CUT,
    Step.MP,
    Step.LP,
    Step.LD,
    Step.H2H,
    Step.OPP,
    Step.LOT,
    Step.SHARED,
]


class HeadToHead(Enum):
    """Step 3's scope (RULES.md §4.3 Ranking 3)."""

    LITERAL = "literal"  # ⚖ default: over the whole tied set, even if not all of them met
    COMPLETE_ONLY = "complete_only"  # option: only when every two of the tied set met
    OFF = "off"


class HeadToHeadRepeat(Enum):
    """⚖ By default step 3 is not re-applied to a subset still tied; re-applying is an option."""

    ONCE = "once"
    RECURSIVE = "recursive"


class FinalTie(Enum):
    """Step 5: shared place (1,1,3), or lot where one place must be decided."""

    SHARE = "share"
    LOT = "lot"


@dataclass(frozen=True)
class RankingOptions:
    chain: Chain = Chain.LEVEL_POINTS
    h2h: HeadToHead = HeadToHead.LITERAL
    h2h_repeat: HeadToHeadRepeat = HeadToHeadRepeat.ONCE
    final: FinalTie = FinalTie.SHARE
    lot_seed: int = 0


DEFAULT_RANKING = RankingOptions()


@dataclass(frozen=True)
class Standing:
    team: str
    place: int
    mp: int
    lp: int  # level points (or the summed level difference)
    opp: int  # opponents' level points
    decided_by: Step


# A block of teams still tied, with the step that separated it from the block above (None: first).
_Block = tuple[Step | None, list[str]]


def rank(
    entrants: Sequence[Entrant], history: Sequence[MatchResult], options: RankingOptions = DEFAULT_RANKING
) -> list[Standing]:
    """Standings best first; every entrant is ranked (withdrawn pairs keep their results)."""
    totals = tally(history)
    teams = [e.id for e in sorted(entrants, key=lambda e: e.reg)]
    blocks: list[_Block] = [(None, teams)]
    blocks = _refine(blocks, lambda t, _: totals.get(t).mp, Step.MP)
    blocks = _refine(blocks, lambda t, _: totals.get(t).lp, options.chain.points_step)
    if options.h2h is not HeadToHead.OFF:
        blocks = _head_to_head(blocks, totals, options)
    blocks = _refine(blocks, lambda t, _: totals.opponents_lp(t), Step.OPP)
    if options.final is FinalTie.LOT:
        blocks = _lot(blocks, options.lot_seed)
    return _standings(blocks, totals)


def _refine(blocks: list[_Block], key: Callable[[str, list[str]], int], step: Step) -> list[_Block]:
    """Split every tied block by ``key`` (higher better); new boundaries are credited to ``step``."""
    out: list[_Block] = []
    for above, members in blocks:
        if len(members) == 1:
            out.append((above, members))
            continue
        values = {t: key(t, members) for t in members}
        ordered = sorted(members, key=lambda t: -values[t])
        current: list[str] = [ordered[0]]
        sep: Step | None = above
        for t in ordered[1:]:
            if values[t] == values[current[0]]:
                current.append(t)
            else:
                out.append((sep, current))
                sep, current = step, [t]
        out.append((sep, current))
    return out


def _h2h_points(team: str, members: list[str], totals: Tally) -> int:
    """Level points ``team`` scored in the games against the others of ``members``."""
    others = set(members) - {team}
    points = 0
    for r in totals.results:
        if r.b is None:
            continue
        if r.a == team and r.b in others:
            points += r.lp[0]
        elif r.b == team and r.a in others:
            points += r.lp[1]
    return points


def _all_met(members: list[str], totals: Tally) -> bool:
    return all(totals.have_met(a, b) for i, a in enumerate(members) for b in members[i + 1 :])


def _head_to_head(blocks: list[_Block], totals: Tally, options: RankingOptions) -> list[_Block]:
    """Step 3 over each tied set (⚖ the whole set, even if not all met; once unless RECURSIVE)."""
    out: list[_Block] = []
    for block in blocks:
        out.extend(_h2h_block(block, totals, options))
    return out


def _h2h_block(block: _Block, totals: Tally, options: RankingOptions) -> list[_Block]:
    members = block[1]
    if len(members) == 1:
        return [block]
    if options.h2h is HeadToHead.COMPLETE_ONLY and not _all_met(members, totals):
        return [block]
    parts = _refine([block], lambda t, m: _h2h_points(t, m, totals), Step.H2H)
    if options.h2h_repeat is HeadToHeadRepeat.ONCE or len(parts) == 1:
        return parts
    out: list[_Block] = []
    for part in parts:
        out.extend(_h2h_block(part, totals, options))
    return out


def _lot(blocks: list[_Block], seed: int) -> list[_Block]:
    rng = random.Random(seed)
    out: list[_Block] = []
    for above, members in blocks:
        drawn = sorted(members)
        rng.shuffle(drawn)
        out.append((above, [drawn[0]]))
        out.extend((Step.LOT, [t]) for t in drawn[1:])
    return out


def _later(a: Step | None, b: Step | None) -> Step:
    steps = [s for s in (a, b) if s is not None]
    return max(steps, key=_ORDER.index) if steps else Step.NONE


def _standings(blocks: list[_Block], totals: Tally) -> list[Standing]:
    """Places 1,1,3 for shared blocks; ``decided_by`` is the later of the steps that separated a
    team from the one above and the one below (the step that fixed its place)."""
    out: list[Standing] = []
    place = 1
    for index, (above, members) in enumerate(blocks):
        below = blocks[index + 1][0] if index + 1 < len(blocks) else None
        decided = Step.SHARED if len(members) > 1 else _later(above, below)
        for team in members:
            t = totals.get(team)
            out.append(Standing(team, place, t.mp, t.lp, totals.opponents_lp(team), decided))
        place += len(members)
    return out
