"""A knockout of pairs through the services (RULES.md §4.3 Single elimination): seeds by strength,
a walkover for the strongest when the field is short, no drawn game, winners go on, places by the
round a pair was knocked out in."""

from __future__ import annotations

import pytest
from deckhand.competition.matchplay import knockout
from deckhand.service.boards.round_boards import list_matches
from deckhand.service.duplicate import rounds
from deckhand.service.matches import results as match_results
from deckhand.service.matches import round_of_matches as match_rounds
from deckhand.service.organiser import events, pairs
from test_backend_match import PAIRS, THINGS, SeatBot, match_event, play

KNOCKOUT = {"format": "knockout"}
SEEDS = {"N": 4, "E": 1, "S": 3, "W": 2}


def knockout_event(backend, teams: list[str], rounds_: int) -> list[SeatBot]:
    events.create_event(
        match_event(rounds=rounds_, match=KNOCKOUT, options={"end_mode": "boards", "boards": 1})
    )
    pairs.register_pairs(
        "league",
        [{"id": p, "seed": SEEDS.get(p), "players": [{"id": f"{p}1"}, {"id": f"{p}2"}]} for p in teams],
    )
    events.register_tables("league", [{"id": "A", "seats": THINGS[:4]}, {"id": "B", "seats": THINGS[4:]}])
    return [SeatBot(backend, t) for t in THINGS]


def test_a_knockout_of_four_plays_semifinals_then_the_final(backend):
    bots = knockout_event(backend, PAIRS, 2)
    event = events.get_event("league")
    assert event.options["draws"] is False  # a knockout game level at its end plays on
    first = match_rounds.get_pairing(event, 1)
    # Seeds E1 W2 S3 N4: 1 v 4 and 2 v 3 (RULES.md §4.3, the standard bracket).
    assert sorted(sorted(p) for p in first["pairs"]) == [["E", "N"], ["S", "W"]]
    rounds.request_next_round(backend.rt, "league")
    play(bots)
    semis = [m for m in list_matches("league", 1) if m.table]
    winners = {m.pairs[0] if m.result["mp"][0] == 2 else m.pairs[1] for m in semis}
    assert all(m.result["mp"] in ([2, 0], [0, 2]) for m in semis), "no draw in a knockout"
    final = match_rounds.get_pairing(events.get_event("league"), 2)
    assert {t for p in final["pairs"] for t in p} == winners and len(final["pairs"]) == 1
    rounds.request_next_round(backend.rt, "league")
    play(bots)
    (m,) = [m for m in list_matches("league", 2) if m.table]
    champion = m.pairs[0] if m.result["mp"][0] == 2 else m.pairs[1]
    standings = match_results.standings(events.get_event("league"), 2)["standings"]
    places = {s["team"]: s["place"] for s in standings}
    assert places[champion] == 1 and sorted(places.values()) == [1, 2, 3, 3]
    assert {s["decided_by"] for s in standings} == {"knockout"}
    assert events.get_event("league").status == "finished"


def test_a_short_field_gives_the_strongest_a_walkover(backend):
    bots = knockout_event(backend, ["E", "S", "W"], 2)
    pairing = match_rounds.get_pairing(events.get_event("league"), 1)
    assert pairing["pairs"] == [["W", "S"]] or pairing["pairs"] == [["S", "W"]]
    assert pairing["walkovers"] == ["E"]
    rounds.request_next_round(backend.rt, "league")
    play(bots)
    final = match_rounds.get_pairing(events.get_event("league"), 2)
    (pair,) = final["pairs"]
    assert "E" in pair


def test_a_knockout_needs_as_many_rounds_as_its_bracket(backend):
    knockout_event(backend, PAIRS, 3)  # 4 pairs: 2 rounds
    with pytest.raises(events.Conflict, match="takes 2 rounds"):
        rounds.request_next_round(backend.rt, "league")


def test_the_bracket_places_follow_the_round_lost():
    plan = knockout.single_elimination(8)
    # Seeds 1…8; 1, 2, 3, 4 win round 1; 1 and 2 the semis; 1 the final.
    winners = {"W1-1": 1, "W1-2": 4, "W1-3": 2, "W1-4": 3, "W2-1": 1, "W2-2": 2, "W3-1": 1}
    places = knockout.knockout_places(plan, winners, list(range(1, 9)))
    assert places == {1: 1, 2: 2, 4: 3, 3: 3, 5: 5, 6: 5, 7: 5, 8: 5}
    # After round 1 only: the four still in share the first place, the four out the fifth.
    early = knockout.knockout_places(
        plan, {k: v for k, v in winners.items() if k.startswith("W1")}, list(range(1, 9))
    )
    assert early == {1: 1, 2: 1, 3: 1, 4: 1, 5: 5, 6: 5, 7: 5, 8: 5}
