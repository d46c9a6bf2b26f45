"""Swiss pairing of pairs (RULES.md §4.3 Swiss): constructed cases for every rule."""

import pytest
from deckhand.competition.matchplay.entrants import Entrant, MatchResult, Status, bye, forfeit
from deckhand.competition.matchplay.errors import CannotPairError
from deckhand.competition.matchplay.swiss import (
    ClubRule,
    RegionRule,
    Round1Method,
    SwissOptions,
    pair_round,
    round1_order,
)


def field(*ids, **kw):
    return [Entrant(id=t, reg=i + 1, seed=i + 1, **kw) for i, t in enumerate(ids)]


def game(r, a, b, mp=(2, 0), lp=(16, 10)):
    return MatchResult(r, a, b, mp, lp)


def test_issue_example_high_v_high_forbidden_pair_and_bye():
    teams = field("A", "B", "C", "D", "E")
    history = [game(1, "A", "B"), game(1, "C", "D", (1, 1), (13, 13)), bye(1, "E")]
    options = SwissOptions(forbidden_pairs=frozenset({frozenset(("A", "C"))}))
    p = pair_round(teams, history, 2, options)
    # E 2/18, A 2/16, C 1/13, D 1/13, B 0: B sits out; A–C forbidden and C–D a rematch.
    assert p.bye == "B"
    assert p.pairs == (("E", "C"), ("A", "D"))


def test_high_against_high_within_a_score_group():
    teams = field("A", "B", "C", "D", "E", "F", "G", "H")
    history = [
        game(1, "A", "E", lp=(20, 6)),
        game(1, "B", "F", lp=(18, 8)),
        game(1, "C", "G", lp=(16, 10)),
        game(1, "D", "H", lp=(14, 12)),
    ]
    p = pair_round(teams, history, 2)
    assert p.pairs == (("A", "B"), ("C", "D"), ("H", "G"), ("F", "E"))
    assert p.bye is None


def test_lowest_of_a_score_group_floats_down():
    teams = field("A", "B", "C", "D", "E", "F")
    history = [
        game(1, "A", "D", lp=(20, 6)),
        game(1, "B", "E", lp=(18, 8)),
        game(1, "C", "F", lp=(16, 10)),
    ]
    p = pair_round(teams, history, 2)
    # Standing A, B, C (2 MP), F, E, D (0 MP): A v B; C floats, C–F is a rematch so C meets E.
    # A v C, B v F, E v D costs the same in Σ MP² and Σ place², but the top table is tighter here.
    assert p.pairs == (("A", "B"), ("C", "E"), ("F", "D"))


def test_no_rematch_ever_even_at_a_higher_cost():
    teams = field("A", "B", "C", "D")
    history = [game(1, "A", "B"), game(1, "C", "D"), game(2, "A", "C"), game(2, "B", "D")]
    p = pair_round(teams, history, 3)
    assert {frozenset(x) for x in p.pairs} == {frozenset("AD"), frozenset("BC")}


def test_cannot_pair_after_everyone_met():
    teams = field("A", "B", "C", "D")
    history = [
        game(1, "A", "B"),
        game(1, "C", "D"),
        game(2, "A", "C"),
        game(2, "B", "D"),
        game(3, "A", "D"),
        game(3, "B", "C"),
    ]
    with pytest.raises(CannotPairError, match="round 4 cannot be paired"):
        pair_round(teams, history, 4)


def test_bye_goes_to_the_lowest_pair_without_a_bye():
    teams = field("A", "B", "C", "D", "E")
    history = [game(1, "A", "B"), game(1, "C", "D"), bye(1, "E"), game(2, "A", "C"), game(2, "E", "B")]
    # standings: A 4, E 4 (bye), C 2, B 0 … D 0: D (lowest, no bye) sits out.
    p = pair_round(teams, history, 3)
    assert p.bye == "D"


def test_bye_skips_a_pair_whose_absence_leaves_no_valid_pairing():
    teams = field("A", "B", "C", "D", "E")
    barred = frozenset(frozenset(("A", x)) for x in "BCD")
    p = pair_round(teams, [], 2, SwissOptions(forbidden_pairs=barred))
    # E is lowest, but without E nobody may meet A: the next lowest, D, sits out.
    assert p.bye == "D"
    assert p.pairs == (("A", "E"), ("B", "C"))


def test_every_pair_had_a_bye_then_fewest_byes_then_lowest():
    teams = field("A", "B", "C")
    history = [bye(1, "C"), game(1, "A", "B"), bye(2, "B"), game(2, "A", "C"), bye(3, "A"), game(3, "B", "C")]
    with pytest.raises(CannotPairError):
        pair_round(teams, history, 4)


