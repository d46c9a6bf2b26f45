"""The attack of the issue, against a running venue (Aedes, its default): a client without credentials
subscribed to ``#`` and published ``show`` as two handsets. Now it is refused; a registered handset
with its own credentials that publishes as another handset reaches nothing either: the bridge never
receives the forged message, so no handler runs for it."""

import time

import pytest
from deckhand_local.venue.demo_event import free_port
from deckhand_local.venue.local import Venue
from deckhand_local.venue.tables import unique_table_name
from test_broker_policy import PATIENCE, SETTLE, Client


@pytest.fixture(scope="module")
def venue(tmp_path_factory, dynamodb_local):
    venue = Venue(
        mqtt_port=free_port(),
        http_port=0,
        state_dir=tmp_path_factory.mktemp("venue"),
        dynamodb_endpoint=dynamodb_local,
        table=unique_table_name("sec"),
    ).start()
    yield venue
    venue.stop()


def test_the_venue_broker_refuses_a_client_without_credentials(venue):
    snoop = Client(venue.mqtt_port, "snoop")
    snoop.subscribe("#")
    snoop.publish("dh/hs-T1-1/up", b'{"t":"show","msg":"forged","v":true}')
    time.sleep(SETTLE)
    snoop.close()
    assert not snoop.accepted and snoop.messages == []
    assert venue.bridge.received == 0


def test_a_handset_publishing_as_another_reaches_nothing(venue):
    credentials = venue.credentials
    a = Client(venue.mqtt_port, "hs-T1-0", "hs-T1-0", credentials.password("hs-T1-0"))
    assert a.accepted
    before = venue.bridge.received
    a.publish("dh/hs-T1-1/up", b'{"t":"show","msg":"forged-1","v":true}')
    a.publish("dh/hs-T1-2/up", b'{"t":"show","msg":"forged-2","v":true}')
    time.sleep(SETTLE)
    a.close()
    assert venue.bridge.received == before  # nothing forged reached the bridge
    own = Client(venue.mqtt_port, "hs-T1-0", "hs-T1-0", credentials.password("hs-T1-0"))
    own.publish("dh/hs-T1-0/up", b'{"t":"hello","msg":"h1"}', confirmed=True)
    own.wait_for(lambda: venue.bridge.received > before, PATIENCE)
    venue.idle()
    own.close()
    assert venue.bridge.received == before + 1  # its own message does, as itself
