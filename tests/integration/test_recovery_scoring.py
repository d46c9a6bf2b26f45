"""A scoring invocation lost for good (its retries failed, or the process holding it died): the timers'
sweep finds the ended board without a result, asks for its scoring again, and the event ends as a run
without the loss."""

from __future__ import annotations

from typing import Any

from backend import SEEDED, event_outcome, prepare, run_round, setup_moto_env
from deckhand.service.duplicate import rounds
from deckhand.service.infra.runtime import Runtime

setup_moto_env()


def test_a_lost_scoring_is_asked_again_by_the_sweep_and_the_event_ends_the_same(reference, backend):
    bots = prepare(backend, **SEEDED)
    invoke = backend.invoke
    lost: list[dict[str, Any]] = []

    def losing(name: str, payload: dict[str, Any]) -> None:
        if name == "score" and not lost:
            lost.append(payload)  # never runs: that board's result is never written
            return
        invoke(name, payload)

    backend.rt = Runtime(backend.publisher, losing)
    rounds.request_next_round(backend.rt, "cup")
    run_round(backend, bots)
    assert lost and rounds.round_status("cup", 1)["status"] == "playing"  # waits for the lost result
    assert backend.sweep()["rescored"] == 1
    assert rounds.round_status("cup", 1)["status"] == "done"
    assert backend.sweep()["rescored"] == 0  # nothing left to ask for
    rounds.request_next_round(backend.rt, "cup")
    run_round(backend, bots)
    assert event_outcome("cup") == reference[0]
