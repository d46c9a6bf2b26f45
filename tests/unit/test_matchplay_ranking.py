"""Ranking chains of match play (RULES.md §4.3 Ranking; §5 Shengji 2010): one case per step."""

from deckhand.competition.matchplay.entrants import Entrant, MatchResult, bye, forfeit
from deckhand.competition.matchplay.ranking import (
    Chain,
    FinalTie,
    HeadToHead,
    HeadToHeadRepeat,
    RankingOptions,
    Step,
    rank,
)


def teams(ids):
    return [Entrant(id=t, reg=i + 1) for i, t in enumerate(ids)]


def g(r, a, b, lp, mp=None):
    if mp is None:
        mp = (2, 0) if lp[0] > lp[1] else (0, 2) if lp[1] > lp[0] else (1, 1)
    return MatchResult(r, a, b, mp, lp)


def table(standings):
    return [(s.team, s.place, s.decided_by.value) for s in standings]


# P and Q tie on MP and LP; P beat Q; S has the same MP but fewer LP.
H2H = [g(1, "P", "Q", (15, 11)), g(2, "Q", "R", (15, 11)), g(2, "P", "S", (11, 15))]


def test_mp_lp_and_head_to_head():
    out = rank(teams("PQRS"), H2H)
    assert table(out) == [("P", 1, "h2h"), ("Q", 2, "h2h"), ("S", 3, "lp"), ("R", 4, "mp")]
    assert [(s.mp, s.lp) for s in out] == [(2, 26), (2, 26), (2, 15), (0, 11)]


def test_head_to_head_off_falls_to_opponents_points():
    out = rank(teams("PQRS"), H2H, RankingOptions(h2h=HeadToHead.OFF))
    # P's opponents Q (26) + S (15) = 41; Q's: P (26) + R (11) = 37.
    assert table(out)[:2] == [("P", 1, "opp"), ("Q", 2, "opp")]
    assert [s.opp for s in out[:2]] == [41, 37]


def test_opponents_points_when_the_tied_never_met():
    history = [g(1, "P", "R", (15, 11)), g(1, "Q", "S", (15, 11)), g(2, "R", "S", (16, 10))]
    out = rank(teams("PQRS"), history)
    assert table(out) == [("R", 1, "lp"), ("P", 2, "opp"), ("Q", 3, "opp"), ("S", 4, "mp")]


# A, B, C tie on 2 MP and 26 LP; only A and B met (A won 14:12).
PARTIAL = [
    g(1, "A", "B", (14, 12)),
    g(2, "B", "E", (14, 12)),
    g(2, "A", "F", (12, 14)),
    g(1, "C", "D", (14, 12)),
    g(2, "C", "G", (12, 14)),
]


def test_literal_head_to_head_over_the_whole_tied_set():
    out = rank(teams("ABCDEFG"), PARTIAL)
    assert table(out)[:3] == [("A", 1, "h2h"), ("B", 2, "h2h"), ("C", 3, "h2h")]


def test_complete_only_head_to_head_skips_a_set_that_did_not_all_meet():
    out = rank(teams("ABCDEFG"), PARTIAL, RankingOptions(h2h=HeadToHead.COMPLETE_ONLY))
    # opponents' LP: A 26+14, B 26+12, C 12+14
    assert table(out)[:3] == [("A", 1, "opp"), ("B", 2, "opp"), ("C", 3, "opp")]


# A, B, C tie on 4 MP and 53 LP and all met: A 30 in their games, B and C 25 each; B beat C 15:13.
CIRCLE = [
    g(1, "A", "B", (16, 10)),
    g(2, "A", "C", (14, 12)),
    g(3, "B", "C", (15, 13)),
    g(1, "C", "U", (14, 12)),
    g(2, "B", "Z", (16, 10)),
    g(3, "A", "X", (12, 14)),
    g(4, "A", "Y", (11, 15)),
    g(4, "B", "W", (12, 14)),
    g(4, "C", "V", (14, 12)),
]


def test_head_to_head_is_not_reapplied_to_a_subset_by_default():
    out = rank(teams("ABCUVWXYZ"), CIRCLE)
    assert table(out)[:3] == [("A", 1, "h2h"), ("B", 2, "shared"), ("C", 2, "shared")]
    assert out[1].opp == out[2].opp == 130
    assert out[3].place == 4


def test_recursive_head_to_head_as_an_option():
    out = rank(teams("ABCUVWXYZ"), CIRCLE, RankingOptions(h2h_repeat=HeadToHeadRepeat.RECURSIVE))
    assert table(out)[:3] == [("A", 1, "h2h"), ("B", 2, "h2h"), ("C", 3, "h2h")]


def test_lot_decides_a_place_reproducibly():
    options = RankingOptions(final=FinalTie.LOT, lot_seed=7)
    out = rank(teams("ABCUVWXYZ"), CIRCLE, options)
    assert [s.place for s in out[:3]] == [1, 2, 3]
    assert {out[1].team, out[2].team} == {"B", "C"}
    assert out[1].decided_by is Step.LOT and out[2].decided_by is Step.LOT
    assert table(out) == table(rank(teams("ABCUVWXYZ"), CIRCLE, options))


def test_shared_places_1_1_3():
    history = [
        g(1, "A", "C", (15, 11)),
        g(1, "B", "D", (15, 11)),
        g(2, "A", "D", (13, 13)),
        g(2, "B", "C", (13, 13)),
    ]
    out = rank(teams("ABCD"), history)
    assert [s.place for s in out] == [1, 1, 3, 3]
    assert out[0].decided_by is Step.SHARED


def test_shengji_chain_names_the_level_difference():
    history = [g(1, "A", "B", (4, -4)), g(1, "C", "D", (2, -2))]
    out = rank(teams("ABCD"), history, RankingOptions(chain=Chain.LEVEL_DIFFERENCE))
    assert table(out) == [("A", 1, "ld"), ("C", 2, "ld"), ("D", 3, "ld"), ("B", 4, "ld")]
    assert [s.lp for s in out] == [4, 2, -2, -4]


def test_byes_and_forfeits_in_totals_and_opponents():
    history = [bye(1, "A"), forfeit(1, "B", "C"), g(2, "A", "B", (14, 12))]
    out = {s.team: s for s in rank(teams("ABC"), history)}
    assert (out["A"].mp, out["A"].lp) == (4, 32)
    assert (out["B"].mp, out["B"].lp) == (2, 30)
    assert (out["C"].mp, out["C"].lp) == (0, 0)
    assert out["A"].opp == 30  # the bye is no opponent
    assert out["B"].opp == 32 + 0  # A and C, once per game


def test_a_field_of_one():
    assert table(rank(teams("A"), [])) == [("A", 1, "none")]
