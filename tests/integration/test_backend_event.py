"""A whole Big Two duplicate event through the services, with bots acting by device messages."""

import copy
from typing import Any

import pytest
from backend import (
    CUP_EVENT,
    THINGS,
    Backend,
    DeviceBot,
    create_table,
    prepare,
    restore_items,
    setup_moto_env,
    table_items,
)
from deckhand.competition.documents import parse_results, standings_document
from deckhand.competition.standings import standings
from deckhand.engines.registry import game
from deckhand.service.duplicate import rounds, scoring
from deckhand.service.organiser import events
from moto import mock_aws

setup_moto_env()


def run_round(b: Backend, bots: list[DeviceBot], limit: int = 5000) -> None:
    for _ in range(limit):
        moved = False
        for bot in bots:
            outcome = bot.act()
            if outcome is not None:
                assert outcome["status"] == "accepted", outcome
                moved = True
        if not moved:
            return
    raise AssertionError("the round did not finish")


@pytest.fixture(scope="module")
def round_one_played() -> dict[str, Any]:
    """The cup's round 1 played by the bots once for the file: its items and what its backend and bots
    kept (messages, seat views, invocations, clock, message counters), and the round's status as it
    started."""
    with mock_aws():
        create_table()
        b = Backend()
        bots = prepare(b)
        rounds.request_next_round(b.rt, "cup")
        status_at_start = rounds.round_status("cup", 1)
        run_round(b, bots)
        return {
            "status_at_start": status_at_start,
            "items": table_items(),
            "sent": b.publisher.sent,
            "seat_views": b.publisher.seat_views,
            "invocations": b.invocations,
            "ms": b.clock.ms,
            "counters": [bot.counter for bot in bots],
        }


@pytest.fixture
def played(round_one_played, backend) -> list[DeviceBot]:
    """The cup with round 1 played (round_one_played copied into this test's own table and backend):
    its bots, ready for round 2."""
    state = copy.deepcopy(round_one_played)
    restore_items(state["items"])
    backend.publisher.sent[:] = state["sent"]
    backend.publisher.seat_views.update(state["seat_views"])
    backend.invocations[:] = state["invocations"]
    backend.clock.ms = state["ms"]
    bots = [DeviceBot(backend, t) for t in THINGS]
    for bot, counter in zip(bots, state["counters"], strict=True):
        bot.counter = counter
    return bots


def test_whole_event_through_device_messages(round_one_played, played, backend):
    for round_no in (1, 2):
        if round_no == 1:  # played by round_one_played, through the same device messages
            status = round_one_played["status_at_start"]
        else:
            assert rounds.request_next_round(backend.rt, "cup") == round_no
            status = rounds.round_status("cup", round_no)
        assert status["status"] == "playing" and "salt" not in status
        if round_no == 2:
            run_round(backend, played)
        status = rounds.round_status("cup", round_no)
        assert status["status"] == "done" and status["boards_done"] == status["boards_total"] == 4
        assert all(b["status"] == "ended" for t in status["tables"] for b in t["boards"])
    event = events.get_event("cup")
    assert event.status == "finished"
    # The stored standings equal the competition core's on the logged results.
    ruleset, boards = parse_results(scoring.results_export(event))
    assert len(boards) == 4 and all(len(b.results) == 8 for b in boards)
    names = {p["id"]: p["name"] for p in scoring.registrations(event)}  # unnamed players: their ids
    expected = standings_document(*standings(boards, ruleset), names)
    assert scoring.compute_standings(event, 2) == expected
    assert all(s["name"] == s["player"] for s in expected["standings"])
    from deckhand.service.storage.models import StandingsItem

    assert StandingsItem.get("EVENT#cup", "STANDINGS#002").document == expected
    assert sorted(s["player"] for s in expected["standings"]) == [f"P{i}" for i in range(1, 9)]


