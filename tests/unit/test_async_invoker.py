"""The local venue's asynchronous invocations fail as Lambda's do: retried twice, each retry after a
pause, so a fault that passes in a moment (a database restarting) does not use up every attempt at
once; a failing job waits on its own, never holding up the jobs behind it."""

from __future__ import annotations

import time
import types
from typing import Any

from deckhand_local.venue.lambdas import AsyncInvoker


def settle(invoker: AsyncInvoker, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while invoker.pending and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_failed_invocation_is_retried_after_a_pause_while_others_run(monkeypatch):
    monkeypatch.setattr(AsyncInvoker, "BACKOFF_SECONDS", (0.3, 0.6))
    runs: list[tuple[str, float]] = []
    began = time.monotonic()

    def handler(event: dict[str, Any], context: Any) -> None:
        runs.append((event["id"], time.monotonic() - began))
        if event["id"] == "flaky" and sum(1 for i, _ in runs if i == "flaky") < 3:
            raise RuntimeError("the database is restarting")

    invoker = AsyncInvoker({"score": types.SimpleNamespace(handler=handler)}).start()
    invoker("score", {"id": "flaky"})
    invoker("score", {"id": "next"})
    settle(invoker)
    invoker.close()
    flaky = [at for i, at in runs if i == "flaky"]
    assert len(flaky) == 3 and invoker.failed == []
    assert flaky[1] - flaky[0] >= 0.3 and flaky[2] - flaky[1] >= 0.6
    assert [i for i, _ in runs][:2] == ["flaky", "next"]  # the next job did not wait for the retries


def test_an_invocation_failing_three_times_is_counted_failed_and_leaves_the_journal(monkeypatch, tmp_path):
    monkeypatch.setattr(AsyncInvoker, "BACKOFF_SECONDS", (0.05, 0.05))
    calls: list[int] = []

    def handler(event: dict[str, Any], context: Any) -> None:
        calls.append(1)
        raise RuntimeError("always")

    journal = tmp_path / "invocations"
    invoker = AsyncInvoker({"deal": types.SimpleNamespace(handler=handler)}, journal).start()
    invoker("deal", {"event_id": "e", "round": 1})
    settle(invoker)
    invoker.close()
    assert len(calls) == 3 and [f[0] for f in invoker.failed] == ["deal"]
    assert list(journal.glob("*.json")) == []  # failed for good: kept in ``failed``, not run again
