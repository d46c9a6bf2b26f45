"""A crash after a board is saved, before the table's next board starts: the table is re-driven by a
retried message, a device's hello or the timers' sweep, and the event ends as a run without the crash."""

from __future__ import annotations

from typing import Any

import pytest
from backend import SEEDED, Backend, Crash, event_outcome, play_event, prepare, run_round, setup_moto_env
from deckhand.service.boards import store as board_store
from deckhand.service.boards import table as tableboard
from deckhand.service.duplicate import rounds

setup_moto_env()


def record_sends(b: Backend) -> dict[str, Any]:
    """The last payload each thing sent (what its handset would resend after no answer)."""
    sent: dict[str, Any] = {}
    send = b.send

    def recording(thing: str, payload: dict[str, Any]) -> dict[str, Any]:
        sent["last"] = (thing, payload)
        return send(thing, payload)

    b.send = recording
    return sent


def test_without_a_redrive_the_crash_leaves_the_table_standing_still(backend, monkeypatch):
    """What the redrives are for: nothing in play moves the table on by itself."""
    bots = prepare(backend, **SEEDED)
    crash_once(monkeypatch)
    rounds.request_next_round(backend.rt, "cup")
    with pytest.raises(Crash):
        run_round(backend, bots)
    run_round(backend, bots)
    status = rounds.round_status("cup", 1)
    assert status["status"] == "playing"
    assert any(b["status"] == "waiting" for t in status["tables"] for b in t["boards"])


def crash_once(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The first start of a table's next board fails (after the board before it was saved ended)."""
    start = tableboard.start
    crashed: dict[str, Any] = {}

    def failing(item: Any) -> None:
        if item.position > 0 and not crashed:
            crashed["board"] = (item.table, item.board)
            raise Crash(f"crash before board {item.board} at table {item.table} started")
        start(item)

    monkeypatch.setattr(tableboard, "start", failing)
    return crashed


@pytest.mark.parametrize("how", ["duplicate", "hello", "sweep"])
def test_the_next_board_is_started_by_a_redrive_and_the_event_ends_the_same(
    reference, backend, monkeypatch, how
):
    bots = prepare(backend, **SEEDED)
    sent = record_sends(backend)
    crashed = crash_once(monkeypatch)
    redrives = []

    def redrive() -> None:
        table, board = crashed["board"]
        assert board_store.load("cup", 1, table, board).status == "waiting"
        if how == "duplicate":  # the handset resends the message that got no answer
            thing, payload = sent["last"]
            outcome = backend.send(thing, payload)
            assert outcome["status"] == "duplicate"
        elif how == "hello":  # a device of that table (re)connects
            thing = next(t for t in ("hs-A-1", "hs-B-1") if t.startswith(f"hs-{table}-"))
            assert backend.send(thing, {"t": "hello", "msg": "h-redrive"})["status"] == "accepted"
        else:
            assert backend.sweep()["started"] == 1
        assert board_store.load("cup", 1, table, board).status != "waiting"
        redrives.append(how)

    play_event(backend, bots, redrive)
    assert redrives == [how]
    assert event_outcome("cup") == reference[0]
    assert [p for t, p in backend.publisher.sent if t.startswith("dh/events/")] == reference[1]


def test_a_redrive_of_a_table_already_going_changes_nothing(backend):
    """Duplicates, hellos and sweeps while every table is in play start nothing and send no deal."""
    bots = prepare(backend, **SEEDED)
    rounds.request_next_round(backend.rt, "cup")
    for bot in bots[:4]:
        bot.act()
    before = {(t, b): board_store.load("cup", 1, t, b).version for t in "AB" for b in "12"}
    assert backend.sweep()["started"] == 0
    backend.send("hs-A-0", {"t": "hello", "msg": "h-1"})
    assert {(t, b): board_store.load("cup", 1, t, b).version for t in "AB" for b in "12"} == before
    assert [p for p in backend.publisher.to("dealer-A") if p["t"] == "deal"][1:] == []
