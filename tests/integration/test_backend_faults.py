"""Bad, duplicate, racing and late device messages: a clear rejection, nothing changed, nothing lost."""

import threading

import pytest
from backend import THINGS, Backend, create_table, prepare, setup_moto_env
from deckhand.service.boards import store as board_store
from deckhand.service.duplicate import rounds
from moto import mock_aws

setup_moto_env()


@pytest.fixture
def started():
    with mock_aws():
        create_table()
        b = Backend()
        bots = prepare(b)
        rounds.request_next_round(b.rt, "cup")
        yield b, bots


def snapshot(b):
    item = board_store.load("cup", 1, "A", "1")
    return item.state, item.version, len(item.log)


def last_reply(b, thing):
    return [p for p in b.publisher.to(thing) if p["t"] in ("ack", "reject")][-1]


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ("not an object", "malformed"),
        ({"t": "fly", "msg": "m1", "board": "1"}, "malformed"),
        ({"t": "act", "board": "1", "a": {"k": "show", "v": 1}}, "malformed"),
        ({"t": "act", "msg": "m 1", "board": "1", "a": {"k": "show", "v": 1}}, "malformed"),
        ({"t": "act", "msg": "m1", "a": {"k": "show", "v": 1}}, "malformed"),
        ({"t": "act", "msg": "m1", "board": "1", "a": {"k": "show", "v": 2}}, "malformed"),
        ({"t": "act", "msg": "m1", "board": "1", "a": {"k": "show", "v": True}}, "malformed"),
        ({"t": "act", "msg": "m1", "board": "1", "a": {"k": "play", "c": []}}, "malformed"),
        ({"t": "act", "msg": "m1", "board": "1", "a": {"k": "play", "c": "D3"}}, "malformed"),
        ({"t": "act", "msg": "m1", "board": "1", "a": {"k": "play", "c": ["X9"]}}, "bad_card"),
        ({"t": "act", "msg": "m1", "board": "1", "a": {"k": "play", "c": ["D3", "D3"]}}, "bad_card"),
        ({"t": "act", "msg": "m1", "board": "1", "a": {"k": "play", "c": ["D3"]}}, "phase_closed"),
        ({"t": "act", "msg": "m1", "board": "1", "a": {"k": "double", "v": 1}}, "phase_closed"),
        ({"t": "act", "msg": "m1", "board": "9", "a": {"k": "show", "v": 1}}, "wrong_board"),
        ({"t": "act", "msg": "m1", "board": "2", "a": {"k": "show", "v": 1}}, "wrong_board"),
        # Protocol v2: one action message, its action in ``a``, checked against the game's schema.
        ({"t": "show", "msg": "m1", "board": "1", "v": 1}, "malformed"),
        ({"t": "act", "msg": "m1", "board": "1"}, "malformed"),
        ({"t": "act", "msg": "m1", "board": "1", "a": "show"}, "malformed"),
        ({"t": "act", "msg": "m1", "board": "1", "a": {"v": 1}}, "malformed"),
        ({"t": "act", "msg": "m1", "board": "1", "a": {"k": "fly"}}, "malformed"),
        ({"t": "act", "msg": "m1", "board": "1", "a": {"k": "play"}}, "malformed"),
        ({"t": "act", "msg": "m1", "board": "1", "r": None, "a": {"k": "pass"}}, "malformed"),
        ({"t": "act", "msg": "m1", "board": "1", "r": 0, "a": {"k": "pass"}}, "malformed"),
        ({"t": "dealt", "msg": "m1", "board": "1", "cards": ["D3"]}, "not_your_seat"),
    ],
)
def test_bad_messages_are_rejected_with_a_reason_and_change_nothing(started, payload, code):
    b, _ = started
    before = snapshot(b)
    outcome = b.send("hs-A-0", payload)
    assert outcome["status"] == "rejected" and outcome["code"] == code, outcome
    reply = last_reply(b, "hs-A-0")
    assert reply["t"] == "reject" and reply["code"] == code and reply["why"]
    assert snapshot(b) == before


def test_unknown_thing_is_rejected(started):
    b, _ = started
    before = snapshot(b)
    outcome = b.send("stranger", {"t": "act", "msg": "m1", "board": "1", "a": {"k": "show", "v": 1}})
    assert outcome["code"] == "unknown_device"
    assert b.publisher.to("stranger")[-1]["code"] == "unknown_device"
    assert snapshot(b) == before


