"""Attack: a client on the venue's network reaches the venue's DynamoDB Local. DynamoDB Local's own
runner binds every interface; our launcher (built by `make` with a JDK) binds 127.0.0.1 alone."""

import socket

import pytest
from deckhand_local.venue.demo_event import free_port
from deckhand_local.venue.dynamodb_local import DynamoDBLocal, find_launcher


def outward_address() -> str | None:
    """This machine's address on its network (no packet is sent), or None if it has none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routing only
        except OSError:
            return None
        address = probe.getsockname()[0]
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def reachable(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=2).close()
    except OSError:
        return False
    return True


@pytest.fixture(scope="module")
def server():
    if find_launcher() is None:
        pytest.skip("no launcher: `make` found no JDK (the venue then warns, and keeps a key of its own)")
    server = DynamoDBLocal(free_port(), None).start()
    yield server
    server.stop()


def test_the_venue_database_listens_on_loopback_only(server):
    assert server.loopback_only
    assert reachable("127.0.0.1", server.port)
    address = outward_address()
    if address is None:
        pytest.skip("this machine has no address but loopback")
    assert not reachable(address, server.port), f"DynamoDB Local answered on {address}"
