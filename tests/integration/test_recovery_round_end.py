"""A crash as the last board of a round is scored: the round's end and the event's move on are one
transaction, and a retry of the scoring step finishes the round, or publishes ``round_end`` again; a
finishing step lost for good (out of retries) is redone by the timers' sweep."""

from __future__ import annotations

from typing import Any

import pytest
from backend import SEEDED, Backend, Crash, event_outcome, play_event, prepare, setup_moto_env
from deckhand.service.duplicate import rounds, scoring
from deckhand.service.organiser import events
from deckhand.service.storage.keys import ACTIVE
from deckhand.service.storage.models import ActiveItem

setup_moto_env()


def round_ends(b: Backend) -> list[dict[str, Any]]:
    return [p for t, p in b.publisher.sent if t == "dh/events/cup" and p["t"] == "round_end"]


def crash_once(monkeypatch: pytest.MonkeyPatch, *, after_commit: bool) -> list[int]:
    """The first finishing of a round fails: before its transaction, or after it committed."""
    finish = scoring._finish_round
    crashed: list[int] = []

    def failing(event: Any, r: Any, round_no: int) -> None:
        if crashed:
            return finish(event, r, round_no)
        crashed.append(round_no)
        if after_commit:
            finish(event, r, round_no)
        raise Crash(f"crash finishing round {round_no}")

    monkeypatch.setattr(scoring, "_finish_round", failing)
    return crashed


@pytest.mark.parametrize("after_commit", [False, True], ids=["before-commit", "after-commit"])
def test_a_retried_scoring_finishes_the_round_and_the_event_ends_the_same(
    reference, backend, monkeypatch, after_commit
):
    bots = prepare(backend, **SEEDED)
    crashed = crash_once(monkeypatch, after_commit=after_commit)

    def retry() -> None:
        # Where the crash left it: every board scored, nothing published; all or nothing of the rest.
        (round_no,) = crashed
        event = events.get_event("cup")
        status = rounds.round_status("cup", round_no)
        assert status["boards_done"] == status["boards_total"] and round_ends(backend) == []
        done = (status["status"], event.status) == ("done", "between_rounds")
        assert done == after_commit
        assert done or (status["status"], event.status) == ("playing", "playing")
        # Lambda retries the scoring invocation that failed.
        name, payload = backend.invocations[-1]
        assert name == "score"
        backend.invoke(name, payload)
        assert events.get_event("cup").status == "between_rounds"
        assert [e["r"] for e in round_ends(backend)] == [round_no]

    play_event(backend, bots, retry)
    assert crashed == [1]
    assert event_outcome("cup") == reference[0]
    assert [p for t, p in backend.publisher.sent if t.startswith("dh/events/")] == reference[1]


def test_a_finishing_step_lost_for_good_is_redone_by_the_sweep(reference, backend, monkeypatch):
    bots = prepare(backend, **SEEDED)
    crashed = crash_once(monkeypatch, after_commit=False)

    def sweep() -> None:
        # The scoring invocation failed and is not retried again: only the sweep is left.
        (round_no,) = crashed
        assert rounds.round_status("cup", round_no)["status"] == "playing"
        assert [a.sk for a in ActiveItem.query(ACTIVE)] != []
        counts = backend.sweep()
        assert events.get_event("cup").status == "between_rounds"
        assert counts["finished"] == 1
        assert [e["r"] for e in round_ends(backend)] == [round_no]
        assert backend.sweep()["finished"] == 0  # out of the sweep with the round's end

    play_event(backend, bots, sweep)
    assert crashed == [1]
    assert event_outcome("cup") == reference[0]
    assert [p for t, p in backend.publisher.sent if t.startswith("dh/events/")] == reference[1]


def test_every_retry_of_the_finishing_step_publishes_round_end_again(backend):
    bots = prepare(backend, **SEEDED)
    play_event(backend, bots)
    (first, last) = round_ends(backend)
    _, payload = next((n, p) for n, p in reversed(backend.invocations) if n == "score" and p["round"] == 1)
    args = (payload["event_id"], payload["round"], payload["table"], payload["board"])
    assert scoring.record_result(backend.rt, *args) is False
    assert round_ends(backend) == [first, last, first]  # the same message; nothing else changed
    assert rounds.round_status("cup", 1)["status"] == "done"
    assert events.get_event("cup").status == "finished"
