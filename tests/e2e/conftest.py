"""Fixtures of the end-to-end tests: a whole local venue."""

import pytest
from deckhand_local.venue.demo_event import free_port
from deckhand_local.venue.local import Venue


@pytest.fixture(scope="module")
def venue(tmp_path_factory):
    """A local venue (moto server, broker, bridge, HTTP API) for one test module, and its state dir."""
    state = tmp_path_factory.mktemp("venue")
    venue = Venue(dynamodb_port=free_port(), mqtt_port=free_port(), http_port=0, state_dir=state).start()
    yield venue, state
    venue.stop()
