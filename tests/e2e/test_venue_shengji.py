"""A Shengji match event through the whole local venue (RULES.md §5): handsets on the real firmware
that get their cards one at a time and declare while they come, a dealing table whose reads release
the cards at its table, the kitty buried on the dealer's handset — clean, and again with faults
during the deals (the dealing table's reports lost and resent, a handset power-cycled mid-deal,
duplicate deliveries, handler failures), which change no result."""

import io
from typing import Any

import pytest
from deckhand_local.venue.demo_event import DemoEvent, Faults
from helpers import dropped_only_waiting_resends

# 4 pairs at 2 tables (the first with a dealing table); a 2-round Swiss of matches of 6 minutes.
SMALL: dict[str, Any] = {
    "seed": "ci-shengji",
    "ruleset": "shengji-yaoji2010",
    "players": 8,
    "tables": 2,
    "rounds": 2,
    "minutes": 6,
    "dealers": 1,
}


def without_steps(matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The matches with each board's play record as decisions only: when a dealing table's report
    arrives (all at once, or after a lost link) sets where the deal's steps fall, never what is decided."""
    out = []
    for m in matches:
        boards = [
            {**b, "play": sorted(str(s) for s in b.get("play", []) if s.get("t") != "step")}
            for b in m.get("boards") or []
        ]
        out.append({**m, "boards": boards})
    return out


@pytest.fixture(scope="module")
def shengji_event(tmp_path_factory, dynamodb_local):
    out = tmp_path_factory.mktemp("out")
    log = io.StringIO()
    document = DemoEvent(**SMALL, out=out, log=log, dynamodb_endpoint=dynamodb_local).run()
    return document, log.getvalue()


def test_a_swiss_of_shengji_matches_runs_through_the_venue_with_paced_deals(shengji_event):
    document, log = shengji_event
    assert "Round 2 done" in log and "Final standings" in log
    played = [m for m in document["matches"] if not m.get("bye")]
    assert len(played) == 4 and all(m["result"] is not None for m in played)
    boards = [b for m in played for b in m["boards"]]
    assert boards and all(len(b["kitty"]) == 8 and "declarer" in b for b in boards)
    for m in played:
        for before, after in zip(m["boards"], m["boards"][1:], strict=False):
            assert after["levels_before"] == before["levels_after"]  # carried
    # Cards came in steps, and the bots declared while they came (before the 100th card) somewhere.
    mid_deal = 0
    for b in boards:
        out = 0
        for step in b["play"]:
            if step["t"] == "step":
                out = step["n"]
            elif step["t"] == "declare" and out < 100:
                mid_deal += 1
        assert out == 100
    assert mid_deal > 0


def test_faults_during_paced_deals_change_no_result(shengji_event, tmp_path, dynamodb_local):
    clean, _ = shengji_event
    event = DemoEvent(
        **SMALL,
        out=tmp_path / "out",
        faults=Faults(
            duplicate_every=11,
            handler_fails=29,
            dealer_drops_at=30,
            reboot_at_tick=10,
            reorder_every=13,
        ),
        log=io.StringIO(),
        dynamodb_endpoint=dynamodb_local,
    )
    faulty = event.run()
    assert event.injected["dealer_drops"] >= 2 and event.injected["reboots"] == 1
    assert event.injected["duplicates"] >= 3 and event.injected["handler_failures"] >= 3
    assert event.failed == 0 and dropped_only_waiting_resends(event.dropped)
    assert event.audit["doubled"] == event.audit["replay_mismatches"] == event.audit["results_missing"] == 0
    assert event.audit["lost"] == 0
    assert without_steps(faulty["matches"]) == without_steps(clean["matches"])
    assert faulty["standings"] == clean["standings"]


def test_declarations_racing_through_the_venue_are_taken_one_after_the_other(tmp_path, dynamodb_local):
    """Whenever a bot declares while the cards come, another seat of its table presses Declare at the
    same moment: both go through the bridge's workers at once; each is checked against the state the
    other left (accepted as an overcall, or refused with the rule's reason), nothing is lost or doubled."""
    event = DemoEvent(
        **{**SMALL, "rounds": 1},
        out=tmp_path / "out",
        faults=Faults(race_declarations=True),
        log=io.StringIO(),
        dynamodb_endpoint=dynamodb_local,
    )
    document = event.run()
    assert event.injected["races"] >= 1
    assert event.failed == 0 and dropped_only_waiting_resends(event.dropped)
    assert event.audit["doubled"] == event.audit["replay_mismatches"] == event.audit["results_missing"] == 0
    assert event.audit["lost"] == 0
    assert all(m["result"] is not None for m in document["matches"] if not m.get("bye"))
    # Refused, if at all, by the rules (a declaration that does not overcall), never as a bad message.
    refused = {code for code in event.outcomes if code not in ("accepted", "duplicate")}
    assert not refused & {"malformed", "bad_card", "wrong_board", "board_over", "not_your_seat"}, refused
