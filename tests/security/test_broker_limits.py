"""Attack: fill the broker's memory with one packet. MQTT packets are read whole, and one may declare
256 MB; before this fix Aedes buffered what came, before authentication too (a client with no
credentials took it from 54 to 256 MB). Now a packet's declared length is checked as its header
arrives: 4 KiB before login, 16 KiB for a thing; the connection is closed at once."""

import socket
import time

import pytest
from deckhand_local.venue.aedes import AedesBroker
from deckhand_local.venue.credentials import SERVER, server_client_id
from deckhand_local.venue.demo_event import free_port
from test_broker_policy import CREDENTIALS, SETTLE, Client, thing


@pytest.fixture(scope="module")
def broker():
    running = AedesBroker(free_port(), CREDENTIALS).start()
    server = Client(running.port, server_client_id("limits"), SERVER, CREDENTIALS.server_password)
    assert server.accepted
    server.subscribe("dh/+/up")
    yield running.port, server
    server.close()
    running.stop()


def remaining_length(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n % 128, n // 128
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def closed_by_peer(sock: socket.socket, timeout: float = 2) -> bool:  # Aedes itself waits 5 s for a CONNECT
    sock.settimeout(timeout)
    try:
        return sock.recv(1) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def test_a_huge_connect_is_cut_off_before_login(broker):
    port, _ = broker
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"\x10" + remaining_length(250_000_000))  # CONNECT, 250 MB to come
        try:
            for _ in range(64):
                sock.sendall(b"\0" * 16384)  # the broker must not wait for (or keep) any of it
        except (ConnectionResetError, BrokenPipeError):
            pass
        assert closed_by_peer(sock)


def test_a_things_oversized_message_is_cut_off_and_never_delivered(broker):
    port, server = broker
    big = thing(port, "sec-big")
    assert big.accepted
    big.publish("dh/sec-big/up", b"x" * 100_000)  # its own topic, but no device message is that long
    time.sleep(SETTLE)
    assert not big.paho.is_connected()
    big.close()
    small = thing(port, "sec-small")
    small.publish("dh/sec-small/up", b'{"t":"hello","msg":"m1"}', confirmed=True)
    server.wait_for(lambda: server.messages)
    small.close()
    assert [topic for topic, _ in server.messages] == ["dh/sec-small/up"]
