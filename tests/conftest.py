"""Pytest setup for every group of tests.

Tests are grouped by kind: ``unit/`` (engines, competition core, CLI documents), ``contracts/``
(what every game, message and key must satisfy), ``integration/`` (services under moto, handlers,
firmware, publishers, the venue's parts), ``e2e/`` (the whole local venue) and ``infrastructure/``
(the template, the layer's boundary, platform regressions). Helpers shared between groups live in
``tests/*.py`` (on the path via pyproject's pythonpath); a fixture that several files of one group use
lives in that group's ``conftest.py``, one that several groups use here. No test file imports another.
"""

import pytest
from helpers import fresh_board  # noqa: F401  (a fixture, registered by import)


@pytest.fixture(scope="session")
def dynamodb_local(tmp_path_factory):
    """One DynamoDB Local (in memory) for the whole run: a JVM start is paid once; each venue on it
    has a table of its own."""
    from deckhand_local.venue.demo_event import free_port
    from deckhand_local.venue.dynamodb_local import DynamoDBLocal

    server = DynamoDBLocal(free_port(), data_dir=None).start()
    yield server.endpoint
    server.stop()


@pytest.fixture
def broker():
    """An embedded MQTT broker on a free port of 127.0.0.1, for one test; its ``credentials`` give the
    server's login and each thing's."""
    from deckhand_local.venue.broker import EmbeddedBroker
    from deckhand_local.venue.credentials import VenueCredentials
    from deckhand_local.venue.demo_event import free_port

    broker = EmbeddedBroker(free_port(), VenueCredentials.generate()).start()  # credentials only
    yield broker
    broker.stop()
