"""Round robin, knockouts, staged formats and manual pairing (RULES.md §4.3; 002 §25–29)."""

import pytest
from deckhand.competition.matchplay.entrants import Entrant, MatchResult, Status, bye
from deckhand.competition.matchplay.errors import ExtraBoardNeeded, MatchPlayError
from deckhand.competition.matchplay.knockout import (
    Bracket,
    FinalReset,
    KnockoutDecision,
    KnockoutMatchRule,
    LoserOf,
    ThirdPlace,
    bracket_order,
    double_elimination,
    first_round,
    knockout_winner,
    resolve,
    single_elimination,
)
from deckhand.competition.matchplay.level_points import GameScore, Side
from deckhand.competition.matchplay.manual import Concern, check_pairing, override
from deckhand.competition.matchplay.round_robin import berger, schedule, snake_groups
from deckhand.competition.matchplay.staged import CutUnit, SwissThenKnockout, SwissWithCut, apply_cut
from deckhand.competition.matchplay.swiss import SwissOptions


def test_berger_table_for_six():
    assert berger([1, 2, 3, 4, 5, 6]) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def test_double_round_robin_swaps_sides():
    rounds = schedule("ABCD", 2)
    assert rounds[3] == [(b, a) for a, b in rounds[0]]


def test_odd_group_rests_one_a_round():
    rounds = schedule("ABCDE")
    assert len(rounds) == 5
    assert sorted(next(t for g in r if None in g for t in g if t) for r in rounds) == list("ABCDE")


def test_groups_by_snake():
    assert snake_groups(list(range(1, 10)), 3) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]
    with pytest.raises(MatchPlayError):
        snake_groups([1, 2], 3)


def test_standard_bracket():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert first_round(6) == [(1, None), (4, 5), (2, None), (3, 6)]
    assert first_round(2) == [(1, 2)]


def test_single_elimination_with_third_place():
    plan = single_elimination(8, ThirdPlace.PLAY)
    assert [m.id for m in plan] == ["W1-1", "W1-2", "W1-3", "W1-4", "W2-1", "W2-2", "W3-1", "3rd"]
    assert plan[-1].a == LoserOf("W2-1") and plan[-1].bracket is Bracket.THIRD_PLACE
    winners = {"W1-1": 1, "W1-2": 4, "W1-3": 2, "W1-4": 3, "W2-1": 1, "W2-2": 3}
    known = resolve(plan, winners)
    assert (known["W3-1"].a, known["W3-1"].b) == (1, 3)
    assert (known["3rd"].a, known["3rd"].b) == (4, 2)


def test_byes_advance_without_a_game():
    known = resolve(single_elimination(6), {"W1-2": 5, "W1-4": 3})
    assert (known["W2-1"].a, known["W2-1"].b) == (1, 5)
    assert (known["W2-2"].a, known["W2-2"].b) == (2, 3)


def test_double_elimination_mirrors_drops_and_resets():
    plan = double_elimination(8, FinalReset.RESET)
    by_id = {m.id: m for m in plan}
    # losers' round 2: the survivors of round 1 meet the winners' round-2 losers, mirrored
    assert by_id["L2-1"].b == LoserOf("W2-2") and by_id["L2-2"].b == LoserOf("W2-1")
    assert by_id["F"].bracket is Bracket.FINAL and by_id["F2"].bracket is Bracket.RESET
    all_w = {m.id for m in plan if m.bracket is Bracket.WINNERS}
    dropped = {
        s.match for m in plan if m.bracket is Bracket.LOSERS for s in (m.a, m.b) if isinstance(s, LoserOf)
    }
    assert dropped | {"W3-1"} == all_w  # every winners' match but the final drops its loser once
    # no reset when the winners' bracket winner takes the final
    winners: dict[str, int] = {}
    while True:
        known = resolve(plan, winners)
        todo = {m: min(r.a, r.b) for m, r in known.items() if m not in winners and None not in (r.a, r.b)}
        if not todo:
            break
        winners.update(todo)  # the stronger seed always wins
    assert winners["F"] == 1 and "F2" not in known
    assert known["F"].b == 2  # seed 2 came back through the losers' bracket


def test_knockout_match_by_summed_level_points():
    rule = KnockoutMatchRule(KnockoutDecision.SUMMED_LEVEL_POINTS, 2)
    assert knockout_winner(rule, [GameScore((2, 0), (16, 10))]) is None
    assert knockout_winner(rule, [GameScore((2, 0), (16, 10)), GameScore((0, 2), (8, 18))]) is Side.B
    level = [GameScore((2, 0), (16, 10)), GameScore((0, 2), (10, 16))]
    with pytest.raises(ExtraBoardNeeded):
        knockout_winner(rule, level)
    assert knockout_winner(rule, level, extra_board_winner=Side.A) is Side.A


def test_knockout_match_best_of():
    rule = KnockoutMatchRule(KnockoutDecision.BEST_OF, 3)
    win, loss = GameScore((2, 0), (16, 10)), GameScore((0, 2), (10, 16))
    assert knockout_winner(rule, [win, loss]) is None
    assert knockout_winner(rule, [win, loss, win]) is Side.A
    with pytest.raises(MatchPlayError, match="extra board"):
        knockout_winner(rule, [GameScore((1, 1), (13, 13))])
    with pytest.raises(MatchPlayError):
        KnockoutMatchRule(KnockoutDecision.BEST_OF, 4)


