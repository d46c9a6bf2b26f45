"""A match event through the organiser API: its body, pairs, the pairing before a round, its
override (warned and logged), the exports, and the refusals that change nothing."""

from __future__ import annotations

import csv
import io

from api_calls import ALICE, BOB, call
from api_calls import api_under_moto as under_moto
from backend import Backend

LEAGUE = {
    "event_id": "league",
    "name": "Harbour Pairs",
    "ruleset": "guandan-2023",
    "grade": "unrated",
    "rounds": 3,
    "start": "2026-12-14",
    "match": {"format": "swiss", "same_boards": False},
    "options": {"end_mode": "boards", "boards": 2},
}
PAIRS = {
    "pairs": [
        {"id": p, "name": f"Pair {p}", "players": [{"id": f"{p}1"}, {"id": f"{p}2"}], "region": f"R{i % 2}"}
        for i, p in enumerate("ABCD")
    ]
}
TABLES = {"tables": [{"id": f"T{t}", "seats": [f"gd-T{t}-{s}" for s in range(4)]} for t in (1, 2)]}


def test_a_match_event_is_created_with_its_settings_and_pairs():
    with under_moto(Backend().rt) as api:
        status, event = call(api, "POST", "/events", LEAGUE)
        assert status == 201, event
        assert event["match"]["format"] == "swiss" and event["options"]["end_mode"] == "boards"
        status, body = call(api, "POST", "/events/league/pairs", PAIRS)
        assert status == 201 and [r["number"] for r in body["registered"]] == [1, 2, 3, 4]
        status, listed = call(api, "GET", "/events/league/pairs")
        assert [p["id"] for p in listed["pairs"]] == list("ABCD")
        assert listed["pairs"][0]["players"] == [{"id": "A1", "name": "A1"}, {"id": "A2", "name": "A2"}]
        # Someone else may not register pairs in Alice's event.
        assert call(api, "POST", "/events/league/pairs", PAIRS, caller=BOB)[0] == 403


def test_bad_match_settings_are_refused_naming_the_field():
    with under_moto() as api:
        for change, fragment in (
            ({"match": {"format": "ladder"}}, "match.format"),
            ({"options": {"end_mode": "sunset"}}, "options"),
            ({"options": {"end_mode": "boards"}, "match": {"no_new_board_after": 50}}, "no clock"),
            ({"match": {"swiss": {"round1": "coin"}}}, "match.swiss"),
            ({"ruleset": "bigtwo-2017", "boards_per_round": 2}, "duplicate"),
            ({"match": {"format": "round_robin", "round_robin": {"legs": 3}}}, "match.round_robin.legs"),
            (
                {"match": {"format": "double_elimination", "knockout": {"final": "twice"}}},
                "match.knockout.final",
            ),
            ({"match": {"format": "swiss_with_cut"}}, "match.stages.units"),
            ({"match": {"format": "swiss", "stages": {"qualifiers": 4}}}, "match.stages"),
            ({"match": {"deal_ms": -1}}, "deal_ms"),
            ({"match": {"deal_ms": 60_000}}, "deal_ms"),
            ({"match": {"deal_ms": "fast"}}, "deal_ms"),
            ({"ruleset": "shengji-yaoji2010", "options": {"minutes": 60, "boards": 8}}, "options"),
        ):
            status, body = call(api, "POST", "/events", {**LEAGUE, **change})
            assert status in (400, 422) and fragment in body["error"], (change, body)
        assert call(api, "GET", "/events/league")[0] == 404
        staged = {
            "format": "swiss_then_knockout",
            "stages": {"swiss_rounds": 1, "qualifiers": 4},
            "knockout": {"third_place": "play", "match": {"decision": "summed_level_points", "games": 2}},
        }
        status, body = call(api, "POST", "/events", {**LEAGUE, "event_id": "cup", "match": staged})
        assert status == 201 and body["match"]["stages"] == {"swiss_rounds": 1, "qualifiers": 4}, body
        assert body["match"]["knockout"]["match"] == {"decision": "summed_level_points", "games": 2}
        # A pair of three players, or a player in two pairs, is refused whole.
        assert call(api, "POST", "/events", LEAGUE)[0] == 201
        three = {"pairs": [{"id": "A", "players": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}]}
        assert call(api, "POST", "/events/league/pairs", three)[0] == 422
        twice = {"pairs": [{"id": "A", "players": [{"id": "a"}, {"id": "b"}]},
                           {"id": "B", "players": [{"id": "a"}, {"id": "c"}]}]}  # fmt: skip
        status, body = call(api, "POST", "/events/league/pairs", twice)
        assert status == 409 and "'a'" in body["error"]
        assert call(api, "GET", "/events/league/pairs")[1] == {"pairs": []}
        # Single players belong to duplicate events.
        assert call(api, "POST", "/events/league/players", {"players": [{"id": "P1"}]})[0] == 409


