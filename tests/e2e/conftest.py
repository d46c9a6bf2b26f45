"""Fixtures of the end-to-end tests: a whole local venue."""

import pytest
from deckhand_local.venue.demo_event import free_port
from deckhand_local.venue.local import Venue
from deckhand_local.venue.tables import unique_table_name


@pytest.fixture(scope="module")
def venue(tmp_path_factory, dynamodb_local):
    """A local venue (its own table on the run's DynamoDB Local, broker, bridge, HTTP API) for one test
    module, and its state dir."""
    state = tmp_path_factory.mktemp("venue")
    venue = Venue(
        mqtt_port=free_port(),
        http_port=0,
        state_dir=state,
        dynamodb_endpoint=dynamodb_local,
        table=unique_table_name("e2e"),
    ).start()
    yield venue, state
    venue.stop()