def field(n):
    return [Entrant(id=f"T{i}", reg=i + 1, seed=i + 1) for i in range(n)]


def results(pairs, r):
    return [MatchResult(r, a, b, (2, 0), (16, 10)) for a, b in pairs]


def test_swiss_with_cut():
    plan = SwissWithCut((CutUnit(2, 2), CutUnit(2, 0)))
    assert [plan.cut_after(r) for r in (1, 2, 3, 4)] == [0, 2, 0, 0]
    teams = field(6)
    history = results([("T0", "T1"), ("T2", "T3"), ("T4", "T5")], 1) + results(
        [("T0", "T2"), ("T1", "T4"), ("T3", "T5")], 2
    )
    after = apply_cut(teams, history, 2)
    assert {e.id for e in after if e.status is Status.WITHDRAWN} == {"T5", "T4"} or {
        e.id for e in after if not e.active
    } == {"T5", "T3"}
    assert sum(1 for e in after if e.active) == 4
    with pytest.raises(MatchPlayError):
        SwissWithCut((CutUnit(4, 2), CutUnit(2, 0)))


def test_swiss_then_knockout():
    stage = SwissThenKnockout(4, KnockoutMatchRule(KnockoutDecision.BEST_OF, 3), ThirdPlace.PLAY)
    teams = field(6)
    history = results([("T0", "T1"), ("T2", "T3"), ("T4", "T5")], 1)
    seeds, plan = stage.draw(teams, history)
    assert set(seeds[:3]) == {"T0", "T2", "T4"} and len(seeds) == 4  # tied on every step: by lot
    assert plan[-1].bracket is Bracket.THIRD_PLACE
    with pytest.raises(MatchPlayError):
        SwissThenKnockout(6, KnockoutMatchRule(KnockoutDecision.BEST_OF, 3))


def test_manual_pairing_warnings_and_override():
    teams = [Entrant(id=t, reg=i + 1, club="X" if t in "AB" else None) for i, t in enumerate("ABCDE")]
    history = [*results([("A", "B"), ("C", "D")], 1), bye(1, "E")]
    options = SwissOptions(forbidden_pairs=frozenset({frozenset("CE")}))
    warnings = check_pairing(teams, history, 2, [("A", "B"), ("C", "E")], None, options)
    concerns = {w.concern for w in warnings}
    assert {Concern.REMATCH, Concern.FORBIDDEN, Concern.UNPAIRED} <= concerns
    record = override(teams, history, 2, [("A", "C"), ("B", "D")], "E", "table 3 unavailable", options)
    assert Concern.REPEATED_BYE in {w.concern for w in record.warnings}
    assert record.reason == "table 3 unavailable"
    with pytest.raises(MatchPlayError):
        check_pairing(teams, history, 2, [("A", "Z")])
    with pytest.raises(MatchPlayError):
        override(teams, history, 2, [("A", "C")], None, " ")


def test_manual_pairing_every_other_concern():
    teams = [
        Entrant(id="A", reg=1, club="X", region="JS"),
        Entrant(id="B", reg=2, club="X", region="JS"),
        Entrant(id="C", reg=3, region="AH"),
        Entrant(id="D", reg=4, region="AH"),
        Entrant(id="E", reg=5, status=Status.WITHDRAWN),
    ]
    from deckhand.competition.matchplay.swiss import ClubRule

    options = SwissOptions(clubs=ClubRule.FORBID)
    concerns = {w.concern for w in check_pairing(teams, [], 1, [("A", "B"), ("C", "D")], "E", options)}
    assert concerns == {Concern.SAME_CLUB, Concern.SAME_REGION_ROUND1, Concern.INACTIVE}
    assert check_pairing(teams, [], 1, [("A", "C"), ("B", "D")], None, options) == []
    # round 2: A, C won; B, D lost. A v C and B v D is the Swiss pairing (Σ MP² = 0), A v B is not.
    history = results([("A", "D"), ("C", "B")], 1)
    assert check_pairing(teams, history, 2, [("A", "C"), ("B", "D")]) == []
    costly = check_pairing(teams, history, 2, [("A", "B"), ("C", "D")])
    assert [w.concern for w in costly] == [Concern.COSTLIER]


def test_manual_pairing_warns_when_the_bye_is_not_the_rules():
    teams = field(5)
    history = results([("T0", "T1"), ("T2", "T3")], 1) + [bye(1, "T4")]
    # the bye rule: T3 (lowest without a bye; T1 has 0 MP too but stands above on registration)
    record = check_pairing(teams, history, 2, [("T0", "T2"), ("T4", "T1")], "T3")
    assert record == []
    moved = check_pairing(teams, history, 2, [("T0", "T2"), ("T4", "T3")], "T1")
    assert [(w.concern, w.teams) for w in moved] == [(Concern.BYE_RULE, ("T3",))]