def test_a_shengji_event_takes_the_pace_of_its_deal_and_its_presets_options():
    shengji = {**LEAGUE, "event_id": "cup", "ruleset": "shengji-common", "match": {"deal_ms": 500}}
    with under_moto(Backend().rt) as api:
        status, event = call(api, "POST", "/events", {**shengji, "options": {"target": "A"}})
        assert status == 201, event
        assert event["match"]["deal_ms"] == 500 and event["options"]["target"] == "A"
        status, event = call(
            api, "POST", "/events", {**shengji, "event_id": "cup2", "options": {}, "match": {}}
        )
        assert status == 201 and event["match"]["deal_ms"] == 250  # four players draw a card a second


def test_the_pairing_is_shown_before_the_round_and_an_override_is_logged():
    backend = Backend()
    with under_moto(backend.rt) as api:
        call(api, "POST", "/events", LEAGUE)
        call(api, "POST", "/events/league/pairs", PAIRS)
        call(api, "POST", "/events/league/tables", TABLES)
        status, pairing = call(api, "GET", "/events/league/rounds/1/pairing")
        assert status == 200 and pairing["source"] == "swiss" and not pairing["stored"]
        assert sorted(t for p in pairing["pairs"] for t in p) == list("ABCD")
        # Round 1 separates regions (RULES.md §4.3): A and C share R0, B and D R1.
        same = [["A", "C"], ["B", "D"]]
        status, shown = call(
            api, "PUT", "/events/league/rounds/1/pairing", {"pairs": same, "reason": "the TV table"}
        )
        assert status == 200 and shown["source"] == "override" and shown["stored"]
        assert {w["concern"] for w in shown["warnings"]} == {"same_region_round1"}
        status, audit = call(api, "GET", "/events/league/audit")
        assert [a["kind"] for a in audit["audit"]] == ["pairing_override"]
        assert audit["audit"][0]["by"] == ALICE and audit["audit"][0]["reason"] == "the TV table"
        # An unknown pair is refused, and the stored override stays.
        status, body = call(
            api, "PUT", "/events/league/rounds/1/pairing", {"pairs": [["A", "Z"]], "reason": "x"}
        )
        assert status == 400 and "Z" in body["error"]
        assert call(api, "GET", "/events/league/rounds/1/pairing")[1]["pairs"] == same
        # Not the next round: refused.
        status, body = call(api, "PUT", "/events/league/rounds/2/pairing", {"pairs": same, "reason": "x"})
        assert status == 409
        assert call(api, "POST", "/events/league/rounds")[0] == 202
        status, round_status = call(api, "GET", "/events/league/rounds/1")
        assert sorted(t["pairs"] for t in round_status["tables"]) == same
        assert [t["number"] for t in round_status["tables"]] == [1, 2]
        assert round_status["matches_total"] == 2 and "boards_total" not in round_status
        # The round is under way: its pairing can no longer be changed.
        status, _ = call(api, "PUT", "/events/league/rounds/1/pairing", {"pairs": same, "reason": "x"})
        assert status == 409


def test_exports_of_a_match_event_show_nothing_of_the_round_in_play():
    backend = Backend()
    with under_moto(backend.rt) as api:
        call(api, "POST", "/events", LEAGUE)
        call(api, "POST", "/events/league/pairs", PAIRS)
        call(api, "POST", "/events/league/tables", TABLES)
        call(api, "POST", "/events/league/rounds")
        status, doc = call(api, "GET", "/events/league/export")
        assert status == 200 and doc["results"]["matches"] == []
        status, text = call(api, "GET", "/events/league/export?format=csv")
        assert status == 200 and list(csv.reader(io.StringIO(text)))[1:] == []
        status, text = call(api, "GET", "/events/league/export?format=html")
        assert status == 200 and "Harbour Pairs" in text
        status, text = call(api, "GET", "/events/league/export?format=standings-csv")
        rows = list(csv.DictReader(io.StringIO(text)))
        assert sorted(r["team"] for r in rows) == list("ABCD") and {r["mp"] for r in rows} == {"0"}
