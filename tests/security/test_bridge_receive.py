"""The bridge's receive thread against a flood: it never reads, never waits, and what it cannot take is
dropped and counted; routes it does not know are found by a worker, in order, and found again later
(a thing registered after its first message still reaches its table)."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from typing import Any

from deckhand_local.venue.bridge import Bridge, rule_event
from deckhand_local.venue.broker import EmbeddedBroker
from deckhand_local.venue.credentials import SERVER
from deckhand_local.venue.ratelimit import Buckets, Rate
from deckhand_local.venue.routing import Routes, worker_of
from helpers import wait_for

PLENTY = Rate(burst=100_000, per_second=100_000)


@dataclass
class Message:
    """What paho hands ``on_message``."""

    topic: str
    payload: bytes


def server_login(broker: EmbeddedBroker) -> tuple[str, str]:
    return (SERVER, broker.credentials.server_password)


def receive(bridge: Bridge, thing: str, body: dict[str, Any]) -> None:
    """One message as paho's receive thread delivers it."""
    bridge._on_message(None, None, Message(f"dh/{thing}/up", json.dumps(body).encode()))


def test_the_receive_thread_never_reads_and_never_waits(broker):
    """The table lookup is slow (a database read) and the only worker is stuck: 20,000 messages of
    made-up names are still taken at once — queued up to the bound, the rest dropped and counted."""
    looked_up: list[str] = []
    release = threading.Event()

    def slow_route(thing: str) -> str | None:
        looked_up.append(thing)
        release.wait(10)
        return None

    bridge = Bridge(
        "127.0.0.1",
        broker.port,
        lambda e: {"status": "rejected"},
        login=server_login(broker),
        route=slow_route,
        rate=PLENTY,
        hello_rate=PLENTY,
        strangers_rate=PLENTY,
        queue_size=100,
    )
    try:
        started = time.monotonic()
        for n in range(20_000):
            receive(bridge, f"ghost-{n}", {"t": "act", "msg": "m"})
        taken = time.monotonic() - started
        assert taken < 5.0, f"the receive thread was held {taken:.1f} s"
        assert len(looked_up) <= 1  # only the worker looks a route up
        assert bridge.dropped["full"] >= 20_000 - 101
        release.set()
        bridge.idle(timeout=30)
        assert bridge.settled == bridge.received == 20_000
    finally:
        release.set()
        bridge.close()


def test_made_up_names_by_the_thousand_cost_a_bounded_number_of_lookups(broker):
    """Each made-up name has a full bucket of its own; together they share the strangers' one: the
    workers look up a few hundred of them, and a table's thing is handled at once meanwhile."""
    lookups: list[str] = []
    handled: list[str] = []

    def route(thing: str) -> str | None:
        lookups.append(thing)
        time.sleep(0.005)  # a database read
        return "T1" if thing == "hs-T1-0" else None

    def handler(event):
        handled.append(event["thing"])
        return {"status": "rejected"}

    bridge = Bridge("127.0.0.1", broker.port, handler, login=server_login(broker), workers=4, route=route)
    try:
        receive(bridge, "hs-T1-0", {"t": "hello", "msg": "h"})
        wait_for(lambda: handled == ["hs-T1-0"])
        for n in range(20_000):
            receive(bridge, f"ghost-{n}", {"t": "act", "msg": "m"})
        started = time.monotonic()
        receive(bridge, "hs-T1-0", {"t": "act", "msg": "a"})
        wait_for(lambda: handled.count("hs-T1-0") == 2, timeout=10)
        waited = time.monotonic() - started
        bridge.idle(timeout=30)
    finally:
        bridge.close()
    assert waited < 5.0, f"the table's message waited {waited:.1f} s"
    assert len(lookups) <= 1 + 600  # the strangers' burst (and what refilled meanwhile)
    assert bridge.dropped["rate"] >= 20_000 - 600


def test_a_thing_over_its_rate_is_dropped_and_counted(broker):
    handled: list[str] = []
    bridge = Bridge(
        "127.0.0.1",
        broker.port,
        lambda e: handled.append(e["thing"]) or {"status": "accepted"},
        login=server_login(broker),
        rate=Rate(burst=10, per_second=0.001),
        hello_rate=Rate(burst=3, per_second=0.001),
    )
    try:
        for n in range(50):
            receive(bridge, "hs-noisy", {"t": "hello", "msg": f"h{n}"})
            if n < 5:
                receive(bridge, "hs-quiet", {"t": "act", "msg": f"a{n}"})
        bridge.idle()
    finally:
        bridge.close()
    assert handled.count("hs-noisy") == 3 and handled.count("hs-quiet") == 5
    assert bridge.dropped["rate"] == 47


def test_unknown_routes_are_found_on_a_worker_and_keep_the_things_order(broker, monkeypatch):
    """The first messages of a thing go to the worker its name hashes to, which finds the table and
    passes them on; later ones go to the table's worker directly — none overtakes another."""
    tables = {"hs-a": "T1", "hs-b": "T1"}
    handled: list[tuple[str, int, str]] = []

    def route(thing: str) -> str | None:
        time.sleep(0.02)  # a database read
        return tables.get(thing)

    def handler(event):
        handled.append((event["thing"], int(event["msg"]), threading.current_thread().name))
        return {"status": "accepted"}

    bridge = Bridge(
        "127.0.0.1",
        broker.port,
        handler,
        login=server_login(broker),
        workers=4,
        route=route,
        rate=PLENTY,
        hello_rate=PLENTY,
    )
    try:
        for n in range(200):
            receive(bridge, "hs-a" if n % 2 else "hs-b", {"t": "act", "msg": str(n)})
            if n % 20 == 0:
                time.sleep(0.01)  # some arrive while the route is being found, some after
        wait_for(lambda: bridge.processed == 200)
    finally:
        bridge.close()
    for thing in ("hs-a", "hs-b"):  # each thing's order, across the switch to its table's worker
        assert [n for t, n, _ in handled if t == thing] == list(range(1 if thing == "hs-a" else 0, 200, 2))
    assert {worker for _, _, worker in handled} == {f"bridge-worker-{worker_of('T1', 4)}"}


