"""The local venue runs the API's handler as one Lambda container does: one request at a time.

Powertools' resolver keeps the request it is resolving on the app (its event, the caller's identity,
the route's arguments), and the venue's HTTP server answers each request on its own thread: two requests
resolved at once mixed them (a POST of join links once ran with another request's route arguments).
"""

from __future__ import annotations

import threading
import time
import types
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from deckhand_local.venue.lambdas import OneAtATime


def resolver_like() -> types.ModuleType:
    """A handler that keeps its request on shared state while it works, as the resolver's app does."""
    module = types.ModuleType("resolver_like")
    shared: dict[str, Any] = {}

    def handler(event: dict[str, Any], context: Any) -> Any:
        shared["event"] = event
        time.sleep(0.001)  # the work: another thread runs meanwhile
        return shared["event"]["id"]

    module.handler = handler  # type: ignore[attr-defined]
    return module


def answers(invoke: Any) -> list[tuple[int, Any]]:
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(lambda n: (n, invoke({"id": n})), range(80)))


def test_each_request_gets_its_own_answer_when_run_one_at_a_time() -> None:
    handler = OneAtATime(resolver_like(), "api")
    assert all(n == got for n, got in answers(handler))


def test_the_same_handler_run_from_threads_unguarded_mixes_requests() -> None:
    """The check above is not vacuous: unguarded, the threads' requests mix."""
    module = resolver_like()
    mixed = [n for n, got in answers(lambda event: module.handler(event, None)) if n != got]
    assert mixed


def test_one_at_a_time_never_overlaps() -> None:
    inside = threading.Semaphore(1)
    module = types.ModuleType("counting")

    def handler(event: dict[str, Any], context: Any) -> bool:
        entered = inside.acquire(blocking=False)
        time.sleep(0.0005)
        if entered:
            inside.release()
        return entered

    module.handler = handler  # type: ignore[attr-defined]
    handler_once = OneAtATime(module, "api")
    assert all(got for _, got in answers(handler_once))
