"""Device presence from the broker's lifecycle events (issue 37: the room grid's online/offline): the
functions/presence handler records each registered device's connection, the newest event winning
whatever order and however often the events arrive."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from backend import THINGS, Backend, create_table, cup_started, prepare
from deckhand.service.device_io import presence as lifecycle
from deckhand.service.duplicate import rounds
from deckhand.service.storage import keys, models
from deckhand.service.storage.presence import Presence, presence_of
from moto import mock_aws

T0 = 1_800_000_000_000
THING = THINGS[0]


def event(kind: str, at: int, thing: str = THING, reason: str = "CONNECTION_LOST") -> dict[str, Any]:
    """What IoT Core's rule on ``$aws/events/presence/+/+`` delivers (and the venue's bridge)."""
    body: dict[str, Any] = {"eventType": kind, "clientId": thing, "timestamp": at, "sessionIdentifier": "s"}
    return {**body, "disconnectReason": reason} if kind == "disconnected" else body


def recorded() -> list[models.PresenceItem]:
    return list(models.PresenceItem.scan(models.PresenceItem.sk == keys.PRESENCE))


@pytest.fixture
def cup():
    with mock_aws():
        create_table()
        prepare(Backend())
        yield


def test_a_connect_then_a_disconnect_are_recorded_with_their_times(cup) -> None:
    assert lifecycle.handle(event("connected", T0)) == {"status": "recorded"}
    assert presence_of([THING]) == {THING: Presence(True, T0)}
    assert lifecycle.handle(event("disconnected", T0 + 5)) == {"status": "recorded"}
    assert presence_of([THING, THINGS[1]]) == {THING: Presence(False, T0 + 5)}
    item = models.PresenceItem.get(keys.device_pk(THING), keys.PRESENCE)
    assert item.reason == "CONNECTION_LOST"


def test_any_order_and_any_repeats_of_the_events_end_at_the_newest() -> None:
    """Brute force: every order of a connect, a disconnect and a reconnect, the last two twice; and of
    a connect and a disconnect, each twice."""
    connect, disconnect, again = (
        event("connected", T0),
        event("disconnected", T0 + 1),
        event("connected", T0 + 2),
    )
    cases = (
        (Presence(True, T0 + 2), [connect, disconnect, again, disconnect, again]),
        (Presence(False, T0 + 1), [connect, disconnect, connect, disconnect]),
    )
    with mock_aws():
        create_table()
        prepare(Backend())
        for newest, sent in cases:
            names = [(e["eventType"], e["timestamp"]) for e in sent]  # the distinct orders only
            for order in sorted(set(itertools.permutations(names))):
                models.PresenceItem(keys.device_pk(THING), keys.PRESENCE).delete()
                for kind, at in order:
                    lifecycle.handle(event(kind, at))
                assert presence_of([THING]) == {THING: newest}, order


def test_an_older_or_repeated_event_writes_nothing(cup) -> None:
    assert lifecycle.handle(event("connected", T0 + 10))["status"] == "recorded"
    assert lifecycle.handle(event("connected", T0 + 10)) == {"status": "ignored", "code": "not_newer"}
    assert lifecycle.handle(event("disconnected", T0 + 3)) == {"status": "ignored", "code": "not_newer"}
    assert presence_of([THING]) == {THING: Presence(True, T0 + 10)}


def test_at_the_same_millisecond_a_reconnect_wins_over_its_old_session_ending(cup) -> None:
    lifecycle.handle(event("connected", T0))
    lifecycle.handle(event("connected", T0 + 7))  # the device reconnects with its own client id …
    lifecycle.handle(event("disconnected", T0 + 7, reason="DUPLICATE_CLIENTID"))  # … the old one ends
    assert presence_of([THING]) == {THING: Presence(True, T0 + 7)}
    lifecycle.handle(event("disconnected", T0 + 9))
    lifecycle.handle(event("connected", T0 + 9))
    assert presence_of([THING]) == {THING: Presence(True, T0 + 9)}


@pytest.mark.parametrize("client", ["hs-nowhere-9", "deckhand-server/bridge-in", "web-abcdefghij", ""])
def test_a_client_id_of_no_registered_device_is_ignored(cup, client: str) -> None:
    assert lifecycle.handle(event("connected", T0, client)) == {"status": "ignored", "code": "unknown_device"}
    assert not recorded()


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        {"eventType": "subscribed", "clientId": THING, "timestamp": T0},
        {"eventType": "connected", "clientId": 7, "timestamp": T0},
        {"eventType": "connected", "clientId": THING, "timestamp": "1800000000000"},
        {"eventType": "connected", "clientId": THING, "timestamp": True},
        {"eventType": "connected", "clientId": THING},
    ],
)
def test_an_event_of_no_known_shape_is_refused_and_writes_nothing(cup, bad: Any) -> None:
    assert lifecycle.handle(bad) == {"status": "rejected", "code": "bad_event"}
    assert not recorded()


def test_the_round_status_gives_the_staff_each_seats_device_presence_and_no_one_else() -> None:
    with cup_started():
        lifecycle.handle(event("connected", T0, THINGS[0]))
        lifecycle.handle(event("disconnected", T0 + 1, THINGS[1]))
        staff = rounds.round_status("cup", 1)
        public = rounds.round_status("cup", 1, staff=False)
    seats = {p["thing"]: p for t in staff["tables"] for p in t["players"]}
    assert (seats[THINGS[0]]["online"], seats[THINGS[0]]["online_since"]) == (True, T0)
    assert (seats[THINGS[1]]["online"], seats[THINGS[1]]["online_since"]) == (False, T0 + 1)
    assert "online" not in seats[THINGS[2]]  # never heard of: neither online nor offline
    assert not [p for t in public["tables"] for p in t["players"] if {"thing", "online"} & set(p)]
