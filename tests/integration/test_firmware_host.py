"""The firmware on the host: a whole Big Two board by handsets, a whole deal by the dealing table,
a connection dropped mid-board (nothing lost, nothing doubled) and a misread card."""

import time

import pytest
from backend import FakeClock, create_table, setup_moto_env
from deckhand.engines.bigtwo.board import SeatView
from deckhand.engines.bigtwo.bot import BigTwoBot
from deckhand.engines.common.cards import format_cards
from deckhand.service.boards import store as board_store
from deckhand.service.duplicate import rounds, scoring
from deckhand.service.infra import clock
from deckhand.service.organiser import events
from deckhand.service.storage.models import DealItem
from firmware import Bridge, Device, start_broker
from moto import mock_aws

setup_moto_env()

THINGS = ["fw-0", "fw-1", "fw-2", "fw-3"]
EVENT = {
    "event_id": "fw",
    "name": "Firmware Cup",
    "ruleset": "bigtwo-2017",
    "grade": "unrated",
    "format": "pvp",
    "rounds": 1,
    "boards_per_round": 1,
    "groups": 1,
    "venue": True,
    "start": __import__("datetime").date(2026, 12, 14),
    "seed": "fw-seed",
}


@pytest.fixture
def venue(tmp_path):
    with mock_aws():
        create_table()
        clock.set_clock(None)
        broker, port = start_broker()
        calls = []

        def invoke(name, payload):
            calls.append(name)
            if name == "score":
                scoring.record_result(
                    bridge.rt, payload["event_id"], payload["round"], payload["table"], payload["board"]
                )
            elif name == "deal":
                rounds.deal_round(bridge.rt, payload["event_id"], payload["round"])

        bridge = Bridge(port, invoke)
        events.create_event(EVENT)
        events.register_players("fw", [{"id": f"P{i}"} for i in range(4)])
        events.register_tables("fw", [{"id": "T1", "seats": THINGS, "dealer": "fw-dealer"}])
        handsets = [Device(t, "handset", port, tmp_path / t) for t in THINGS]
        dealer = Device("fw-dealer", "dealer", port, tmp_path / "dealer")
        for d in [*handsets, dealer]:
            d.step()  # connect, subscribe, hello
        bridge.idle()
        yield bridge, handsets, dealer
        bridge.close()
        broker.stop()
        clock.set_clock(FakeClock())
        clock.set_clock(None)


def start_round(bridge, dealer, misread=False):
    rounds.request_next_round(bridge.rt, "fw")
    order = format_cards(DealItem.get("EVENT#fw", "DEAL#001#1#1").order)
    deck = list(order)
    if misread:
        deck[7], deck[8] = deck[8], deck[7]
    dealer.hal.reader.deck = deck
    return order


def pump(devices, bridge, rounds_=3):
    for _ in range(rounds_):
        for d in devices:
            d.step()
        bridge.idle()


