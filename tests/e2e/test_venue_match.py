"""A match event (pairs, the game whose boards carry) through the whole local venue: handsets on the
real firmware, dealing tables reading 108 cards, the bridge, the handlers, DynamoDB Local — clean, and
again with faults, which must change nothing."""

import io
import json
from pathlib import Path

import pytest
from deckhand.competition.matchplay import ranking
from deckhand.competition.matchplay.entrants import Entrant, MatchResult, ResultKind
from deckhand.engines.registry import RULESETS, game
from deckhand.engines.spec import Competition
from deckhand_local.venue.demo_event import DemoEvent, Faults
from helpers import dropped_only_waiting_resends, plays_in_any_order

MATCH_RULESET = next(r for r in RULESETS if game(r).competition is Competition.MATCH)
# 4 pairs at 2 tables, each with a dealing table; a 2-round Swiss of matches of 2 boards.
SMALL = {
    "seed": "ci-match",
    "ruleset": MATCH_RULESET,
    "players": 8,
    "tables": 2,
    "rounds": 2,
    "boards": 2,
    "dealers": 2,
}


@pytest.fixture(scope="module")
def match_event(tmp_path_factory, dynamodb_local):
    out = tmp_path_factory.mktemp("out")
    log = io.StringIO()
    document = DemoEvent(**SMALL, out=out, log=log, dynamodb_endpoint=dynamodb_local).run()
    return out, document, log.getvalue()


def test_a_swiss_of_matches_runs_through_the_venue(match_event):
    out, document, log = match_event
    assert "Round 2 done" in log and "Final standings" in log
    played = [m for m in document["matches"] if not m.get("bye")]
    assert len(played) == 4 and len({frozenset(m["pairs"]) for m in played}) == 4  # no rematch
    for m in played:
        assert m["result"] is not None and [b["board"] for b in m["boards"]] == [1, 2]
        assert m["boards"][1]["levels_before"] == m["boards"][0]["levels_after"]  # carried
    # The standings are the competition core's on the exported matches.
    teams = sorted({p for m in played for p in m["pairs"]})
    history = [
        MatchResult(m["round"], a, b, (m["result"]["mp"][a], m["result"]["mp"][b]),
                    (m["result"]["lp"][a], m["result"]["lp"][b]), ResultKind(m["result"]["kind"]))
        for m in played
        for a, b in [m["pairs"]]
    ]  # fmt: skip
    entrants = [Entrant(id=t, reg=int(t[1:])) for t in teams]
    expected = ranking.rank(entrants, history)
    assert [(s["team"], s["place"], s["mp"], s["lp"], s["opp"]) for s in document["standings"]] == [
        (s.team, s.place, s.mp, s.lp, s.opp) for s in expected
    ]
    for name in ("results.json", "results.csv", "boards.csv", "standings.csv", "results.html"):
        assert (Path(out) / name).stat().st_size > 0
    assert json.loads((Path(out) / "results.json").read_text())["matches"] == document["matches"]


def test_match_commitments_are_revealed_and_verify(match_event):
    import hashlib

    _, document, _ = match_event
    for r in document["rounds"]:
        assert hashlib.sha256(f"deckhand/match-round/{r['salt']}".encode()).hexdigest() == r["commitment"]


def test_faults_through_the_venue_change_no_match_result(match_event, tmp_path, dynamodb_local):
    """Dropped links, duplicate deliveries, out-of-turn presses, handler failures, reordered messages
    and a dealing table misreading one of its 108 cards: the same matches, boards and standings."""
    _, clean, _ = match_event
    log = io.StringIO()
    event = DemoEvent(
        **SMALL,
        out=tmp_path / "out",
        faults=Faults(
            drop_every=23,
            duplicate_every=11,
            concurrent_every=17,
            misread_board="1",
            handler_fails=29,
            reorder_every=13,
        ),
        log=log,
        dynamodb_endpoint=dynamodb_local,
    )
    faulty = event.run()
    assert event.injected["drops"] >= 3 and event.injected["duplicates"] >= 5
    assert event.injected["concurrent"] >= 3 and event.injected["handler_failures"] >= 3
    assert event.failed == 0 and dropped_only_waiting_resends(event.dropped)
    assert event.audit["boards"] == 8 and event.audit["device_actions"] > 0
    assert event.audit["doubled"] == event.audit["replay_mismatches"] == event.audit["results_missing"] == 0
    assert event.audit["lost"] == 0
    refused = sum(event.outcomes.get(code, 0) for code in ("not_your_turn", "phase_closed", "board_over"))
    assert refused == event.injected["concurrent"]
    assert plays_in_any_order(faulty["matches"]) == plays_in_any_order(clean["matches"])
    assert faulty["standings"] == clean["standings"]
    assert [r["commitment"] for r in faulty["rounds"]] == [r["commitment"] for r in clean["rounds"]]
