"""A broker process that dies says why: what it printed goes to its log in the venue's state folder,
and the venue's start error quotes it (a venue restarted after a crash once failed with nothing but the
bridge's "connection refused": the broker had gone, and its output had gone nowhere)."""

import os
import signal
import socket

import pytest
from deckhand.errors import VenueStartError
from deckhand_local.venue.aedes import AedesBroker
from deckhand_local.venue.credentials import VenueCredentials
from deckhand_local.venue.demo_event import free_port

CREDENTIALS = VenueCredentials(bytes(range(32)))


def test_a_broker_that_cannot_listen_is_refused_with_what_it_printed(tmp_path):
    port = free_port()
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", port))  # bound, not listening: the broker's own bind fails
        with pytest.raises(VenueStartError, match="exited at start") as refused:
            AedesBroker(port, CREDENTIALS, log=tmp_path / "broker.log").start()
    assert "EADDRINUSE" in str(refused.value)
    assert "EADDRINUSE" in (tmp_path / "broker.log").read_text()


def test_a_broker_that_died_after_its_start_says_so():
    broker = AedesBroker(free_port(), CREDENTIALS).start()
    try:
        assert broker.exited() is None
        assert broker.pid is not None
        os.kill(broker.pid, signal.SIGKILL)
        assert broker.process is not None
        broker.process.wait(timeout=10)
        assert broker.exited() == f"{AedesBroker.NAME} exited (code -9)"
    finally:
        broker.stop()


def test_a_venue_whose_broker_dies_while_it_starts_says_the_broker_exited(tmp_path, monkeypatch):
    from deckhand_local.venue import local
    from deckhand_local.venue.database import Database
    from deckhand_local.venue.local import Venue

    loaded = local.load_handlers

    def broker_dies_meanwhile():
        assert venue.broker.pid is not None
        os.kill(venue.broker.pid, signal.SIGKILL)
        venue.broker.process.wait(timeout=10)
        return loaded()

    monkeypatch.setattr(local, "load_handlers", broker_dies_meanwhile)
    venue = Venue(
        dynamodb_port=free_port(),
        mqtt_port=free_port(),
        http_port=0,
        state_dir=tmp_path,
        database=Database.MOTO,
    )
    with pytest.raises(VenueStartError, match=r"the Aedes broker exited \(code -9\)"):
        venue.start()
    assert venue.db_server is not None and venue.db_server.process is None  # nothing left running
