"""The clocks stop while the venue is down: a board's running decision clock is moved on by the outage
(once, however often the venue restarts after it), so the sweep after the restart times nobody out."""

from __future__ import annotations

from pathlib import Path

import pytest
from backend import prepare, setup_moto_env
from deckhand.service.boards import store as board_store
from deckhand.service.duplicate import rounds
from deckhand.service.refereeing.outage import KIND, Outage, shift_board, stop_clocks
from deckhand.service.storage import models
from deckhand.service.storage.keys import AUDIT_PREFIX, event_pk
from deckhand.service.storage.models import AuditItem
from deckhand_local.venue.heartbeat import Heartbeat

setup_moto_env()

OUTAGE_MS = 30_000  # longer than a decision's clock


def boards_in_play() -> dict[tuple[str, str], models.BoardStateItem]:
    status = rounds.round_status("cup", 1)
    items = {
        (t["table"], b["board"]): board_store.load("cup", 1, t["table"], b["board"])
        for t in status["tables"]
        for b in t["boards"]
    }
    return {key: item for key, item in items.items() if item is not None and item.status == "playing"}


@pytest.fixture
def dealt(backend):
    prepare(backend)
    rounds.request_next_round(backend.rt, "cup")
    playing = boards_in_play()
    assert playing and all(item.deadline for item in playing.values())  # clocks running
    return backend, playing


def audit_entries() -> list[AuditItem]:
    found = AuditItem.query(event_pk("cup"), AuditItem.sk.startswith(AUDIT_PREFIX))
    return [a for a in found if a.kind == KIND]


def test_without_the_shift_the_outage_times_the_decisions_out(dealt):
    """What the shift is for: the sweep after an outage longer than a clock takes the defaults."""
    backend, _ = dealt
    backend.clock.advance(OUTAGE_MS)
    assert backend.sweep()["timeouts"] > 0


def test_the_outage_moves_every_running_clock_on_once(dealt):
    backend, before = dealt
    since = backend.clock.ms
    backend.clock.advance(OUTAGE_MS)
    outage = Outage(since, backend.clock.ms)
    stopped = stop_clocks(outage)
    assert stopped.boards == len(before) and stopped.events == 1
    after = boards_in_play()
    for key, item in before.items():
        moved = after[key]
        assert moved.deadline == item.deadline + OUTAGE_MS
        assert moved.asked_at == [a + OUTAGE_MS for a in item.asked_at]
        assert moved.stopped_for == since
    assert backend.sweep()["timeouts"] == 0  # nobody's time ran out while nobody could act
    again = stop_clocks(outage)  # the same outage made up for again (a crash in the middle of it)
    assert again.boards == 0
    assert {k: i.deadline for k, i in boards_in_play().items()} == {k: i.deadline for k, i in after.items()}
    [entry] = audit_entries()  # one entry, written again the same
    assert entry.detail["ms"] == OUTAGE_MS
    assert entry.detail["text"] == "clocks stopped for 30 s after the venue restarted"


def test_the_clocks_run_on_after_the_outage(dealt):
    """Moved on by the outage only: the rest of a decision's time still runs out."""
    backend, before = dealt
    since = backend.clock.ms
    backend.clock.advance(OUTAGE_MS)
    stop_clocks(Outage(since, backend.clock.ms))
    limit = max(item.deadline for item in before.values()) - since
    backend.clock.advance(limit)
    assert backend.sweep()["timeouts"] > 0


def test_a_venue_that_died_makes_up_for_its_outage_once_over_two_restarts(dealt, tmp_path: Path):
    backend, before = dealt
    first = Heartbeat(tmp_path)
    assert not first.note_restart()  # never ran here: no outage
    first.beat()  # … then dies without stopping (no clean stop removes the beat)
    backend.clock.advance(OUTAGE_MS)

    second = Heartbeat(tmp_path)
    assert second.note_restart()
    [(outage, stopped)] = second.make_up()
    assert outage.ms == OUTAGE_MS and stopped.boards == len(before)
    # It dies again before its first beat: the next start finds the same outage, made up for already.
    third = Heartbeat(tmp_path)
    assert not third.note_restart()
    assert third.make_up() == []
    after = boards_in_play()
    assert all(after[k].deadline == i.deadline + OUTAGE_MS for k, i in before.items())
    assert len(audit_entries()) == 1


def test_a_restart_that_died_while_moving_the_clocks_finishes_with_the_same_figures(
    dealt, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    backend, before = dealt
    Heartbeat(tmp_path).beat()
    backend.clock.advance(OUTAGE_MS)
    restart = Heartbeat(tmp_path)
    restart.note_restart()
    from deckhand_local.venue import heartbeat

    def dies(outage: Outage) -> None:
        [key, *_] = sorted(before)
        board_store.transact(("cup", 1, *key), lambda item: shift_board(item, outage))
        raise RuntimeError("power cut while moving the clocks")

    monkeypatch.setattr(heartbeat, "stop_clocks", dies)
    with pytest.raises(RuntimeError):
        restart.make_up()
    monkeypatch.undo()
    backend.clock.advance(5_000)  # the next start is later: the outage's end stays as first fixed
    again = Heartbeat(tmp_path)
    assert not again.note_restart()  # no beat since: the same outage, not done yet
    [(outage, stopped)] = again.make_up()
    assert outage.ms == OUTAGE_MS and stopped.boards == len(before) - 1
    after = boards_in_play()
    assert all(after[k].deadline == i.deadline + OUTAGE_MS for k, i in before.items())


def test_a_clean_stop_leaves_no_outage(tmp_path: Path):
    beat = Heartbeat(tmp_path, beat_seconds=60)
    beat.start()
    beat.stop()
    assert not Heartbeat(tmp_path).note_restart()


def test_the_clocks_stay_stopped_while_the_handsets_come_back(dealt, tmp_path: Path):
    """A restart's grace: the clocks run again only ``grace_seconds`` after the venue is back, the time
    its handsets take to reconnect; a redo keeps the end first fixed."""
    backend, before = dealt
    Heartbeat(tmp_path).beat()
    backend.clock.advance(OUTAGE_MS)
    restart = Heartbeat(tmp_path)
    restart.note_restart()
    [(outage, _)] = restart.make_up(grace_seconds=35)
    assert outage.until == backend.clock.ms + 35_000 and outage.ms == OUTAGE_MS + 35_000
    after = boards_in_play()
    assert all(after[k].deadline == i.deadline + OUTAGE_MS + 35_000 for k, i in before.items())
    limit = min(item.deadline for item in before.values()) - outage.since
    backend.clock.advance(35_000 + limit - 1)  # back, reconnected, and not yet a clock's whole time
    assert backend.sweep()["timeouts"] == 0
    backend.clock.advance(1)
    assert backend.sweep()["timeouts"] > 0