def test_device_acts_only_for_its_own_seat(started):
    b, _ = started
    item = board_store.load("cup", 1, "A", "1")
    # hs-A-1 sends; the action is recorded for seat 1 whatever it claims.
    assert (
        b.send("hs-A-1", {"t": "act", "msg": "x", "board": "1", "seat": 3, "a": {"k": "show", "v": 0}})[
            "status"
        ]
        == "accepted"
    )
    item = board_store.load("cup", 1, "A", "1")
    assert item.log[-1]["s"] == 1 and item.log[-1]["m"] == "x"
    # A device of table B cannot act on table A's board.
    before = snapshot(b)
    assert (
        b.send("hs-B-0", {"t": "act", "msg": "y", "board": "1", "a": {"k": "show", "v": 0}})["status"]
        == "accepted"
    )
    assert snapshot(b) == before  # it went to table B's board, not A's


def test_out_of_turn_is_rejected(started):
    b, bots = started
    for thing in THINGS[:4]:
        b.send(thing, {"t": "act", "msg": f"s-{thing}", "board": "1", "a": {"k": "show", "v": 0}})
    item = board_store.load("cup", 1, "A", "1")
    engine = board_store.engine_of(item)[1]
    turn = engine.turn
    other = THINGS[(turn + 1) % 4]
    before = snapshot(b)
    outcome = b.send(other, {"t": "act", "msg": "d1", "board": "1", "a": {"k": "double", "v": 1}})
    assert outcome["code"] == "not_your_turn"
    assert snapshot(b) == before


def test_duplicate_delivery_is_acknowledged_again_and_applied_once(started):
    b, _ = started
    message = {"t": "act", "msg": "dup-1", "board": "1", "a": {"k": "show", "v": 1}}
    assert b.send("hs-A-2", message)["status"] == "accepted"
    after_first = snapshot(b)
    assert b.send("hs-A-2", message)["status"] == "duplicate"
    item = board_store.load("cup", 1, "A", "1")
    # With the board's version: the first ack may have been lost with the link (regression, soak).
    assert last_reply(b, "hs-A-2") == {"t": "ack", "msg": "dup-1", "dup": True, "v": item.version}
    assert snapshot(b) == after_first
    item = board_store.load("cup", 1, "A", "1")
    assert sum(1 for e in item.log if e.get("m") == "dup-1") == 1
    # The same message id from another device is that device's own message.
    assert b.send("hs-A-3", message)["status"] == "accepted"


