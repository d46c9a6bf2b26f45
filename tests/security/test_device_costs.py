"""Attacks on what device messages cost and what a hello reveals.

- A ``hello`` costs the same few database calls however many boards a round has (a flood of hellos
  cannot multiply reads by the round's length).
- A resend of an old message id for an ended board costs one read and no write, and invokes nothing.
- A ``hello`` before the table's board starts never sends a later board's card order to the dealing
  table, nor its hands to a handset.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from backend import THINGS, WRITES, Backend, create_table, database_calls, prepare, run_round, setup_moto_env
from deckhand.service.boards import progress as board_progress
from deckhand.service.boards import store as board_store
from deckhand.service.duplicate import rounds
from moto import mock_aws

setup_moto_env()


@pytest.fixture
def moto_table():
    with mock_aws():
        create_table()
        yield


def hello_cost(boards_per_round: int) -> Counter[str]:
    with mock_aws():
        create_table()
        return _hello_cost(boards_per_round)


def _hello_cost(boards_per_round: int) -> Counter[str]:
    """A hello while the table plays the round's last board (the costliest place to ask from)."""
    b = Backend()
    prepare(b, boards_per_round=boards_per_round)
    rounds.request_next_round(b.rt, "cup")
    last = str(boards_per_round)
    for board in range(1, boards_per_round + 1):  # the table has played every board but the last
        item = board_store.load("cup", 1, "A", str(board))
        item.status = "playing" if str(board) == last else "ended"
        item.save()
    b.send("hs-A-0", {"t": "hello", "msg": "warm"})  # the thing's assignment is cached from here
    with database_calls() as calls:
        assert b.send("hs-A-0", {"t": "hello", "msg": "h"})["status"] == "accepted"
    assert b.last_view("hs-A-0")["b"] == last
    return calls


def test_a_hello_costs_three_reads_whatever_the_round_s_length():
    short = hello_cost(2)
    long = hello_cost(8)
    assert short == long
    assert sum(short.values()) <= 3 and not set(short) & WRITES, short


def test_a_resent_old_message_of_an_ended_board_costs_one_read_and_no_write(moto_table):
    b = Backend()
    bots = prepare(b)
    sent: list[tuple[str, dict[str, Any]]] = []
    send = b.send

    def recording(thing: str, payload: dict[str, Any]) -> dict[str, Any]:
        sent.append((thing, payload))
        return send(thing, payload)

    b.send = recording  # type: ignore[method-assign]
    rounds.request_next_round(b.rt, "cup")
    run_round(b, bots)
    thing, first = next((t, p) for t, p in sent if p["board"] == "1")
    assert board_store.load("cup", 1, "A", "1").status == "ended"
    invocations = len(b.invocations)
    with database_calls() as calls:
        for _ in range(50):  # a flood of the same stale resend
            assert send(thing, first)["status"] == "duplicate"
    assert calls == Counter({"GetItem": 50}), calls
    assert len(b.invocations) == invocations  # no scoring asked again, no board started


def test_a_hello_before_the_table_s_board_starts_reveals_no_board(moto_table, monkeypatch):
    """The round is dealt but the table's first board has not started (its start is still on its way):
    a dealing table that says hello must not get any board's order — before the fix it got the round's
    last board's — and a handset must not get a hand."""
    b = Backend()
    prepare(b, boards_per_round=3)
    monkeypatch.setattr(board_progress, "start_board", lambda *a, **k: False)
    monkeypatch.setattr(board_progress, "start_boards", lambda *a, **k: None)  # the deal's, batched
    rounds.request_next_round(b.rt, "cup")
    assert all(board_store.load("cup", 1, "A", board).status == "waiting" for board in "123")
    assert b.send("dealer-A", {"t": "hello", "msg": "h"})["status"] == "accepted"
    assert b.send(THINGS[0], {"t": "hello", "msg": "h"})["status"] == "accepted"
    assert [p["t"] for p in b.publisher.to("dealer-A")] == ["ack"]
    assert [p["t"] for p in b.publisher.to(THINGS[0])] == ["ack"]


def test_a_dealing_table_s_hello_sends_only_the_board_in_play(moto_table):
    b = Backend()
    prepare(b, boards_per_round=3)
    rounds.request_next_round(b.rt, "cup")
    assert b.send("dealer-A", {"t": "hello", "msg": "h"})["status"] == "accepted"
    deals = [p for p in b.publisher.to("dealer-A") if p["t"] == "deal"]
    assert {d["b"] for d in deals} == {"1"}
