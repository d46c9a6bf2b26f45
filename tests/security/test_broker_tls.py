"""The venue's TLS listener for real handsets: a client that checks the venue CA connects with its
credentials; one that does not trust the CA, or has no credentials, gets nothing."""

import ssl
import threading
import time

import paho.mqtt.client as mqtt
import pytest
from deckhand_local.venue.aedes import AedesBroker
from deckhand_local.venue.credentials import SERVER, VenueCredentials, server_client_id
from deckhand_local.venue.demo_event import free_port
from deckhand_local.venue.venue_tls import names, venue_tls
from paho.mqtt.enums import CallbackAPIVersion
from test_broker_policy import SETTLE, Client

CREDENTIALS = VenueCredentials.generate()


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    tls = venue_tls(tmp_path_factory.mktemp("state"), "127.0.0.1", free_port())
    broker = AedesBroker(free_port(), CREDENTIALS, tls=tls).start()
    yield broker, tls
    broker.stop()


def tls_client(tls, thing, password, ca):
    got = []
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=thing, protocol=mqtt.MQTTv311)
    client.username_pw_set(thing, password)
    client.tls_set(ca_certs=str(ca) if ca else None, cert_reqs=ssl.CERT_REQUIRED)
    client.on_message = lambda c, u, m: got.append((m.topic, m.payload))
    return client, got


def test_a_handset_connects_over_tls_checking_the_venue_ca(broker):
    broker, tls = broker
    server = Client(broker.port, server_client_id("publisher"), SERVER, CREDENTIALS.server_password)
    client, got = tls_client(tls, "hs-tls", CREDENTIALS.password("hs-tls"), tls.ca)
    assert server.accepted
    connected, subscribed = threading.Event(), threading.Event()
    granted: list = []
    client.on_connect = lambda *_: connected.set()
    client.on_subscribe = lambda c, u, mid, codes, p: (granted.extend(codes), subscribed.set())
    client.connect(tls.host, tls.port)
    client.loop_start()
    # As a device does (umqtt's connect returns after CONNACK): subscribe once the broker let it in.
    assert connected.wait(10), "no CONNACK over TLS"  # a busy machine: the handshake takes a while
    client.subscribe("dh/hs-tls/down", qos=1)
    assert subscribed.wait(10), "no SUBACK over TLS"
    assert [code.is_failure for code in granted] == [False], granted
    server.publish("dh/hs-tls/down", b"over tls")
    deadline = time.monotonic() + 10
    while not got and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(SETTLE)  # and nothing more comes
    client.loop_stop()
    client.disconnect()
    server.close()
    assert got == [("dh/hs-tls/down", b"over tls")]
    assert {"127.0.0.1", "localhost"} <= names(tls)


def test_a_client_that_does_not_trust_the_venue_ca_refuses_the_server(broker):
    broker, tls = broker
    client, _ = tls_client(tls, "hs-tls", CREDENTIALS.password("hs-tls"), None)  # the system's CAs only
    with pytest.raises(ssl.SSLCertVerificationError):
        client.connect(tls.host, tls.port)


def test_the_tls_listener_refuses_a_wrong_password(broker):
    broker, tls = broker
    client, _ = tls_client(tls, "hs-tls", "guess", tls.ca)
    refused = []
    client.on_connect = lambda c, u, f, reason, p: refused.append(reason.is_failure)
    client.connect(tls.host, tls.port)
    client.loop_start()
    time.sleep(SETTLE)
    client.loop_stop()
    assert refused == [True]