def test_withdrawn_pairs_keep_results_but_are_not_paired_and_late_entries_start_at_zero():
    teams = field("A", "B", "C", "D")
    teams[1] = Entrant(id="B", reg=2, status=Status.WITHDRAWN)
    teams.append(Entrant(id="L", reg=5))  # a late entry
    history = [game(1, "A", "B"), game(1, "C", "D")]
    p = pair_round(teams, history, 2)
    assert "B" not in {x for pair in p.pairs for x in pair} and p.bye != "B"
    assert p.pairs[0] == ("A", "C")
    assert p.bye == "L" or "L" in p.pairs[1]


def test_same_club_forbidden_as_an_option():
    teams = [
        Entrant(id=t, reg=i + 1, club=c)
        for i, (t, c) in enumerate([("A", "X"), ("B", "X"), ("C", "Y"), ("D", "Y")])
    ]
    assert pair_round(teams, [], 2).pairs == (("A", "B"), ("C", "D"))
    p = pair_round(teams, [], 2, SwissOptions(clubs=ClubRule.FORBID))
    assert all(frozenset(x) not in (frozenset("AB"), frozenset("CD")) for x in p.pairs)


def test_round1_snake_folds_strength():
    teams = field("S1", "S2", "S3", "S4", "S5", "S6")
    p = pair_round(teams, [], 1, SwissOptions(round1=Round1Method.SNAKE))
    assert p.pairs == (("S1", "S6"), ("S2", "S5"), ("S3", "S4"))


def test_round1_lot_is_reproducible_from_its_seed():
    teams = field(*"ABCDEFGH")
    a = pair_round(teams, [], 1, SwissOptions(lot_seed=7))
    assert a == pair_round(teams, [], 1, SwissOptions(lot_seed=7))
    order = [e.id for e in round1_order(teams, SwissOptions(lot_seed=7))]
    assert a.pairs == tuple((order[i], order[i + 1]) for i in range(0, 8, 2))


def test_round1_keeps_regions_apart():
    regions = ["JS", "JS", "AH", "AH"]
    teams = [
        Entrant(id=t, reg=i + 1, seed=i + 1, region=r)
        for i, (t, r) in enumerate(zip("ABCD", regions, strict=True))
    ]
    p = pair_round(teams, [], 1, SwissOptions(round1=Round1Method.SNAKE))
    assert all(teams["ABCD".index(a)].region != teams["ABCD".index(b)].region for a, b in p.pairs)
    ignored = pair_round(teams, [], 1, SwissOptions(round1=Round1Method.SNAKE, regions=RegionRule.IGNORE))
    assert ignored.pairs == (("A", "D"), ("B", "C"))


def test_round1_regions_as_few_as_possible_when_unavoidable():
    regions = ["JS", "JS", "JS", "AH", "JS", "AH"]
    teams = [Entrant(id=str(i), reg=i + 1, region=r) for i, r in enumerate(regions)]
    for seed in range(5):
        p = pair_round(teams, [], 1, SwissOptions(lot_seed=seed))
        same = sum(1 for a, b in p.pairs if regions[int(a)] == regions[int(b)])
        assert same == 1


def test_forfeit_loser_counts_as_met():
    teams = field("A", "B", "C", "D")
    history = [forfeit(1, "A", "B"), game(1, "C", "D")]
    p = pair_round(teams, history, 2)
    assert frozenset("AB") not in {frozenset(x) for x in p.pairs}


def test_the_lowest_pair_skips_the_bye_when_it_had_one():
    teams = field("A", "B", "C", "D", "E")
    history = [
        game(1, "A", "B"),
        game(1, "C", "D"),
        bye(1, "E"),
        game(2, "A", "C"),
        game(2, "B", "E", lp=(26, 0)),
        bye(2, "D"),
    ]
    # A 4/32, B 2/36, D 2/28, C 2/26, E 2/18: E is lowest but had a bye; C is the lowest without.
    p = pair_round(teams, history, 3)
    assert p.bye == "C"
    assert {frozenset(x) for x in p.pairs} == {frozenset("AE"), frozenset("BD")}


def test_a_run_of_blocks_is_merged_when_its_excess_reaches_the_toll():
    from deckhand.competition.matchplay.swiss import _first_unsafe_run

    # excess equal to the toll: a crossing pairing could tie on Σ MP² and win on Σ place²
    assert _first_unsafe_run([0, 2], [2]) == (0, 1)
    assert _first_unsafe_run([1, 0], [2]) is None
    assert _first_unsafe_run([1, 0, 1], [2, 2]) is None
    assert _first_unsafe_run([0, 3, 0, 2], [8, 2, 8]) == (1, 2)
    assert _first_unsafe_run([3, 0, 3], [4, 4]) is None
    assert _first_unsafe_run([float("inf"), 0], [2]) == (0, 1)  # a block that cannot be paired alone