def test_an_expired_route_is_checked_again_without_reordering_the_table(broker, monkeypatch):
    monkeypatch.setattr(Routes, "KNOWN_SECONDS", 0.05)
    tables = {"hs-a": "T1", "hs-b": "T1"}
    handled: list[int] = []

    def handler(event):
        handled.append(int(event["msg"]))
        return {"status": "accepted"}

    def route(thing: str) -> str | None:
        time.sleep(0.01)
        return tables.get(thing)

    bridge = Bridge(
        "127.0.0.1",
        broker.port,
        handler,
        login=server_login(broker),
        workers=4,
        route=route,
        rate=PLENTY,
        hello_rate=PLENTY,
    )
    try:
        receive(bridge, "hs-a", {"t": "act", "msg": "0"})
        receive(bridge, "hs-b", {"t": "act", "msg": "1"})
        wait_for(lambda: bridge.processed == 2)
        handled.clear()
        for n in range(200):
            receive(bridge, "hs-a" if n % 2 else "hs-b", {"t": "act", "msg": str(n)})
            if n % 20 == 0:
                time.sleep(0.03)  # routes expire on the way
        wait_for(lambda: bridge.processed == 202)
    finally:
        bridge.close()
    assert handled == list(range(200))  # the table's order


def test_a_thing_registered_after_its_first_messages_reaches_its_table(broker, monkeypatch):
    monkeypatch.setattr(Routes, "UNKNOWN_SECONDS", 0.1)
    tables: dict[str, str] = {}
    handled: list[tuple[str, str]] = []
    lookups: list[str] = []

    def route(thing: str) -> str | None:
        lookups.append(thing)
        return tables.get(thing)

    def handler(event):
        handled.append((event["msg"], threading.current_thread().name))
        return {"status": "accepted"}

    bridge = Bridge(
        "127.0.0.1",
        broker.port,
        handler,
        login=server_login(broker),
        workers=4,
        route=route,
        rate=PLENTY,
        hello_rate=PLENTY,
    )
    try:
        for n in range(20):
            receive(bridge, "hs-late", {"t": "act", "msg": f"before{n}"})
        wait_for(lambda: bridge.processed == 20)
        assert len(lookups) < 20  # the miss is remembered
        tables["hs-late"] = "T7"
        time.sleep(0.15)
        receive(bridge, "hs-late", {"t": "act", "msg": "after"})
        wait_for(lambda: bridge.processed == 21)
    finally:
        bridge.close()
    assert handled[-1] == ("after", f"bridge-worker-{worker_of('T7', 4)}")


def test_the_rule_event_has_only_the_protocol_s_fields():
    event = rule_event("hs-1", b'{"t":"act","msg":"m","board":"1","a":{"k":"pass"},"thing":"hs-2","x":1}')
    assert event == {"t": "act", "msg": "m", "board": "1", "a": {"k": "pass"}, "thing": "hs-1"}
    assert rule_event("hs-1", b"not json") == {"thing": "hs-1"}


def test_buckets_refill_and_forget_the_oldest_names():
    now = [0.0]
    buckets = Buckets(Rate(burst=2, per_second=1), keys=3, clock=lambda: now[0])
    assert [buckets.allow("a") for _ in range(3)] == [True, True, False]
    now[0] = 1.0
    assert buckets.allow("a") and not buckets.allow("a")
    for name in ("b", "c", "d"):
        buckets.allow(name)
    assert len(buckets._tokens) == 3 and "a" not in buckets._tokens


def test_spare_handsets_at_full_rate_do_not_keep_new_devices_from_being_routed(broker):
    """Things known to be at no table (spares, last week's handsets) cost no lookup: they do not spend
    the strangers' bucket that a venue's devices, unrouted after a restart, need to be found."""
    handled: list[str] = []

    def route(thing: str) -> str | None:
        return None if thing.startswith("spare") else "T1"

    bridge = Bridge(
        "127.0.0.1",
        broker.port,
        lambda e: handled.append(e["thing"]) or {"status": "rejected"},
        login=server_login(broker),
        workers=2,
        route=route,
        strangers_rate=Rate(burst=8, per_second=0.001),
    )
    try:
        for spare in ("spare-1", "spare-2"):
            receive(bridge, spare, {"t": "hello", "msg": "h"})  # found at no table: one lookup each
        wait_for(lambda: len(handled) == 2)
        for n in range(100):
            for spare in ("spare-1", "spare-2"):
                receive(bridge, spare, {"t": "act", "msg": f"a{n}"})
        for seat in range(4):
            receive(bridge, f"hs-T1-{seat}", {"t": "hello", "msg": "h"})
        bridge.idle()
    finally:
        bridge.close()
    assert all(f"hs-T1-{seat}" in handled for seat in range(4))


def test_an_oversized_message_is_dropped_unparsed(broker):
    handled: list[str] = []
    bridge = Bridge(
        "127.0.0.1", broker.port, lambda e: handled.append(e["thing"]) or {}, login=server_login(broker)
    )
    try:
        receive(bridge, "hs-big", {"t": "act", "msg": "m", "pad": "x" * 100_000})
        receive(bridge, "hs-big", {"t": "hello", "msg": "h"})
        bridge.idle()
    finally:
        bridge.close()
    assert handled == ["hs-big"] and bridge.dropped["size"] == 1
