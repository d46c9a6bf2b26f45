"""The Aedes broker's lifecycle events (issue 37: each seat's device online or offline): the broker
itself publishes a thing's connect and disconnect on ``$aws/events/presence/…`` in IoT Core's shape,
only the server may read them, and no one — a thing, nor the server identity — can publish one."""

import json
import time

import pytest
from deckhand_local.venue.aedes import AedesBroker
from deckhand_local.venue.credentials import SERVER, server_client_id
from deckhand_local.venue.demo_event import free_port
from test_broker_policy import CREDENTIALS, PATIENCE, SETTLE, Client, thing

PRESENCE = "$aws/events/presence/+/+"


@pytest.fixture(scope="module")
def broker():
    port = free_port()
    running = AedesBroker(port, CREDENTIALS).start()
    server = Client(port, server_client_id("bridge-in"), SERVER, CREDENTIALS.server_password)
    server.subscribe(PRESENCE, "dh/+/up")
    yield port, server
    server.close()
    running.stop()


def events(server: Client, since: int = 0) -> list[tuple[str, dict]]:
    return [(t, json.loads(p)) for t, p in server.messages[since:] if t.startswith("$aws/")]


def test_a_things_connect_and_disconnect_reach_the_server_as_iot_core_says_them(broker):
    port, server = broker
    before = len(server.messages)
    start = int(time.time() * 1000)
    a = thing(port, "sec-A")
    assert a.accepted
    server.wait_for(lambda: len(events(server, before)) == 1)
    a.close()
    server.wait_for(lambda: len(events(server, before)) == 2)
    (up_topic, up), (down_topic, down) = events(server, before)
    assert up_topic == "$aws/events/presence/connected/sec-A"
    assert down_topic == "$aws/events/presence/disconnected/sec-A"
    assert up["eventType"] == "connected" and up["clientId"] == "sec-A" and "disconnectReason" not in up
    assert down["eventType"] == "disconnected" and down["clientId"] == "sec-A"
    assert down["disconnectReason"] == "CLIENT_INITIATED_DISCONNECT"
    assert start <= up["timestamp"] <= down["timestamp"] <= int(time.time() * 1000)


def test_a_lost_connection_and_a_taken_client_id_are_said_so(broker):
    port, server = broker
    before = len(server.messages)
    first = thing(port, "sec-B")
    second = thing(port, "sec-B")  # the same thing again: the broker drops the first session
    server.wait_for(lambda: len(events(server, before)) == 3)
    second.paho.socket().close()  # no DISCONNECT: the connection is lost
    server.wait_for(lambda: len(events(server, before)) == 4)
    first.paho.loop_stop()
    second.paho.loop_stop()
    said = [(e["eventType"], e.get("disconnectReason")) for _, e in events(server, before)]
    assert said == [
        ("connected", None),
        ("disconnected", "DUPLICATE_CLIENTID"),
        ("connected", None),
        ("disconnected", "CONNECTION_LOST"),
    ]


def test_no_one_can_forge_or_read_a_lifecycle_event(broker):
    """A thing publishing a disconnect of another, or the server identity one of a thing, is refused:
    the presence topics are the broker's own; a thing subscribing to them gets nothing."""
    port, server = broker
    watcher = thing(port, "sec-B")
    watcher.subscribe(PRESENCE, "$aws/#", "#")
    before = len(server.messages)
    a = thing(port, "sec-A")
    forged = json.dumps({"eventType": "disconnected", "clientId": "sec-B", "timestamp": 1}).encode()
    a.publish("$aws/events/presence/disconnected/sec-B", forged)
    a.publish("$aws/events/presence/connected/sec-A", forged)
    posing = Client(port, server_client_id("poser"), SERVER, CREDENTIALS.server_password)
    posing.publish("$aws/events/presence/disconnected/sec-B", forged)
    time.sleep(SETTLE)
    own = thing(port, "sec-A")  # Aedes cut the forger off: its own connection again, to say "after"
    own.publish("dh/sec-A/up", b"after", confirmed=True)
    server.wait_for(lambda: ("dh/sec-A/up", b"after") in server.messages[before:], PATIENCE)
    time.sleep(SETTLE)
    for client in (a, own, posing, watcher):
        client.close()
    said = events(server, before)
    assert said and all(e["timestamp"] != 1 for _, e in said)  # no forged event reached the server
    seen = {(t.split("/")[-1], e["clientId"]) for t, e in said}
    # Its real ones did; the watcher's own (its connect racing ``before``, its close) may come too: each
    # event names the client whose topic it is on.
    assert ("sec-A", "sec-A") in seen and all(topic == client for topic, client in seen), seen
    assert watcher.messages == []