def test_each_device_gets_only_its_own_hand(backend):
    prepare(backend)
    rounds.request_next_round(backend.rt, "cup")
    hands = {}
    for thing in THINGS:
        msg = backend.last_view(thing)
        assert msg["s"] == THINGS.index(thing) % 4
        assert len(msg["h"]) == 13 and msg["h"] == backend.seat_view(thing, msg)["hand"]
        assert msg["l"] and "view" not in msg  # the screen: status lines, not the engine's view
        hands[thing] = set(msg["h"])
    table_a = [hands[t] for t in THINGS[:4]]
    assert set.union(*table_a) == {c for h in table_a for c in h} and sum(map(len, table_a)) == 52
    # No message to a handset ever holds another seat's cards; the dealer gets the order, handsets never.
    for thing in THINGS:
        for payload in backend.publisher.to(thing):
            assert payload["t"] != "deal"
            if payload["t"] == "view":
                assert set(payload["h"]) <= hands[thing]
                assert set(backend.seat_view(thing, payload)["hand"]) <= hands[thing]
    deals = [p for p in backend.publisher.to("dealer-A") if p["t"] == "deal"]
    assert len(deals) == 1 and len(deals[0]["order"]) == 52


def test_the_handset_of_an_ai_seat_never_shows_the_hand(backend):
    """Seven players at two tables of four: the seat the AI plays has a handset, which stays blank."""
    events.create_event(CUP_EVENT)
    events.register_players("cup", [{"id": f"P{i}"} for i in range(1, 8)])
    events.register_tables("cup", [{"id": "A", "seats": THINGS[:4]}, {"id": "B", "seats": THINGS[4:]}])
    bots = [DeviceBot(backend, t) for t in THINGS]
    rounds.request_next_round(backend.rt, "cup")
    run_round(backend, bots)
    viewed = {t for t in THINGS if any(p["t"] == "view" for p in backend.publisher.to(t))}
    assert len(viewed) == 7
    (idle,) = set(THINGS) - viewed
    assert backend.send(idle, {"t": "hello", "msg": "h-ai"})["status"] == "accepted"
    assert [p["t"] for p in backend.publisher.to(idle)] == ["ack"]  # a hello gets no view either


def test_commitment_is_published_at_start_and_verifiable_after_the_round(played, backend):
    start = [p for t, p in backend.publisher.sent if t == "dh/events/cup" and p["t"] == "round"]
    assert len(start) == 1
    end = [p for t, p in backend.publisher.sent if t == "dh/events/cup" and p["t"] == "round_end"]
    assert len(end) == 1 and end[0]["commit"] == start[0]["commit"]
    salt = end[0]["salt"]
    deals = {f"1/{b}": rounds.deal_order(salt, 1, b, game("bigtwo-2017")) for b in ("1", "2")}
    assert rounds.commitment(salt, deals) == start[0]["commit"]
    # ...and the deals so recomputed are the ones that were played.
    from deckhand.service.boards import store as board_store

    item = board_store.load("cup", 1, "A", "1")
    assert item.log and board_store.engine_of(item)[1].to_dict()["d"] == [
        sorted(deals["1/1"][s::4]) for s in range(4)
    ]


def test_every_board_replays_from_its_log_to_the_stored_result(played, backend):
    from deckhand.service.boards import log as board_log
    from deckhand.service.boards import store as board_store
    from deckhand.service.storage.models import DealItem, ResultItem

    for table in ("A", "B"):
        for board in ("1", "2"):
            item = board_store.load("cup", 1, table, board)
            order = DealItem.get("EVENT#cup", f"DEAL#001#1#{board}").order
            replayed = board_log.replay(item, order)
            assert replayed.to_json() == item.state
            stored = ResultItem.get("EVENT#cup", f"RESULT#001#{table}#{board}")
            assert replayed.result()["scores"] == stored.scores
            assert sum(stored.play_time) == sum(item.play_ms) / 1000
            assert all({"s", "t", "at"} <= set(e) for e in item.log)


def test_score_retries_never_count_twice(played, backend):
    from deckhand.service.storage.models import RoundItem

    assert rounds.get_progress("cup", 1) == (4, 4)
    # A Lambda retry of every score invocation, and a retry of the deal: nothing changes.
    for name, payload in list(backend.invocations):
        if name == "score":
            args = (payload["event_id"], payload["round"], payload["table"], payload["board"])
            assert scoring.record_result(backend.rt, *args) is False
    after = RoundItem.get("EVENT#cup", "ROUND#001")
    assert (rounds.get_progress("cup", 1), after.status) == ((4, 4), "done")
    assert len(scoring.list_results("cup", 1)) == 4


