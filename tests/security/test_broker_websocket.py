"""MQTT over WebSocket at the venue's Aedes broker (the player's browser page): exactly the TCP
listener's rules — a thing's own credentials with its name as client id, its own topics only, the same
packet limits — and the listener takes loopback unless told otherwise."""

import time

import pytest
from deckhand_local.venue.aedes import AedesBroker
from deckhand_local.venue.credentials import SERVER, VenueCredentials, server_client_id
from deckhand_local.venue.demo_event import free_port
from test_broker_policy import SETTLE, Client

CREDENTIALS = VenueCredentials.generate()


def ws_client(port: int, client_id: str, username: str | None = None, password: str | None = None) -> Client:
    """A paho client over WebSocket that records whether it was let in, what it got and its end."""
    return Client(port, client_id, username, password, transport="websockets")


def ws_thing(port: int, name: str, client_id: str | None = None, password: str | None = None) -> Client:
    return ws_client(port, client_id or name, name, password or CREDENTIALS.password(name))


@pytest.fixture(scope="module")
def broker():
    port, ws_port = free_port(), free_port()
    running = AedesBroker(port, CREDENTIALS, ws_port=ws_port).start()
    server = Client(port, server_client_id("bridge-in"), SERVER, CREDENTIALS.server_password)
    assert server.accepted
    server.subscribe("dh/+/up")
    yield ws_port, server
    server.close()
    running.stop()


def test_a_thing_over_websocket_talks_on_its_own_topics(broker):
    ws_port, server = broker
    a = ws_thing(ws_port, "hs-A")
    assert a.accepted
    a.subscribe("dh/hs-A/down")
    server.publish("dh/hs-A/down", b'{"t":"ack","msg":"m1"}')
    a.publish("dh/hs-A/up", b'{"t":"hello","msg":"h1"}', confirmed=True)
    a.wait_for(lambda: a.messages)
    server.wait_for(lambda: ("dh/hs-A/up", b'{"t":"hello","msg":"h1"}') in server.messages)
    a.close()
    assert a.messages == [("dh/hs-A/down", b'{"t":"ack","msg":"m1"}')]
    assert ("dh/hs-A/up", b'{"t":"hello","msg":"h1"}') in server.messages


def test_websocket_clients_without_their_own_credentials_are_refused(broker):
    ws_port, _ = broker
    refused = [
        ws_client(ws_port, "snoop"),  # anonymous
        ws_thing(ws_port, "hs-A", password="guess"),
        ws_thing(ws_port, "hs-A", password=CREDENTIALS.password("hs-B")),  # another thing's password
        ws_thing(ws_port, "hs-A", client_id="hs-B"),  # its own password, another's client id
        ws_client(ws_port, "bridge-x", SERVER, CREDENTIALS.password("hs-A")),
    ]
    for client in refused:
        client.close()
    assert [c.accepted for c in refused] == [False] * len(refused)


def test_over_websocket_a_thing_reads_and_writes_nothing_of_another(broker):
    ws_port, server = broker
    b = ws_thing(ws_port, "hs-B")
    b.subscribe("dh/hs-B/down")
    a = ws_thing(ws_port, "hs-A")
    a.subscribe("dh/hs-A/down", "dh/hs-B/down", "dh/+/down", "dh/#", "#", "dh/+/up")
    before = len(server.messages)
    server.publish("dh/hs-B/down", b'{"t":"view","h":["SA"]}')
    server.publish("dh/events/cup", b"event news")
    a.publish("dh/hs-B/up", b'{"t":"act","msg":"forged"}')
    a.publish("dh/hs-B/down", b'{"t":"ack","msg":"forged"}')
    b.wait_for(lambda: b.messages)
    time.sleep(SETTLE)  # what would reach the others has had as long again
    a.close()
    b.close()
    assert a.messages == []
    assert b.messages == [("dh/hs-B/down", b'{"t":"view","h":["SA"]}')]
    assert server.messages[before:] == []


def test_a_packet_over_a_things_limit_cuts_the_websocket_connection(broker):
    ws_port, server = broker
    a = ws_thing(ws_port, "hs-A")
    assert a.accepted
    before = len(server.messages)
    a.publish("dh/hs-A/up", b"x" * 20000)  # a device's message is under 1 KiB
    assert a.gone.wait(5)
    a.close()
    time.sleep(SETTLE)
    assert server.messages[before:] == []


def test_the_websocket_listener_takes_loopback_unless_told():
    command = AedesBroker(1883, CREDENTIALS, ws_port=8884).command()
    assert command[command.index("--ws-port") + 1] == "8884"
    assert command[command.index("--ws-host") + 1] == "127.0.0.1"
    assert "--ws-port" not in AedesBroker(1883, CREDENTIALS).command()