def test_two_handsets_racing_for_one_turn_exactly_one_wins(started):
    b, _ = started
    for thing in THINGS[:4]:
        b.send(thing, {"t": "act", "msg": f"s-{thing}", "board": "1", "a": {"k": "show", "v": 0}})
    item = board_store.load("cup", 1, "A", "1")
    turn = board_store.engine_of(item)[1].turn
    # Two messages for the same decision from the seat, sent at once with different ids, and one
    # from the next seat: only the seat whose turn it is wins, once.
    outcomes = {}

    def send(key, thing, msg):
        outcomes[key] = b.send(thing, {"t": "act", "msg": msg, "board": "1", "a": {"k": "double", "v": 1}})

    threads = [
        threading.Thread(target=send, args=("a", THINGS[turn], "race-a")),
        threading.Thread(target=send, args=("b", THINGS[turn], "race-b")),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    statuses = sorted(o["status"] for o in outcomes.values())
    assert statuses == ["accepted", "rejected"], outcomes
    loser = next(o for o in outcomes.values() if o["status"] == "rejected")
    assert loser["code"] == "not_your_turn"
    item = board_store.load("cup", 1, "A", "1")
    assert sum(1 for e in item.log if e["t"] == "double") == 1


def test_lost_race_is_retried_not_lost(started, monkeypatch):
    """A write that loses the version check is redone on the new state (and may then succeed)."""
    b, _ = started
    original = board_store.load
    calls = {"n": 0}

    def stale_once(*key):
        item = original(*key)
        calls["n"] += 1
        if calls["n"] == 2 and item is not None:
            # Someone else writes between our read and our save.
            other = original(*key)
            other.save()
        return item

    monkeypatch.setattr(board_store, "load", stale_once)
    assert (
        b.send("hs-A-0", {"t": "act", "msg": "r1", "board": "1", "a": {"k": "show", "v": 0}})["status"]
        == "accepted"
    )
    monkeypatch.setattr(board_store, "load", original)
    item = board_store.load("cup", 1, "A", "1")
    assert [e["m"] for e in item.log if "m" in e] == ["r1"]


def test_timeout_applies_the_default_and_is_recorded(started):
    b, _ = started
    b.send("hs-A-0", {"t": "act", "msg": "s0", "board": "1", "a": {"k": "show", "v": 1}})
    b.clock.advance(9_999)
    assert b.sweep()["timeouts"] == 0
    b.clock.advance(2)
    counts = b.sweep()
    assert counts["timeouts"] == 3 + 4  # table A: three undecided seats; table B: all four
    item = board_store.load("cup", 1, "A", "1")
    timeouts = [e for e in item.log if e.get("to")]
    assert [(e["s"], e["t"], e["v"]) for e in timeouts] == [(1, "show", 0), (2, "show", 0), (3, "show", 0)]
    engine = board_store.engine_of(item)[1]
    assert engine.phase == "double" and engine.shown == [1, 0, 0, 0]
    assert item.play_ms[1] == 10_000  # a timed-out decision counts its whole allowance
    # The devices were told: each got a new view.
    assert b.seat_view("hs-A-1")["phase"] == "double"
    assert b.last_view("hs-A-1")["l"][0].startswith("Double phase: ")


def test_timeouts_are_applied_on_an_incoming_message_too(started):
    b, _ = started
    version = board_store.load("cup", 1, "A", "1").version
    b.clock.advance(10_001)
    # Nobody chose to show within 10 s: the first message after that finds the show phase over.
    outcome = b.send("hs-A-0", {"t": "act", "msg": "late", "board": "1", "a": {"k": "show", "v": 1}})
    assert outcome["code"] == "phase_closed"
    item = board_store.load("cup", 1, "A", "1")
    assert item.version == version  # the rejection saved nothing, timeouts included
    assert b.sweep()["timeouts"] == 8


def test_hello_resends_the_current_view(started):
    b, _ = started
    b.publisher.clear()
    assert b.send("hs-A-2", {"t": "hello", "msg": "h1"})["status"] == "accepted"
    sent = b.publisher.to("hs-A-2")
    assert sent[0] == {"t": "ack", "msg": "h1"}
    assert sent[1]["t"] == "view" and sent[1]["s"] == 2 and len(sent[1]["h"]) == 13
    assert b.send("dealer-A", {"t": "hello", "msg": "h2"})["status"] == "accepted"
    assert b.publisher.to("dealer-A")[-1]["t"] == "deal"


def test_dealt_checked_against_the_board(started):
    b, _ = started
    order = b.publisher.to("dealer-A")[-1]["order"]
    assert (
        b.send("dealer-A", {"t": "dealt", "msg": "d1", "board": "1", "cards": order})["status"] == "accepted"
    )
    assert board_store.load("cup", 1, "A", "1").dealt_ok is True


def test_dealt_mismatch_stops_the_board_and_is_reported(started):
    b, _ = started
    order = b.publisher.to("dealer-A")[-1]["order"]
    misread = [*order]
    misread[5], misread[6] = misread[6], misread[5]
    outcome = b.send("dealer-A", {"t": "dealt", "msg": "d1", "board": "1", "cards": misread})
    assert outcome["code"] == "deal_mismatch" and "card 6" in outcome["why"]
    item = board_store.load("cup", 1, "A", "1")
    assert item.status == "stopped" and "card 6" in item.stop_reason
    assert b.publisher.to("hs-A-0")[-1] == {"t": "stopped", "b": "1", "why": "board stopped, referee called"}
    assert {"t": "stopped", "b": "1", "why": item.stop_reason} in b.publisher.to("dealer-A")
    # Play on a stopped board is refused.
    assert (
        b.send("hs-A-0", {"t": "act", "msg": "s", "board": "1", "a": {"k": "show", "v": 0}})["code"]
        == "board_stopped"
    )
    # A short deal is reported too.
    short = b.send("dealer-A", {"t": "dealt", "msg": "d2", "board": "1", "cards": order[:40]})
    assert "only 40 of 52" in short["why"]


def test_a_misread_report_overtaken_by_the_correct_one_changes_nothing(started):
    """Regression (fault test with reordered messages): the table's misread report and its correct
    report after the redeal arrived the other way round, and the late misread stopped the board."""
    b, _ = started
    order = b.publisher.to("dealer-A")[-1]["order"]
    misread = [*order]
    misread[5], misread[6] = misread[6], misread[5]
    assert (
        b.send("dealer-A", {"t": "dealt", "msg": "d2", "board": "1", "cards": order})["status"] == "accepted"
    )
    assert (
        b.send("dealer-A", {"t": "dealt", "msg": "d1", "board": "1", "cards": misread})["status"]
        == "accepted"
    )
    item = board_store.load("cup", 1, "A", "1")
    assert item.status == "playing" and not item.stop_reason and item.dealt_ok is True
    assert (
        b.send("hs-A-0", {"t": "act", "msg": "s", "board": "1", "a": {"k": "show", "v": 0}})["status"]
        == "accepted"
    )


def test_a_correct_deal_after_a_misread_resumes_the_stopped_board(started):
    """The referee clears the jam and the table deals the board again: a correct report resumes play
    where it stopped, every seat gets its view again, and a second stop would need a new misread."""
    b, _ = started
    order = b.publisher.to("dealer-A")[-1]["order"]
    misread = [*order]
    misread[0], misread[1] = misread[1], misread[0]
    assert b.send("dealer-A", {"t": "dealt", "msg": "d1", "board": "1", "cards": misread})["code"] == (
        "deal_mismatch"
    )
    stopped = board_store.load("cup", 1, "A", "1")
    b.publisher.clear()
    assert b.send("dealer-A", {"t": "dealt", "msg": "d2", "board": "1", "cards": order}) == {
        "status": "accepted"
    }
    item = board_store.load("cup", 1, "A", "1")
    assert item.status == "playing" and not item.stop_reason and item.dealt_ok is True
    assert item.state == stopped.state  # nothing was played or undone while it stood still
    assert item.deadline > 0
    for seat in range(4):
        view = b.publisher.to(f"hs-A-{seat}")[-1]
        assert view["t"] == "view" and view["st"] == "playing" and view["s"] == seat
    # The same correct report again is a duplicate, not a second resume.
    assert b.send("dealer-A", {"t": "dealt", "msg": "d2", "board": "1", "cards": order})["status"] == (
        "duplicate"
    )
    assert board_store.load("cup", 1, "A", "1").version == item.version


def test_the_audit_counts_an_accepted_action_that_no_log_holds(started):
    from deckhand.service.refereeing.replay_audit import audit_event

    b, _ = started
    assert (
        b.send("hs-A-2", {"t": "act", "msg": "kept-1", "board": "1", "a": {"k": "show", "v": 0}})["status"]
        == "accepted"
    )
    audit = audit_event("cup", accepted=[("hs-A-2", "kept-1")])
    assert audit["lost"] == audit["doubled"] == audit["replay_mismatches"] == 0
    assert audit["device_actions"] == 1
    assert audit_event("cup", accepted=[("hs-A-2", "kept-1"), ("hs-A-2", "never-logged")])["lost"] == 1


@pytest.mark.parametrize("value", [None, "x", [1], 2.5])
def test_a_value_on_a_pass_is_ignored_not_a_crash(started, value):
    """Regression (fuzzing): ``"v": null`` on a pass raised TypeError in the handler. Fields a
    message type does not have are ignored (docs/protocol.md): ``cards`` on a pass too."""
    b, _ = started
    message = {"t": "act", "msg": "p-1", "board": "1", "a": {"k": "pass", "v": value, "c": value}}
    outcome = b.send("hs-A-0", message)
    assert outcome["status"] == "rejected" and outcome["code"] == "phase_closed"  # a pass in the show phase


def test_a_view_gives_the_time_left_to_decide_never_the_epoch_deadline(started):
    """A handset's clock counts from its boot: ``dl`` is the milliseconds left as the view is sent
    (the show decision's 10 s), not the server's epoch deadline (`YOUR TURN 1795354859s`)."""
    b, _ = started
    view = b.last_view("hs-B-0")
    assert view is not None and view["ask"] and view["dl"] == 10_000
    b.clock.advance(3_500)
    b.send("hs-B-0", {"t": "hello", "msg": "again-1"})  # the full view again, 3.5 s later
    assert b.last_view("hs-B-0")["dl"] == 6_500
    b.clock.advance(6_499)
    b.send("hs-B-0", {"t": "hello", "msg": "again-2"})
    assert b.last_view("hs-B-0")["dl"] == 1


def test_a_hello_from_a_thing_no_table_has_is_refused_unknown_device(started):
    """Not acknowledged (the device would wait for a board for ever): refused, with its message id."""
    b, _ = started
    outcome = b.send("stranger", {"t": "hello", "msg": "h-1"})
    assert outcome["code"] == "unknown_device"
    reply = b.publisher.to("stranger")[-1]
    assert reply == {
        "t": "reject",
        "msg": "h-1",
        "code": "unknown_device",
        "why": "thing 'stranger' is not assigned to any table",
    }