def until(condition, devices, bridge, timeout=10):
    """Step the devices until ``condition()`` holds: messages take a moment to cross the broker."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached in time"
        pump(devices, bridge, 1)
        time.sleep(0.005)


def drive(bridge, handsets, dealer, *, drop_after=None, reboot_after=None, limit=4000):
    """Handsets driven by the bot through their buttons, until the board ends."""
    bots = [BigTwoBot("steady") for _ in handsets]
    acted = {}
    actions = 0
    dropped = False
    drive.unanswered = 0  # actions still unacknowledged when the link was cut
    for _ in range(limit):
        pump([*handsets, dealer], bridge, 1)
        item = board_store.load("fw", 1, "T1", "1")
        if item.status != "playing":
            return item, actions
        for i, h in enumerate(handsets):
            msg = h.last_view()
            if msg is None or msg["st"] != "playing" or acted.get(i) == msg["v"] or not h.app.ready():
                continue
            seat_view = bridge.sent.seat_view(h.cfg["thing"], msg)  # the engine's, next to the message
            action = bots[i].decide(SeatView.from_dict(seat_view))
            if action is None:
                assert not h.app.options()  # the screen asks exactly when the seat has a decision
                continue
            acted[i] = msg["v"]
            # The buttons: select the cards, step with next to the option that sends the action, ok.
            options = h.app.options()
            wanted = next(
                n
                for n, o in enumerate(options)
                if o["a"]["k"] == action.kind and o["a"].get("v", action.value) == action.value
            )
            hand = h.app.hand()
            for token in format_cards(action.cards):
                h.app.on_input(f"sel:{hand.index(token)}")
            while h.app.choice != wanted:
                h.app.on_input("next")
            h.app.on_input("ok")
            actions += 1
            if drop_after is not None and actions == drop_after and not dropped:
                # The action reached the broker; the link dies before the server's ack comes back.
                drive.unanswered = len(h.conn.queue)
                h.conn.client.drop()
                dropped = True
            if reboot_after is not None and actions == reboot_after and not dropped:
                # Power lost right after the action left: a new firmware instance, same flash.
                drive.unanswered = len(h.conn.queue)
                h.conn.client.drop()
                handsets[i] = type(h)(h.cfg["thing"], "handset", h.cfg["port"], h.state)
                acted.pop(i, None)
                dropped = True
        time.sleep(0.002)
    raise AssertionError("the board did not finish")


def test_whole_board_and_deal_through_the_firmware(venue):
    bridge, handsets, dealer = venue
    order = start_round(bridge, dealer)
    until(lambda: board_store.load("fw", 1, "T1", "1").dealt_ok is not None, [*handsets, dealer], bridge)
    assert dealer.hal.motor.dealt == [i % 4 for i in range(52)]
    assert dealer.app.done["1/1"] == order
    assert board_store.load("fw", 1, "T1", "1").dealt_ok is True
    # Every phase prompts in words, with its options (the first one highlighted).
    until(lambda: "Show your hand? (stakes x3)" in handsets[0].hal.display.lines, handsets, bridge)
    assert "[1 Show]  2 Don't show" in handsets[0].hal.display.lines
    item, actions = drive(bridge, handsets, dealer)
    assert item.status == "ended"
    device_msgs = [e["m"] for e in item.log if "m" in e]
    assert [o for o in bridge.outcomes if o["status"] != "accepted"] == []
    assert len(device_msgs) == len(set(device_msgs)) == actions + 1  # + the dealer's report
    assert scoring.list_results("fw", 1)[0].scores == board_store.result_of(item)["scores"]
    until(lambda: all(len(h.conn.queue) == 0 for h in [*handsets, dealer]), [*handsets, dealer], bridge)
    until(lambda: "board over" in handsets[0].hal.display.lines[0], handsets, bridge)


def test_dropped_connection_mid_board_loses_nothing_and_doubles_nothing(venue):
    bridge, handsets, dealer = venue
    start_round(bridge, dealer)
    item, actions = drive(bridge, handsets, dealer, drop_after=12)
    assert item.status == "ended"
    device_msgs = [e["m"] for e in item.log if "m" in e and e["s"] >= 0]
    assert len(device_msgs) == len(set(device_msgs)) == actions
    assert sum(h.conn.connects for h in handsets) == 5  # one handset reconnected
    # The unanswered action was resent after the reconnect: recognised as a duplicate when the first
    # copy had reached the server, applied once when the cut lost it; never refused, never doubled.
    assert {o["status"] for o in bridge.outcomes} <= {"accepted", "duplicate"}
    assert sum(o["status"] == "duplicate" for o in bridge.outcomes) <= drive.unanswered
    until(lambda: all(len(h.conn.queue) == 0 for h in handsets), [*handsets, dealer], bridge)


def test_misread_card_stops_the_deal_and_the_board(venue):
    bridge, handsets, dealer = venue
    start_round(bridge, dealer, misread=True)
    until(
        lambda: dealer.app.error is not None and dealer.hal.display.lines[0] == "STOPPED",
        [*handsets, dealer],
        bridge,
    )
    expected = format_cards(DealItem.get("EVENT#fw", "DEAL#001#1#1").order)
    assert dealer.app.problem == f"card 8 is {expected[8]}, the board has {expected[7]}"
    assert dealer.hal.motor.stops >= 1 and len(dealer.hal.motor.dealt) == 8
    assert dealer.hal.display.lines[0] == "STOPPED" and "card 8" in dealer.app.error
    item = board_store.load("fw", 1, "T1", "1")
    assert item.status == "stopped" and "card 8" in item.stop_reason
    until(lambda: any(line.startswith("STOPPED") for line in handsets[0].hal.display.lines), handsets, bridge)


def test_reboot_mid_board_resumes_from_hello_and_resends_the_unanswered_action(venue):
    bridge, handsets, dealer = venue
    start_round(bridge, dealer)
    item, actions = drive(bridge, handsets, dealer, reboot_after=9)
    assert item.status == "ended"
    device_msgs = [e["m"] for e in item.log if "m" in e and e["s"] >= 0]
    assert len(device_msgs) == len(set(device_msgs)) == actions
    assert {o["status"] for o in bridge.outcomes} <= {"accepted", "duplicate"}
    assert sum(o["status"] == "duplicate" for o in bridge.outcomes) <= drive.unanswered


def test_a_handset_no_table_has_says_so_and_is_taken_once_registered(venue, tmp_path):
    """An unknown thing's hello is refused `unknown_device`: the screen says so (never "waiting for the
    board" for ever), and once the referee registers it, its next hello is answered and the board comes."""
    bridge, handsets, dealer = venue
    stranger = Device("fw-spare", "handset", bridge_port(handsets), tmp_path / "spare")
    until(lambda: stranger.hal.display.lines[:1] == ["UNKNOWN DEVICE"], [stranger], bridge)
    assert "'fw-spare' is not assigned to any table" in stranger.hal.display.lines[1]
    assert stranger.hal.buzzer.beeps == 1
    events.register_tables("fw", [{"id": "T2", "seats": ["fw-spare", "fw-s1", "fw-s2", "fw-s3"]}])
    stranger.conn.hello_at = 0  # its next hello is due now (every 30 s while unknown)
    until(lambda: stranger.hal.display.lines == ["Waiting for the board…"], [stranger], bridge)


def bridge_port(devices):
    return devices[0].cfg["port"]
