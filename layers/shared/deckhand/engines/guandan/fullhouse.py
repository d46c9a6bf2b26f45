"""Full houses for Guandan's generator (RULES.md §4, §4.2): a triple and a pair, compared by the triple.

A full house is a triple block and a pair block of another rank (:func:`.blocks.groups`), the pair
possibly two identical jokers; both blocks together use at most the hand's wilds. The blocks of
different ranks are disjoint runs of the sorted order, so a play's cards are the two blocks
concatenated, the wilds sorted in where the level rank sorts. Plays are made in batches, in C: for
one triple rank, the wilds each block uses, and the pairs below or above it, every triple block times
every pair block (``product`` of two columns, ``starmap(add, …)`` to concatenate,
``map(tuple.__new__, repeat(Reading), …)`` for the readings) — no Python step per play. The pair
blocks of all ranks are one column per count of wilds they use, a rank's blocks a slice of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain, product, repeat, starmap
from operator import add

from ..common.cards import BLACK_JOKER, RED_JOKER
from .blocks import Cards, Group, Hand, groups, with_wilds
from .combos import HEART, Combo, Reading, free_pair_rank

FULL_HOUSE = Combo.FULL_HOUSE
_new = tuple.__new__
_NO_GROUPS: tuple[Group, ...] = ()
Plays = list[tuple[tuple[int, ...], Reading]]


class _Pairs:
    """Every pair block of the hand, per count of wilds it uses (0 or 1: a pair needs a natural): the
    naturals and the read cards in rank order (the joker pairs last), where each rank starts, and —
    made when first needed — the naturals with the play's wilds sorted in."""

    __slots__ = ("nat", "read", "start", "ins", "level", "wild")

    def __init__(self, h: Hand, wilds: int) -> None:
        own, counts = h.own, h.counts
        self.level, self.wild = h.level, h.wild
        found: list[tuple[Group, ...]] = []
        for r in range(13):
            n = counts[r]
            # A block needs a natural and at most ``wilds`` wilds: short ranks settled from counts.
            found.append(groups(own[r], 2) if n and n + wilds >= 2 else _NO_GROUPS)
        # Tuples, so a slice of one goes into a ``product`` without being copied again.
        self.nat: list[Cards] = []
        self.read: list[Cards] = []
        self.start: list[list[int]] = []
        for pw in range(min(wilds, 1) + 1):
            nat: list[tuple[int, ...]] = []
            read: list[tuple[int, ...]] = []
            start = []
            for g in found:
                start.append(len(nat))
                if g and g[pw][0]:
                    nat.extend(g[pw][0])
                    read.extend(g[pw][1])
            if not pw:
                for joker, n in ((BLACK_JOKER, h.bj), (RED_JOKER, h.rj)):
                    start.append(len(nat))
                    if n == 2:
                        nat.append((joker, joker))
                        read.append((joker, joker))
            else:
                start += [len(nat), len(nat)]
            start.append(len(nat))
            self.nat.append(tuple(nat))
            self.read.append(tuple(read))
            self.start.append(start)
        self.ins: dict[tuple[int, int], Cards] = {}

    def inserted(self, pw: int, w: int) -> Cards:
        """The blocks using ``pw`` wilds, each with ``w`` wilds sorted in: after the blocks of the ranks
        below the level, among the level rank's own cards, before the blocks above (jokers included)."""
        got = self.ins.get((pw, w))
        if got is None:
            nat, start, level = self.nat[pw], self.start[pw], self.level
            ws = (self.wild,) * w
            a, b = start[level], start[level + 1]
            got = (
                *[block + ws for block in nat[:a]],
                *with_wilds(nat[a:b], level, level, ws),
                *[ws + block for block in nat[b:]],
            )
            self.ins[(pw, w)] = got
        return got


