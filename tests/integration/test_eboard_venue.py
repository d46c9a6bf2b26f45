"""The local venue's simulated electronic board (venue/simulated.py): the real firmware over the embedded
broker and the bridge, with the backend under moto — the players' hands move the pieces, one wrong move
stops the board, the referee puts the pieces back (the board reports its position) and resumes it, and
the board's moves go on."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from backend import create_table
from deckhand.engines.registry import game
from deckhand.service.boards import store as board_store
from deckhand.service.duplicate import rounds, scoring
from deckhand.service.infra import clock
from deckhand.service.organiser import events, pairs
from deckhand.service.refereeing import actions as referee
from deckhand_local.venue.provisioning import VenueLink
from deckhand_local.venue.simulated import ElectronicBoard
from firmware import CREDENTIALS, Bridge, Device, start_broker
from moto import mock_aws

EVENT = "ebv"
XIANGQI = "xiangqi-2004"


def hands(pos: dict) -> list[str] | None:
    """The players: the seat to move's bot, on the game the server keeps (what the pieces show)."""
    item = board_store.load(EVENT, 1, "T1", pos["b"])
    if item is None or item.status != "playing":
        return None
    _, board = board_store.engine_of(item)
    action = game(XIANGQI).bot()(board, board.pending()[0])
    if action is None or action.kind != "move":
        return None
    return [action.data[k] for k in ("from", "to")]


@pytest.fixture
def venue_board(tmp_path):
    with mock_aws():
        create_table()
        clock.set_clock(None)
        broker, port = start_broker()

        def invoke(name, payload):
            if name == "score":
                scoring.record_result(
                    bridge.rt, payload["event_id"], payload["round"], payload["table"], payload["board"]
                )
            elif name == "deal":
                rounds.deal_round(bridge.rt, payload["event_id"], payload["round"])

        bridge = Bridge(port, invoke)
        events.create_event(
            {
                "event_id": EVENT,
                "name": "Venue Board",
                "ruleset": XIANGQI,
                "grade": "unrated",
                "rounds": 1,
                "start": dt.date(2026, 12, 14),
                "deal_seed": "ebv",
                "match": {"format": "knockout"},
            }
        )
        pairs.register_pairs(EVENT, [{"id": p, "players": [{"id": p}]} for p in ("ANN", "BEN")])
        events.register_tables(EVENT, [{"id": "T1", "seats": ["ebv-0", "ebv-1"], "eboard": "ebv-eb"}])
        handsets = [Device(t, "handset", port, tmp_path / t) for t in ("ebv-0", "ebv-1")]
        # A chariot through its own soldier, at Red's second move (seat 0 moves first: Red).
        eboard = ElectronicBoard(
            "ebv-eb", VenueLink(port, CREDENTIALS), tmp_path / "eb", hands, illegal_at=2, illegal=["a0", "a5"]
        )
        devices = [*handsets, eboard]
        for d in devices:
            d.step()
        bridge.idle()
        yield bridge, devices, eboard
        bridge.close()
        broker.stop()
        clock.set_clock(None)


def _state(devices):
    """What the electronic board has seen, and the board's last entries: a failure's message."""
    eb = devices[-1]
    item = board_store.load(EVENT, 1, "T1", "1")
    return (
        eb.app.pos,
        eb.app.error,
        eb.app.sent,
        eb.moved,
        eb.stops,
        eb.conn.connected,
        item and item.status,
        item and item.log[-3:],
    )


def until(condition, devices, bridge, timeout=20):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, ("condition not reached in time", _state(devices))
        for d in devices:
            d.step()
        bridge.idle()
        time.sleep(0.005)


def test_the_simulated_board_plays_stops_on_a_wrong_move_and_resumes_after_the_referee(venue_board):
    bridge, devices, eboard = venue_board
    rounds.request_next_round(bridge.rt, EVENT)
    until(lambda: eboard.stops == 1 and eboard.app.error is not None, devices, bridge)
    item = board_store.load(EVENT, 1, "T1", "1")
    assert item is not None and item.status == "stopped" and "a0 a5" in (item.stop_reason or "")
    assert sum(1 for e in item.log if e["t"] == "move") == 2
    eboard.put_back()  # the referee's hands, then the board's button: its position is the game's
    until(
        lambda: any(e["t"] == "position" for e in board_store.load(EVENT, 1, "T1", "1").log), devices, bridge
    )
    stopped = board_store.load(EVENT, 1, "T1", "1")
    assert stopped is not None and [e["ok"] for e in stopped.log if e["t"] == "position"] == [True]
    resume = {"kind": "resume", "table": "T1", "version": stopped.version, "reason": "pieces put back"}
    referee.record(events.get_event(EVENT), resume, by="ref", rt=bridge.rt)

    def moves() -> int:
        current = board_store.load(EVENT, 1, "T1", "1")
        return sum(1 for e in current.log if e["t"] == "move" and e.get("th") == "ebv-eb") if current else 0

    until(lambda: moves() >= 6, devices, bridge)
    assert board_store.load(EVENT, 1, "T1", "1").status == "playing"