def test_the_export_carries_hand_and_play_records_only_for_rounds_that_are_done(played, backend):
    from deckhand.engines.common.cards import format_cards
    from deckhand.service.boards import store as board_store
    from deckhand.service.storage.models import DealItem

    rounds.request_next_round(backend.rt, "cup")  # round 2 in play, nothing of it played yet
    played[0].act()
    doc = scoring.results_export(events.get_event("cup"))
    done = [b for b in doc["boards"] if b["round"] == 1]
    assert done and all("deal" in b and "play" in b for b in done)
    assert all("deal" not in b and "play" not in b for b in doc["boards"] if b["round"] == 2)
    b = done[0]
    order = DealItem.get("EVENT#cup", f"DEAL#001#{b['group']}#{b['board']}").order
    hands = b["deal"]["hands"]
    assert len(hands) == 4 and sorted(c for h in hands for c in h) == sorted(format_cards(order))
    assert b["deal"]["deal_number"] == 1 and b["deal"]["kitty"] == []
    for play in b["play"]:
        item = board_store.load("cup", 1, play["table"], b["board"])
        kept = ("s", "t", "c", "v", "d", "n", "by")  # never the press's time or message id
        played = [e for e in item.log if e["t"] not in ("dealt", "call")]
        assert play["steps"] == [{k: e[k] for k in kept if k in e} for e in played]
        # The first play of each table is by a seat holding the cards it played (the hand record's).
        first = next(s for s in play["steps"] if s.get("c"))
        assert set(first["c"]) <= set(hands[first["s"]])


def test_the_round_status_seats_every_player_by_name_and_the_handset_only_for_staff(backend):
    from backend import CUP_EVENT

    events.create_event({**CUP_EVENT})
    events.register_players("cup", [{"id": f"P{i}", "name": f"Player {i}"} for i in range(1, 9)])
    events.register_tables("cup", [{"id": "A", "seats": THINGS[:4]}, {"id": "B", "seats": THINGS[4:]}])
    rounds.request_next_round(backend.rt, "cup")
    staff = rounds.round_status("cup", 1)
    rows = [p for t in staff["tables"] for p in t["players"]]
    assert len(rows) == 8 and {p["name"] for p in rows} == {f"Player {i}" for i in range(1, 9)}
    things = {p["thing"] for p in rows}
    assert things == set(THINGS)
    public = rounds.round_status("cup", 1, staff=False)
    assert all("thing" not in p for t in public["tables"] for p in t["players"])
    # Each handset says whose seat it is at a board's start, until a player first acts.
    where = {p["thing"]: p for p in rows}
    for thing in THINGS:
        view = backend.last_view(thing)
        assert view is not None and f"You: {where[thing]['name']} (seat {where[thing]['seat']})" in view["l"]
    bots = [DeviceBot(backend, t) for t in THINGS]
    while not any(b.act() for b in bots):
        pass
    acted = [backend.last_view(t) for t in THINGS[:4]]
    assert not any(line.startswith("You: ") for v in acted if v for line in v["l"])


def test_a_withdrawn_player_keeps_results_and_a_late_entry_takes_a_seat(played, backend):
    from deckhand.service.refereeing import actions as referee

    event = events.get_event("cup")
    referee.record(event, {"kind": "withdraw", "player": "P1", "reason": "ill"}, by="ref", rt=backend.rt)
    late = events.register_players("cup", [{"id": "P9", "name": "Late Li"}])  # a substitute, between rounds
    assert late[0].number == 9
    rounds.request_next_round(backend.rt, "cup")
    seated = {p["player"] for t in rounds.round_status("cup", 2)["tables"] for p in t["players"]}
    assert "P1" not in seated and "P9" in seated and len(seated) == 8
    with pytest.raises(events.Conflict, match="not while the event is playing"):
        events.register_players("cup", [{"id": "P10"}])
    run_round(backend, played)
    standings = scoring.compute_standings(events.get_event("cup"), 2)["standings"]
    assert {s["player"] for s in standings} >= {"P1", "P9"}, "P1 keeps its round-1 results"
    assert [a["kind"] for a in referee.audit_log("cup")] == ["withdraw"]
