"""The formats a match event runs beyond the plain Swiss (RULES.md §4.3; 002 §25–29): a 3rd-place
match, double elimination with and without the reset final, round-robin groups and double legs,
Swiss with cut, Swiss then a knockout, and a knockout match of several games.

Outcomes are decided by the referee's forfeits (a game forfeit ends a one-game match), so each test
picks who wins and checks what the format makes of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from deckhand.errors import DeckhandError
from deckhand.service.boards.round_boards import list_matches
from deckhand.service.duplicate import rounds
from deckhand.service.matches import results as match_results
from deckhand.service.matches import round_of_matches as match_rounds
from deckhand.service.organiser import events, pairs
from deckhand.service.refereeing import actions as referee
from test_backend_match import SeatBot, match_event, play

ONE_BOARD = {"end_mode": "boards", "boards": 1}


def fmt_event(
    b: Any, teams: list[str], rounds_: int, match: dict[str, Any], tables: int = 2
) -> list[SeatBot]:
    """An event of ``teams`` (seeded in the order given) with ``tables`` venue tables."""
    events.create_event(match_event(rounds=rounds_, match=match, options=ONE_BOARD))
    pairs.register_pairs(
        "league",
        [
            {"id": t, "seed": i + 1, "players": [{"id": f"{t}1"}, {"id": f"{t}2"}]}
            for i, t in enumerate(teams)
        ],
    )
    things = [f"fx-{t}-{s}" for t in range(tables) for s in range(4)]
    events.register_tables(
        "league", [{"id": f"T{t}", "seats": things[4 * t : 4 * t + 4]} for t in range(tables)]
    )
    return [SeatBot(b, t) for t in things]


def decide(b: Any, round_no: int, winner: Callable[[list[str]], str]) -> dict[str, str]:
    """Start the round and end each match by a forfeit of the pair ``winner`` does not name."""
    assert rounds.request_next_round(b.rt, "league") == round_no
    event = events.get_event("league")
    won = {}
    for m in list_matches("league", round_no):
        if not m.table:
            continue
        w = winner(list(m.pairs))
        loser = next(p for p in m.pairs if p != w)
        referee.record(event, {"kind": "forfeit", "player": f"{loser}1", "reason": "test"}, by="ref", rt=b.rt)
        won[m.rules.get("label") or m.table] = w
    assert rounds.round_status("league", round_no)["status"] == "done"
    return won


def better(order: str) -> Callable[[list[str]], str]:
    """The pair earlier in ``order`` wins."""
    return lambda pair: min(pair, key=order.index)


def places() -> dict[str, int]:
    event = events.get_event("league")
    return {s["team"]: s["place"] for s in match_results.standings(event, event.current_round)["standings"]}


def test_a_third_place_match_is_played_beside_the_final(backend):
    fmt_event(backend, list("ABCD"), 2, {"format": "knockout", "knockout": {"third_place": "play"}})
    decide(backend, 1, better("ABCD"))  # A beats D, B beats C
    final = match_rounds.get_pairing(events.get_event("league"), 2)
    assert sorted(map(sorted, final["pairs"])) == [["A", "B"], ["C", "D"]]
    assert sorted(final["labels"]) == ["3rd", "W2-1"]
    won = decide(backend, 2, better("BADC"))  # B takes the final, D the 3rd place
    assert won == {"W2-1": "B", "3rd": "D"}
    assert places() == {"B": 1, "A": 2, "D": 3, "C": 4}
    assert events.get_event("league").status == "finished"
    doc = match_results.results_document(events.get_event("league"), 2)
    assert sorted(m.get("bracket") for m in doc["matches"] if m["round"] == 2) == ["3rd", "W2-1"]


def test_double_elimination_knocks_a_pair_out_after_two_losses(backend):
    fmt_event(backend, list("ABCD"), 4, {"format": "double_elimination"})
    decide(backend, 1, better("ABCD"))  # W1: A>D, B>C
    second = match_rounds.get_pairing(events.get_event("league"), 2)
    # The winners' final and the losers' first match share the round.
    assert dict(zip(second["labels"], map(sorted, second["pairs"]), strict=True)) == {
        "W2-1": ["A", "B"],
        "L1-1": ["C", "D"],
    }
    decide(backend, 2, better("BADC"))  # B wins the winners' bracket, D knocks C out
    assert places()["C"] == 4
    third = match_rounds.get_pairing(events.get_event("league"), 3)
    assert third["labels"] == ["L2-1"] and sorted(third["pairs"][0]) == ["A", "D"]
    decide(backend, 3, better("ABCD"))  # A (one loss) beats D: D out after two losses
    decide(backend, 4, better("BACD"))  # the final: B, unbeaten, wins
    assert places() == {"B": 1, "A": 2, "D": 3, "C": 4}
    assert events.get_event("league").status == "finished"


def test_the_reset_final_is_played_only_when_the_losers_bracket_wins_the_first(backend):
    fmt_event(backend, list("ABCD"), 5, {"format": "double_elimination", "knockout": {"final": "reset"}})
    for r, order in enumerate(["ABCD", "BADC", "ABCD", "ABCD"], start=1):
        decide(backend, r, better(order))  # the final: A (from the losers' bracket) beats B
    assert events.get_event("league").status == "between_rounds"
    reset = match_rounds.get_pairing(events.get_event("league"), 5)
    assert reset["labels"] == ["F2"] and sorted(reset["pairs"][0]) == ["A", "B"]
    decide(backend, 5, better("ABCD"))
    assert places() == {"A": 1, "B": 2, "D": 3, "C": 4}
    assert events.get_event("league").status == "finished"


def test_a_reset_final_not_needed_ends_the_event_a_round_early(backend):
    fmt_event(backend, list("ABCD"), 5, {"format": "double_elimination", "knockout": {"final": "reset"}})
    for r, order in enumerate(["ABCD", "BADC", "ABCD", "BACD"], start=1):
        decide(backend, r, better(order))  # the final: B, unbeaten, wins: no reset
    event = events.get_event("league")
    assert event.status == "finished" and event.current_round == 4
    assert places() == {"B": 1, "A": 2, "D": 3, "C": 4}


def test_round_robin_groups_by_snake_and_a_double_leg_swaps_the_sides(backend):
    fmt_event(backend, list("ABCD"), 2, {"format": "round_robin", "round_robin": {"groups": 2, "legs": 2}})
    first = match_rounds.get_pairing(events.get_event("league"), 1)
    # Snake by seed: A and D in group A, B and C in group B.
    assert sorted(map(sorted, first["pairs"])) == [["A", "D"], ["B", "C"]]
    decide(backend, 1, better("ABCD"))
    second = match_rounds.get_pairing(events.get_event("league"), 2)
    assert sorted(map(tuple, second["pairs"])) == sorted((b, a) for a, b in first["pairs"])
    decide(backend, 2, better("ABCD"))
    standings = match_results.standings(events.get_event("league"), 2)["standings"]
    rows = {s["team"]: (s["group"], s["place"]) for s in standings}
    # Each group ranks its own pairs: A and B won both their games.
    assert rows == {"A": ("A", 1), "D": ("A", 2), "B": ("B", 1), "C": ("B", 2)}
    assert events.get_event("league").status == "finished"


def test_a_round_robin_with_more_groups_than_the_field_allows_is_refused(backend):
    fmt_event(backend, list("ABC"), 3, {"format": "round_robin", "round_robin": {"groups": 2}})
    with pytest.raises(events.Conflict, match="2 round-robin groups need at least 4 pairs"):
        match_rounds.get_pairing(events.get_event("league"), 1)


def test_swiss_with_cut_pairs_only_the_pairs_above_the_cut(backend):
    match = {"format": "swiss_with_cut", "stages": {"units": [{"rounds": 2, "leave": 2}, {"rounds": 1}]}}
    fmt_event(backend, list("ABCDEF"), 3, match, tables=3)
    decide(backend, 1, better("ABCDEF"))
    decide(backend, 2, better("ABCDEF"))
    third = match_rounds.get_pairing(events.get_event("league"), 3)
    playing = {t for p in third["pairs"] for t in p}
    assert len(playing) == 4 and third["bye"] is None
    standings = match_results.standings(events.get_event("league"), 2)["standings"]
    cut = {s["team"] for s in standings[-2:]}
    assert playing.isdisjoint(cut)
    decide(backend, 3, better("ABCDEF"))
    final = match_results.standings(events.get_event("league"), 3)["standings"]
    # The pairs cut after round 2 rank below every pair that played on, whatever their points.
    assert {s["team"] for s in final[-2:]} == cut and final[-2]["decided_by"] == "cut"
    assert [s["place"] for s in final] == sorted(s["place"] for s in final)


def test_the_stages_must_match_the_event_rounds(backend):
    match = {"format": "swiss_with_cut", "stages": {"units": [{"rounds": 2, "leave": 2}, {"rounds": 1}]}}
    with pytest.raises(DeckhandError, match="the stages take 3 rounds; the event has 4"):
        events.create_event(match_event(rounds=4, match=match, options=ONE_BOARD))
    with pytest.raises(DeckhandError, match="2ⁿ pairs"):
        events.create_event(
            match_event(rounds=3, match={"format": "swiss_then_knockout",
                                         "stages": {"swiss_rounds": 2, "qualifiers": 3}}, options=ONE_BOARD)
        )  # fmt: skip
    with pytest.raises(DeckhandError, match="a unit before a cut has 2–3 rounds"):
        bad = {"format": "swiss_with_cut", "stages": {"units": [{"rounds": 1, "leave": 2}, {"rounds": 1}]}}
        events.create_event(match_event(rounds=2, match=bad, options=ONE_BOARD))


def test_swiss_then_knockout_seeds_the_knockout_by_the_swiss(backend):
    match = {
        "format": "swiss_then_knockout",
        "stages": {"swiss_rounds": 2, "qualifiers": 2},
        "knockout": {"third_place": "none"},
    }
    fmt_event(backend, list("ABCD"), 3, match)
    decide(backend, 1, better("ABCD"))
    decide(backend, 2, better("ABCD"))
    swiss_top = [s["team"] for s in match_results.standings(events.get_event("league"), 2)["standings"]][:2]
    final = match_rounds.get_pairing(events.get_event("league"), 3)
    assert final["stage"] == "knockout" and sorted(final["pairs"][0]) == sorted(swiss_top)
    decide(backend, 3, better(swiss_top[1] + swiss_top[0] + "ABCD"))  # the Swiss's second wins
    result = match_results.standings(events.get_event("league"), 3)["standings"]
    assert [s["team"] for s in result[:2]] == [swiss_top[1], swiss_top[0]]
    assert [s["place"] for s in result] == [1, 2, 3, 4]
    assert [s["decided_by"] for s in result[:2]] == ["knockout", "knockout"]
    assert events.get_event("league").status == "finished"


def test_a_knockout_match_best_of_three_plays_until_a_pair_has_won_two(backend):
    bots = fmt_event(
        backend,
        list("AB"),
        1,
        {"format": "knockout", "knockout": {"match": {"decision": "best_of", "games": 3}}},
        tables=1,
    )
    rounds.request_next_round(backend.rt, "league")
    play(bots)
    (m,) = [m for m in list_matches("league", 1) if m.table]
    wins = [sum(1 for g in m.games if g["mp"][side] == 2) for side in (0, 1)]
    assert sorted(wins)[1] == 2 and 2 <= len(m.games) <= 3
    assert all(g["mp"] in ([2, 0], [0, 2]) for g in m.games), "no drawn game in a knockout"
    assert m.result["mp"] == ([2, 0] if wins[0] == 2 else [0, 2])
    assert m.result["lp"] == [sum(g["lp"][s] for g in m.games) for s in (0, 1)]
    assert m.rules["knockout"] == {"decision": "best_of", "games": 3}


def test_knockout_match_rules_are_checked(backend):
    with pytest.raises(DeckhandError, match="best_of is played over 3 or 5 games"):
        events.create_event(
            match_event(
                match={"format": "knockout", "knockout": {"match": {"decision": "best_of", "games": 2}}}
            )
        )
    with pytest.raises(DeckhandError, match="only for the formats with a knockout"):
        events.create_event(
            match_event(match={"format": "swiss",
                               "knockout": {"match": {"decision": "best_of", "games": 3}}})
        )  # fmt: skip
    with pytest.raises(DeckhandError, match="a reset final is a double elimination's option"):
        events.create_event(match_event(match={"format": "knockout", "knockout": {"final": "reset"}}))


SUMMED = {"format": "knockout", "knockout": {"match": {"decision": "summed_level_points", "games": 2}}}


def _penalty(b: Any, kind: str, player: str) -> None:
    referee.record(
        events.get_event("league"), {"kind": kind, "player": player, "reason": "test"}, by="ref", rt=b.rt
    )


def test_equal_summed_level_points_are_decided_by_one_extra_board(backend):
    bots = fmt_event(backend, list("AB"), 1, SUMMED, tables=1)
    rounds.request_next_round(backend.rt, "league")
    _penalty(backend, "forfeit", "A1")  # game 1: B 18:0
    _penalty(backend, "forfeit", "B1")  # game 2: A 18:0 — the sums are equal
    (m,) = [m for m in list_matches("league", 1) if m.table]
    assert m.status == "playing" and len(m.games) == 2 and m.rules["decider"] == m.boards[-1]
    from deckhand.service.boards import store as board_store

    extra = board_store.load("league", 1, m.table, m.boards[-1])
    assert extra.carry["options"]["boards"] == 1 and extra.carry["options"]["draws"] is False
    assert extra.clock_ends_at == 0
    play(bots)
    (m,) = [m for m in list_matches("league", 1) if m.table]
    assert m.status == "done" and m.games[-1]["decider"] is True and len(m.boards) == 3
    extra_winner = 0 if m.games[-1]["mp"][0] == 2 else 1
    assert m.result["mp"] == ([2, 0] if extra_winner == 0 else [0, 2])
    assert m.result["lp"] == [18, 18], "the extra board decides; it adds no level points"
    assert places()[m.pairs[extra_winner]] == 1


def test_a_disqualified_pair_loses_a_summed_match_whatever_its_points(backend):
    fmt_event(backend, list("AB"), 1, SUMMED, tables=1)
    rounds.request_next_round(backend.rt, "league")
    _penalty(backend, "forfeit", "B1")  # game 1: A 18:0
    _penalty(backend, "disqualify", "A1")  # game 2: B wins it, and the match
    (m,) = [m for m in list_matches("league", 1) if m.table]
    assert m.status == "done" and m.result["kind"] == "forfeit"
    assert m.result["mp"] == ([0, 2] if m.pairs[0] == "A" else [2, 0])
    assert places() == {"B": 1, "A": 2}


def test_the_extra_board_option_rules_out_a_draw_between_leading_pairs_in_the_last_round(backend):
    fmt_event(backend, list("ABCD"), 2, {"format": "swiss", "extra_board": {"last_rounds": 1, "leading": 2}})
    decide(backend, 1, better("ABCD"))
    leaders = {s["team"] for s in match_results.standings(events.get_event("league"), 1)["standings"][:2]}
    assert rounds.request_next_round(backend.rt, "league") == 2
    drawn = {}
    for m in list_matches("league", 2):
        if m.table:
            drawn[frozenset(m.pairs)] = m.rules["options"]["draws"]
    assert drawn[frozenset(leaders)] is False  # 002 §27.三: an extra board decides a level game
    assert [v for k, v in drawn.items() if k != frozenset(leaders)] == [True]
    first = [m for m in list_matches("league", 1) if m.table]
    assert all(m.rules["options"]["draws"] is True for m in first), "only the last round"
    with pytest.raises(DeckhandError, match="a Swiss's option"):
        events.create_event(
            match_event(event_id="cup", match={"format": "knockout", "extra_board": {"last_rounds": 1}})
        )


def _out(b: Any, team: str) -> None:
    """Disqualify ``team`` at its match in play (it loses it; never paired again)."""
    _penalty(b, "disqualify", f"{team}1")


def test_a_round_of_forfeits_only_ends_at_once(backend):
    fmt_event(backend, list("ABCD"), 4, {"format": "double_elimination"})
    decide(backend, 1, better("ABCD"))  # W1: A>D, B>C
    assert rounds.request_next_round(backend.rt, "league") == 2  # W2-1 A v B, L1-1 C v D
    _out(backend, "B")  # B loses W2-1 and leaves: its losers' match is a forfeit
    _penalty(backend, "forfeit", "C1")  # D beats C in L1-1
    assert rounds.round_status("league", 2)["status"] == "done"
    third = match_rounds.get_pairing(events.get_event("league"), 3)
    assert third["pairs"] == [] and third["forfeits"] == [["D", "B"]]
    assert rounds.request_next_round(backend.rt, "league") == 3
    assert rounds.round_status("league", 3)["status"] == "done", "no table: done when dealt"
    assert events.get_event("league").status == "between_rounds"


def test_two_withdrawn_pairs_meeting_in_a_bracket_do_not_stop_it(backend):
    fmt_event(backend, list("ABCDEFGH"), 6, {"format": "double_elimination"}, tables=4)
    assert rounds.request_next_round(backend.rt, "league") == 1
    _out(backend, "H")
    _out(backend, "E")
    for m in list_matches("league", 1):
        if m.status == "playing":
            loser = max(m.pairs, key="ABCDEFGH".index)
            _penalty(backend, "forfeit", f"{loser}1")
    assert rounds.round_status("league", 1)["status"] == "done"
    second = match_rounds.get_pairing(events.get_event("league"), 2)
    assert ["E", "H"] not in [sorted(p) for p in second["pairs"]] and all(
        "H" not in f for f in second["forfeits"]
    )
    decide(backend, 2, better("ABCDEFGH"))
    assert rounds.round_status("league", 2)["status"] == "done"
    assert match_rounds.get_pairing(events.get_event("league"), 3)["pairs"]


def test_a_disqualified_pair_is_left_out_of_the_next_pairing_stored_at_the_round_end(backend):
    fmt_event(backend, list("ABCD"), 3, {"format": "swiss"})
    assert rounds.request_next_round(backend.rt, "league") == 1
    (first, last) = [m for m in list_matches("league", 1) if m.table]
    _penalty(backend, "forfeit", f"{first.pairs[1]}1")
    _out(backend, last.pairs[1])  # the round's last match: the round ends with it
    stored = match_rounds.get_pairing(events.get_event("league"), 2)
    assert stored["stored"] and last.pairs[1] not in {t for p in stored["pairs"] for t in p}


def test_swiss_then_knockout_keeps_its_seeds_when_a_qualifier_leaves(backend):
    match = {"format": "swiss_then_knockout", "stages": {"swiss_rounds": 1, "qualifiers": 4}}
    fmt_event(backend, list("ABCDEF"), 3, match, tables=3)
    decide(backend, 1, better("ABCDEF"))
    ko = match_rounds.get_pairing(events.get_event("league"), 2)
    assert ko["stored"] and len(ko["seeds"]) == 4 and ko["stage"] == "knockout"
    assert rounds.request_next_round(backend.rt, "league") == 2
    ms = [m for m in list_matches("league", 2) if m.table]
    _out(backend, ms[0].pairs[0])  # a qualifier is disqualified in the knockout
    for m in ms[1:]:
        _penalty(backend, "forfeit", f"{m.pairs[1]}1")
    assert rounds.round_status("league", 2)["status"] == "done"
    final = match_rounds.get_pairing(events.get_event("league"), 3)
    assert final["pairs"] and len(final["pairs"]) == 1
    standings = match_results.standings(events.get_event("league"), 2)["standings"]
    assert len(standings) == 6 and {s["team"] for s in standings[:4]} == set(ko["seeds"])


def test_a_field_too_small_for_the_knockout_is_told_when_the_next_round_starts(backend):
    match = {"format": "swiss_then_knockout", "stages": {"swiss_rounds": 1, "qualifiers": 4}}
    fmt_event(backend, list("ABCD"), 3, match)
    assert rounds.request_next_round(backend.rt, "league") == 1
    _out(backend, "D")
    _penalty(backend, "forfeit", "C1")
    assert rounds.round_status("league", 1)["status"] == "done", "the round that ended stays ended"
    with pytest.raises(events.Conflict, match="the knockout takes 4 pairs; only 3 are still in"):
        rounds.request_next_round(backend.rt, "league")


def test_a_cut_is_kept_as_made_and_a_pair_out_early_ranks_below_it(backend):
    match = {"format": "swiss_with_cut", "stages": {"units": [{"rounds": 2, "leave": 2}, {"rounds": 1}]}}
    fmt_event(backend, list("ABCDEF"), 3, match, tables=3)
    assert rounds.request_next_round(backend.rt, "league") == 1
    _out(backend, "F")  # out in round 1, before the cut
    for m in list_matches("league", 1):
        if m.status == "playing":
            _penalty(backend, "forfeit", f"{max(m.pairs, key='ABCDEF'.index)}1")
    decide(backend, 2, better("ABCDEF"))
    third = match_rounds.get_pairing(events.get_event("league"), 3)
    (cut,) = third["cuts"].values()
    assert len(cut) == 2 and "F" not in cut
    decide(backend, 3, better("ABCDEF"))
    final = match_results.standings(events.get_event("league"), 3)["standings"]
    assert final[-1]["team"] == "F" and {s["team"] for s in final[-3:-1]} == set(cut)
    assert final[-1]["place"] == 6 and min(s["place"] for s in final[-3:-1]) == 4


def test_a_bracket_round_cannot_be_paired_by_hand(backend):
    fmt_event(backend, list("ABCD"), 2, {"format": "knockout"})
    with pytest.raises(events.Conflict, match="only a Swiss round is paired by hand"):
        match_rounds.override_pairing(
            events.get_event("league"), 1, [["A", "B"], ["C", "D"]], None, "x", "ref"
        )


def test_a_withdrawn_pair_leaves_the_swiss_and_a_late_pair_joins_it(backend):
    fmt_event(backend, list("ABCD"), 3, {"format": "swiss"})
    decide(backend, 1, better("ABCD"))
    referee.record(
        events.get_event("league"),
        {"kind": "withdraw", "player": "A2", "reason": "x"},
        by="ref",
        rt=backend.rt,
    )
    pairs.register_pairs("league", [{"id": "E", "players": [{"id": "E1"}, {"id": "E2"}]}])
    assert rounds.request_next_round(backend.rt, "league") == 2  # the round as it is dealt
    second = [m.pairs for m in list_matches("league", 2) if m.table]
    playing = {t for p in second for t in p}
    assert "A" not in playing and "E" in playing and len(playing) == 4
    assert {s["team"] for s in match_results.standings(events.get_event("league"), 1)["standings"]} >= {"A"}


def test_a_late_pair_cannot_join_a_round_robin(backend):
    fmt_event(backend, list("ABCD"), 3, {"format": "round_robin"})
    decide(backend, 1, better("ABCD"))
    with pytest.raises(events.Conflict, match="a late entry joins a Swiss only"):
        pairs.register_pairs("league", [{"id": "E", "players": [{"id": "E1"}, {"id": "E2"}]}])


def test_a_pair_withdrawn_between_rounds_forfeits_its_scheduled_game(backend):
    fmt_event(backend, list("ABCD"), 3, {"format": "round_robin"})
    decide(backend, 1, better("ABCD"))
    referee.record(
        events.get_event("league"),
        {"kind": "withdraw", "player": "A1", "reason": "x"},
        by="ref",
        rt=backend.rt,
    )
    assert rounds.request_next_round(backend.rt, "league") == 2
    tables = [m.pairs for m in list_matches("league", 2) if m.table]
    forfeits = [m.pairs for m in list_matches("league", 2) if not m.table]
    assert all("A" not in p for p in tables) and len(forfeits) == 1 and forfeits[0][1] == "A"


def test_an_override_seating_a_withdrawn_pair_is_refused_when_the_round_starts(backend):
    fmt_event(backend, list("ABCD"), 3, {"format": "swiss"})
    decide(backend, 1, better("ABCD"))
    event = events.get_event("league")
    stored = match_rounds.get_pairing(event, 2)
    match_rounds.override_pairing(event, 2, stored["pairs"], None, "as computed", "ref")
    referee.record(
        events.get_event("league"),
        {"kind": "withdraw", "player": "B1", "reason": "x"},
        by="ref",
        rt=backend.rt,
    )
    with pytest.raises(events.Conflict, match="withdrawn since: pair the round again"):
        rounds.request_next_round(backend.rt, "league")
