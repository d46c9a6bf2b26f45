"""Issue 33, finding 1: a handset publishing a kilobyte of ``[`` on its own up topic killed the
bridge's receive thread (``RecursionError`` from the parser, re-raised by paho), and from then on no
message of any table was handled. Now the depth is measured before parsing, and no exception from a
message can leave the receive callback."""

from __future__ import annotations

import inspect
import json

import pytest
from deckhand.service.infra.json_depth import MAX_DEPTH, text_depth, too_deep, value_depth
from deckhand_local.venue.bridge import RECENT, Bridge, rule_event
from helpers import wait_for
from test_bridge_receive import PLENTY, Message, receive, server_login

ATTACK = b"[" * 1000


def test_a_kilobyte_of_brackets_is_an_event_without_fields():
    assert rule_event("hs-1", ATTACK) == {"thing": "hs-1"}
    assert rule_event("hs-1", b'{"t": "act", "card": ' + b"[" * 5000 + b"]" * 5000 + b"}") == {
        "thing": "hs-1"
    }


def test_the_attack_leaves_the_receive_thread_handling_every_table(broker):
    handled: list[str] = []
    bridge = Bridge(
        "127.0.0.1",
        broker.port,
        lambda e: handled.append(e["thing"]) or {"status": "rejected"},
        login=server_login(broker),
    )
    try:
        for payload in (ATTACK, b"{" * 1000, b'{"a":' * 1000):
            bridge._on_message(None, None, Message("dh/hs-attacker/up", payload))  # must not raise
        receive(bridge, "hs-T2-0", {"t": "hello", "msg": "h"})
        wait_for(lambda: "hs-T2-0" in handled)
        assert bridge.receiving
    finally:
        bridge.close()


def test_a_message_whose_handling_raises_is_dropped_and_counted(broker):
    bridge = Bridge("127.0.0.1", broker.port, lambda e: {"status": "rejected"}, login=server_login(broker))
    try:
        bridge._on_message(None, None, object())  # no topic: handling it raises
        assert bridge.dropped["error"] == 1
        assert bridge.receiving
    finally:
        bridge.close()


@pytest.mark.parametrize("depth", [0, 1, 2, MAX_DEPTH, MAX_DEPTH + 1, 3000])
def test_depth_is_measured_without_parsing(depth):
    text = "[" * depth + '"[[[{{"' + "]" * depth
    assert too_deep(text) == (depth > MAX_DEPTH)
    if depth <= 100:
        assert value_depth(json.loads("[" * depth + "0" + "]" * depth)) == depth
    if depth > MAX_DEPTH:
        assert text_depth(text) == depth


def test_what_the_bridge_keeps_of_messages_is_bounded(broker):
    """Issue 33, finding 5: outcomes and accepted grew by every device message (~1 GB a day from one
    handset at its rate). Only the most recent are kept: a venue keeps RECENT, this bridge 100."""
    assert inspect.signature(Bridge).parameters["recent"].default == RECENT <= 10_000
    kept = 100
    bridge = Bridge(
        "127.0.0.1",
        broker.port,
        lambda e: {"status": "accepted"},
        login=server_login(broker),
        rate=PLENTY,
        hello_rate=PLENTY,
        strangers_rate=PLENTY,
        recent=kept,
    )
    try:
        for n in range(kept + 50):
            receive(bridge, "hs-T1-0", {"t": "act", "msg": f"m{n}"})
        bridge.idle(timeout=60)
        assert bridge.processed == kept + 50
        assert len(bridge.outcomes) == len(bridge.accepted) == kept
        assert bridge.outcomes.maxlen == bridge.accepted.maxlen == bridge.failed.maxlen == kept
        assert bridge.accepted[-1] == ("hs-T1-0", f"m{kept + 49}")
    finally:
        bridge.close()
