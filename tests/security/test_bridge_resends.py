"""A busy venue sheds a device's resends of a message still waiting in the bridge (venue/bridge.py): at
a backlog past the device's 5 s resend, every copy handled would add to the backlog. A copy that
comes at once (a QoS 1 redelivery) still reaches the handler, which acknowledges it as a duplicate."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any

from deckhand_local.venue.bridge import Bridge
from deckhand_local.venue.credentials import SERVER
from deckhand_local.venue.ratelimit import Rate
from helpers import wait_for

PLENTY = Rate(burst=100_000, per_second=100_000)


@dataclass
class Message:
    topic: str
    payload: bytes


def _bridge(broker: Any, shed_after: float) -> tuple[Bridge, list[str], threading.Event]:
    """A bridge whose one worker is stuck in the handler until released; the message ids it handled."""
    handled: list[str] = []
    release = threading.Event()

    def handler(event: dict[str, Any]) -> dict[str, Any]:
        handled.append(event["msg"])
        release.wait(10)
        return {"status": "accepted"}

    bridge = Bridge(
        "127.0.0.1",
        broker.port,
        handler,
        login=(SERVER, broker.credentials.server_password),
        rate=PLENTY,
        hello_rate=PLENTY,
        shed_after=shed_after,
    )
    return bridge, handled, release


def send(bridge: Bridge, msg: str) -> None:
    body = {"t": "act", "msg": msg, "board": "1", "a": {"k": "pass"}}
    bridge._on_message(None, None, Message("dh/hs-1/up", json.dumps(body).encode()))


def test_resends_of_a_message_waiting_past_the_limit_are_dropped_and_counted(broker):
    bridge, handled, release = _bridge(broker, shed_after=0.0)
    try:
        send(bridge, "m1")
        wait_for(lambda: handled == ["m1"])  # the worker is in the handler with it
        send(bridge, "m1")  # resent while it is handled: dropped
        send(bridge, "m2")  # another message waits its turn
        send(bridge, "m2")  # and its resend is dropped too
        assert bridge.dropped["queued"] == 2
        release.set()
        wait_for(lambda: bridge.settled == bridge.received)
        assert handled == ["m1", "m2"]
        send(bridge, "m1")  # answered and gone from the bridge: a later resend is handled (a duplicate)
        wait_for(lambda: handled == ["m1", "m2", "m1"])
        wait_for(lambda: not bridge._waiting)  # nothing kept once handled
    finally:
        release.set()
        bridge.close()


def test_a_copy_that_comes_at_once_is_still_handled(broker):
    bridge, handled, release = _bridge(broker, shed_after=60.0)
    try:
        send(bridge, "m1")
        wait_for(lambda: handled == ["m1"])
        send(bridge, "m1")  # a QoS 1 redelivery: the server's de-duplication answers it
        release.set()
        wait_for(lambda: handled == ["m1", "m1"])
        wait_for(lambda: bridge.settled == bridge.received)
        assert bridge.dropped["queued"] == 0 and bridge._waiting == {}
    finally:
        release.set()
        bridge.close()
