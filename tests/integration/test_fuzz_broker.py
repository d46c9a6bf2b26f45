"""Fuzzing (hypothesis) of the venue's broker: random clients (a thing's own credentials, another's, a
wrong password or none, their own client id or another's), random subscriptions (wildcards, other
things' topics, ``$SYS``) and random publications. The property: no client ever receives anything
but what the server sent to its own down topic, and nothing reaches the server as a thing that did
not send it. ``make test`` runs a few cases per broker; ``bench/fuzz_bench.py`` runs many
(``FUZZ_BROKER_EXAMPLES``)."""

import os
import threading
import time
from collections import Counter

import paho.mqtt.client as mqtt
import pytest
from deckhand_local.venue.aedes import AedesBroker
from deckhand_local.venue.broker import BrokerProcess
from deckhand_local.venue.credentials import SERVER, VenueCredentials, server_client_id
from deckhand_local.venue.demo_event import free_port
from helpers import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paho.mqtt.enums import CallbackAPIVersion

EXAMPLES = int(os.environ.get("FUZZ_BROKER_EXAMPLES", examples(6)))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
CREDENTIALS = VenueCredentials.generate()
THINGS = ("fz-A", "fz-B", "fz-C")
TOPICS = [
    *(f"dh/{t}/{d}" for t in THINGS for d in ("up", "down")),
    *(
        "#",
        "dh/#",
        "dh/+/up",
        "dh/+/down",
        "+/+/+",
        "$SYS/#",
        "$SYS/x",
        "dh/events/e1",
        "dh/fz-A",
        "dh//down",
    ),
]
TALLY: Counter = Counter()
SETTLE = 0.1

topics = st.one_of(st.sampled_from(TOPICS), st.text(min_size=1, max_size=20))
clients = st.fixed_dictionaries(
    {
        "as": st.sampled_from(THINGS),
        # Half of the clients have their own secret: they are let in and try what a thing must not.
        "secret": st.sampled_from(["own", "own", "own", "own", "other", "wrong", "none", "server"]),
        "client_id": st.sampled_from(["own", "own", "own", "other"]),
        "own_down": st.booleans(),
        "subscribe": st.lists(topics, max_size=4),
        "publish": st.lists(st.tuples(topics, st.binary(max_size=40)), max_size=3),
    }
)


class Recorder:
    """A paho client that notes whether it was let in and every message it got. Its network is driven
    by ``pump`` (no thread: stopping a paho thread costs up to a second)."""

    def __init__(self, port, client_id, login=None):
        self.messages = []
        self.accepted = False
        self.answered = threading.Event()
        self.paho = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311)
        if login is not None:
            self.paho.username_pw_set(*login)
        self.paho.on_connect = self._on_connect
        self.paho.on_message = lambda c, u, m: self.messages.append((m.topic, m.payload))
        self.paho.connect("127.0.0.1", port)

    def _on_connect(self, client, userdata, flags, reason, properties):
        self.accepted = not reason.is_failure
        self.answered.set()

    def close(self):
        self.paho.disconnect()


def pump(recorders, seconds, until=lambda: False):
    """Drive the clients' networks for ``seconds`` (or until ``until()``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not until():
        for recorder in recorders:
            recorder.paho.loop(timeout=0.005)


def login_of(spec):
    thing = spec["as"]
    other = THINGS[(THINGS.index(thing) + 1) % len(THINGS)]
    return {
        "own": (thing, CREDENTIALS.password(thing)),
        "other": (thing, CREDENTIALS.password(other)),
        "wrong": (thing, "guess"),
        "none": None,
        "server": (SERVER, CREDENTIALS.password(thing)),  # a thing's password, the server's name
    }[spec["secret"]], (thing if spec["client_id"] == "own" else other)


@pytest.fixture(scope="module", params=["aedes", "embedded"])
def broker(request):
    port = free_port()
    running = (AedesBroker if request.param == "aedes" else BrokerProcess)(port, CREDENTIALS).start()
    server = Recorder(port, server_client_id("fuzz"), (SERVER, CREDENTIALS.server_password))
    server.paho.loop_start()
    server.answered.wait(5)
    server.paho.subscribe("dh/+/up", qos=1)
    time.sleep(0.1)
    yield port, server
    server.close()
    server.paho.loop_stop()
    running.stop()


def test_fuzzed_broker_clients_get_only_their_own_down_topic_and_never_act_as_another(broker):
    port, server = broker
    case = [0]

    @FUZZ
    @given(st.lists(clients, min_size=1, max_size=4))
    def check(specs):
        case[0] += 1
        sent = {}  # payload → (who published it, if let in; topic)
        connected = []
        for spec in specs:
            login, client_id = login_of(spec)
            connected.append((spec, login, Recorder(port, client_id, login)))
        recorders = [client for _, _, client in connected]
        pump(recorders, 2, until=lambda: all(r.answered.is_set() for r in recorders))
        for n, (spec, login, client) in enumerate(connected):
            identity = login[0] if client.accepted else None
            if client.accepted:
                assert spec["secret"] == "own" and spec["client_id"] == "own", spec  # only its own secret
            own_down = [f"dh/{spec['as']}/down"] if spec["own_down"] else []
            for topic_filter in own_down + spec["subscribe"]:
                try:
                    client.paho.subscribe(topic_filter, qos=1)
                except ValueError:
                    TALLY["invalid filter"] += 1
            for m, (topic, payload) in enumerate(spec["publish"]):
                marked = f"fuzz:{case[0]}:{n}:{m}|".encode() + payload
                sent[marked] = (identity, topic)
                try:
                    client.paho.publish(topic, marked, qos=1)
                except ValueError:
                    TALLY["invalid topic"] += 1
        pump(recorders, SETTLE)
        for thing in THINGS:
            server.paho.publish(f"dh/{thing}/down", f"down:{case[0]}:{thing}".encode(), qos=1)
        pump(recorders, SETTLE)
        for spec, login, client in connected:
            client.close()
            identity = login[0] if client.accepted else None
            TALLY["let in" if identity else "refused"] += 1
            for topic, payload in client.messages:
                # Only the server's message to its own down topic, and only once it was let in.
                assert identity is not None and topic == f"dh/{identity}/down", (spec, topic)
                assert payload.startswith(b"down:"), (spec, payload)
                TALLY["own down received"] += 1
        for topic, payload in server.messages:
            if payload in sent:
                publisher, published_on = sent[payload]
                assert publisher is not None and topic == published_on == f"dh/{publisher}/up", (
                    topic,
                    publisher,
                )
                TALLY["reached the server as itself"] += 1
        server.messages.clear()

    check()
    print("\nbroker clients:", dict(TALLY))