def full_houses(h: Hand, out: Plays, above: int) -> None:
    """Every full house whose triple ranks above ``above`` (a strength; -1 for a lead)."""
    if not h.wilds:
        _natural(h, out, above)
        return
    power, wild, wilds, level = h.power, h.wild, h.wilds, h.level
    own, counts = h.own, h.counts
    pairs = _Pairs(h, wilds)
    extend = out.extend
    kinds, fives, types = repeat(FULL_HOUSE), repeat(5), repeat(Reading)
    for t in range(13):
        n = counts[t]
        if power[t] <= above or not n or n + wilds < 3:
            continue
        phys_runs: list[Iterable[tuple[int, ...]]] = []
        read_runs: list[Iterable[tuple[int, ...]]] = []
        triples = groups(own[t], 3)
        for tw in range(wilds + 1):
            t_nat, t_read = triples[tw]
            if not t_nat:
                continue
            for pw in range(min(wilds - tw, 1) + 1):
                nat, read, start = pairs.nat[pw], pairs.read[pw], pairs.start[pw]
                a, b = start[t], start[t + 1]  # pairs below the triple: [:a]; above it: [b:]
                low, high = a > 0, b < len(nat)
                if not (low or high):
                    continue
                w = tw + pw
                if not w:  # naturals only: the cards are the reading's cards
                    if low:
                        cards = list(starmap(add, product(nat[:a], t_nat)))
                        phys_runs.append(cards)
                        read_runs.append(cards)
                    if high:
                        cards = list(starmap(add, product(t_nat, nat[b:])))
                        phys_runs.append(cards)
                        read_runs.append(cards)
                    continue
                ws = (wild,) * w
                if t < level:  # wilds after the triple: after the pairs below, into those above
                    lower, t_low = nat, with_wilds(t_nat, t, level, ws)
                    upper, t_up = pairs.inserted(pw, w), t_nat
                elif t > level:  # wilds before the triple: into the pairs below, before those above
                    lower, t_low = pairs.inserted(pw, w), t_nat
                    upper, t_up = nat, with_wilds(t_nat, t, level, ws)
                else:  # the triple is the level rank: the wilds among its own cards
                    lower = upper = nat
                    t_low = t_up = with_wilds(t_nat, t, level, ws)
                if low:
                    phys_runs.append(starmap(add, product(lower[:a], t_low)))
                    read_runs.append(starmap(add, product(read[:a], t_read)))
                if high:
                    phys_runs.append(starmap(add, product(t_up, upper[b:])))
                    read_runs.append(starmap(add, product(t_read, read[b:])))
        if phys_runs:
            reads = chain.from_iterable(read_runs)
            readings = starmap(_new, zip(types, zip(kinds, repeat(power[t]), fives, reads)))
            extend(zip(chain.from_iterable(phys_runs), readings))
        if wilds == 2:
            _free_pairs(h, t, out)


def _natural(h: Hand, out: Plays, above: int) -> None:
    """A hand without wilds: a rank's triples and pairs are its 3- and 2-card sub-multisets, read as
    themselves, so a triple rank's plays are two products (pairs below, pairs above)."""
    power, counts, subs = h.power, h.counts, h.subs
    pairs: list[tuple[int, ...]] = []
    start = []
    for r in range(13):
        start.append(len(pairs))
        if counts[r] >= 2:
            pairs.extend(subs[r][2])
    start.append(len(pairs))
    for joker, n in ((BLACK_JOKER, h.bj), (RED_JOKER, h.rj)):
        if n == 2:
            pairs.append((joker, joker))
    kinds, fives, types = repeat(FULL_HOUSE), repeat(5), repeat(Reading)
    for t in range(13):
        if counts[t] < 3 or power[t] <= above:
            continue
        triples = subs[t][3]
        cards = [
            *starmap(add, product(pairs[: start[t]], triples)),
            *starmap(add, product(triples, pairs[start[t + 1] :])),
        ]
        readings = starmap(_new, zip(types, zip(kinds, repeat(power[t]), fives, cards)))
        out.extend(zip(cards, readings))


def _free_pairs(h: Hand, t: int, out: Plays) -> None:
    """A natural triple with both wilds as its pair (§4.2: one canonical reading, :func:`free_pair_rank`)."""
    subs = h.subs[t]
    if len(subs) <= 3:
        return
    wild = h.wild
    fp = free_pair_rank(t, h.level) * 4 + HEART
    p = h.power[t]
    for tn in subs[3]:
        phys = tuple(sorted(tn + (wild, wild)))
        out.append((phys, _new(Reading, (FULL_HOUSE, p, 5, tuple(sorted(tn + (fp, fp)))))))
