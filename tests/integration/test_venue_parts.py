"""The local venue's message path: the bridge's workers, the clients' sockets, the host MQTT shim past
descriptor 1,024, and the choice of broker."""

import json
import os
import resource
import socket
import sys
import threading
import time

import pytest
from deckhand.errors import VenueStartError
from deckhand_local.venue.bridge import Bridge, mqtt_client
from deckhand_local.venue.broker import EmbeddedBroker
from deckhand_local.venue.credentials import SERVER, VenueCredentials
from deckhand_local.venue.demo_event import free_port
from deckhand_local.venue.simulated import firmware_on_path

CREDENTIALS = VenueCredentials.generate()
SERVER_LOGIN = (SERVER, CREDENTIALS.server_password)


@pytest.fixture
def broker():
    broker = EmbeddedBroker(free_port(), CREDENTIALS).start()
    yield broker
    broker.stop()


def wait_for(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_bridge_workers_share_the_tables_and_keep_each_tables_messages_in_order(broker):
    handled: list[tuple[str, int, str]] = []

    def handler(event):
        time.sleep(0.002)  # long enough for the workers to overlap
        if event["t"] == "act":
            handled.append((event["thing"].split("-")[0], int(event["msg"]), threading.current_thread().name))
        return {"status": "accepted"}

    bridge = Bridge(
        "127.0.0.1",
        broker.port,
        handler,
        workers=3,
        route=lambda thing: thing.split("-")[0],
        login=SERVER_LOGIN,
    )
    device = mqtt_client("devices", "127.0.0.1", broker.port, SERVER_LOGIN)  # may publish as any thing
    tables = ["T1", "T2", "T3", "T4", "T5", "T6"]
    try:
        # Each thing's first message has its table found by a worker (never the receive thread): from
        # then on the table's messages keep their order (before, only each thing's own).
        for table in tables:
            for seat in range(4):
                device.publish(f"dh/{table}-{seat}/up", json.dumps({"t": "hello", "msg": "h"}), qos=1)
        wait_for(lambda: bridge.processed == 24)
        handled.clear()
        for n in range(20):
            for table in tables:
                device.publish(f"dh/{table}-{n % 4}/up", json.dumps({"t": "act", "msg": str(n)}), qos=1)
        wait_for(lambda: bridge.processed == 144)
        bridge.idle()
    finally:
        device.loop_stop()
        device.disconnect()
        bridge.close()
    assert bridge.received == bridge.processed == 144 and len(handled) == 120
    for table in tables:
        mine = [(n, worker) for t, n, worker in handled if t == table]
        assert [n for n, _ in mine] == list(range(20))  # one table's messages never overtake each other
        assert len({worker for _, worker in mine}) == 1
    assert len({worker for _, _, worker in handled}) > 1  # and the tables are spread over the workers


def test_a_bridge_needs_a_worker(broker):
    with pytest.raises(ValueError, match="at least one worker"):
        Bridge("127.0.0.1", broker.port, lambda e: {}, workers=0, login=SERVER_LOGIN)


def test_clients_send_small_messages_at_once(broker):
    """Regression: with Nagle's algorithm on (paho's default), each of a handler's messages after the
    first waited for the previous one's acknowledgement — ~40 ms of a 60 ms play."""
    firmware_on_path()
    from umqtt.simple import MQTTClient

    server = mqtt_client("server", "127.0.0.1", broker.port, SERVER_LOGIN)
    handset = MQTTClient(
        "hs-nodelay", "127.0.0.1", broker.port, user="hs-nodelay", password=CREDENTIALS.password("hs-nodelay")
    )
    handset.connect()
    try:
        for sock in (server.socket(), handset._client.socket()):
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    finally:
        server.loop_stop()
        server.disconnect()
        handset.disconnect()


@pytest.mark.skipif(sys.platform != "linux", reason="descriptor numbers as on Linux")
def test_the_host_mqtt_shim_works_past_descriptor_1024(broker):
    """Regression: paho's loop() uses select(), which refuses descriptors past 1,024, so a soak with
    hundreds of simulated devices in one process lost its last devices."""
    firmware_on_path()
    from umqtt.simple import MQTTClient

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip(f"this machine allows only {hard} descriptors")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    # The server's paho client (select() in its loop) gets its descriptor before the filler.
    server = mqtt_client("server", "127.0.0.1", broker.port, SERVER_LOGIN)
    filler: list[int] = []
    try:
        while not filler or filler[-1] < 1100:
            filler.extend(os.pipe())
        received: list[tuple[bytes, bytes]] = []
        client = MQTTClient(
            "hs-many", "127.0.0.1", broker.port, user="hs-many", password=CREDENTIALS.password("hs-many")
        )
        client.set_callback(lambda topic, msg: received.append((topic, msg)))
        client.connect()
        assert client._client.socket().fileno() > 1024
        client.subscribe(b"dh/hs-many/down", qos=1)
        client.publish(b"dh/hs-many/up", b'{"t":"hello"}', qos=1)  # its own topic: acknowledged
        server.publish("dh/hs-many/down", b'{"t":"ack"}', qos=1).wait_for_publish(5)
        deadline = time.monotonic() + 5
        while not received and time.monotonic() < deadline:
            client.check_msg()
            time.sleep(0.01)
        client.disconnect()
        assert received == [(b"dh/hs-many/down", b'{"t":"ack"}')]
    finally:
        server.loop_stop()
        server.disconnect()
        for fd in filler:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_venue_without_mosquitto_says_so_and_leaves_nothing_running(tmp_path, monkeypatch):
    from deckhand_local.venue import mosquitto
    from deckhand_local.venue.database import Database
    from deckhand_local.venue.local import Venue

    monkeypatch.setattr(mosquitto, "find_mosquitto", lambda: None)
    venue = Venue(
        dynamodb_port=free_port(),
        mqtt_port=free_port(),
        http_port=0,
        state_dir=tmp_path,
        broker="mosquitto",
        database=Database.MOTO,
    )
    with pytest.raises(VenueStartError, match="mosquitto is not installed"):
        venue.start()
    assert venue.db_server is not None and venue.db_server.process is None  # started first, stopped again
    with pytest.raises(ValueError, match="broker 'rabbit'"):
        Venue(broker="rabbit")


def test_deckhand_venue_on_a_port_in_use_is_a_clear_error(tmp_path, capsys, monkeypatch):
    import signal

    from deckhand_local.cli.main import main

    monkeypatch.setattr(signal, "signal", lambda *a: None)  # keep pytest's own Ctrl-C handling
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = ["venue", "--state", str(tmp_path), "--mqtt-port", str(port), "--http-port", "0"]
        assert main([*args, "--dynamodb-port", str(free_port())]) == 2
    err = capsys.readouterr().err
    assert f"deckhand venue: error: port {port} on 127.0.0.1 is already in use" in err
    assert "Traceback" not in err and not (tmp_path / "venue.json").exists()


def test_without_java_the_venue_says_in_one_line_what_to_install(tmp_path, capsys, monkeypatch):
    import signal

    from deckhand_local.cli.main import main
    from deckhand_local.venue import dynamodb_local

    monkeypatch.setattr(signal, "signal", lambda *a: None)  # keep pytest's own Ctrl-C handling
    monkeypatch.setattr(dynamodb_local.shutil, "which", lambda name: None)
    ports = [str(free_port()) for _ in range(3)]
    args = ["venue", "--state", str(tmp_path), "--dynamodb-port", ports[0], "--mqtt-port", ports[1]]
    assert main([*args, "--http-port", ports[2]]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Java is not installed" in err and "openjdk-17" in err
    assert "Traceback" not in err and not (tmp_path / "venue.json").exists()


def test_dynamodb_local_missing_from_the_checkout_is_a_clear_error(tmp_path):
    from deckhand_local.venue.dynamodb_local import find_jar

    with pytest.raises(VenueStartError, match="DynamoDB Local is not installed"):
        find_jar(tmp_path)


def test_a_venue_killed_while_starting_leaves_nothing_a_restart_cannot_stop(tmp_path):
    """Killed after spawning its database but before it wrote venue.json: servers.json names the
    orphan, and the restart stops it and takes its port instead of refusing or connecting to it."""
    import json

    from deckhand_local.venue.dynamodb_local import DynamoDBLocal
    from deckhand_local.venue.local import Venue
    from deckhand_local.venue.processes import is_venue_server

    port = free_port()
    orphan = DynamoDBLocal(port, tmp_path / "dynamodb").start()
    (tmp_path / "servers.json").write_text(
        json.dumps({"pid": 2**22 + 1, "started": "1", "database": orphan.pid})
    )
    venue = Venue(dynamodb_port=port, mqtt_port=free_port(), http_port=0, state_dir=tmp_path).start()
    try:
        assert not is_venue_server(orphan.pid)
        assert venue.db_server is not None and venue.db_server.pid != orphan.pid
    finally:
        venue.stop()
        orphan.stop()
    assert not (tmp_path / "servers.json").exists() and not (tmp_path / "venue.json").exists()


def test_an_invocation_queued_when_the_venue_dies_runs_when_it_is_back(tmp_path):
    """The deal or scoring a handler asked for is journaled before the caller goes on (as Lambda's
    queue keeps an event invocation): a venue killed before running it runs it on restart, once."""
    import time
    import types

    from deckhand_local.venue.lambdas import AsyncInvoker

    ran = []
    module = types.SimpleNamespace(handler=lambda event, context: ran.append(event))
    journal = tmp_path / "invocations"
    dead = AsyncInvoker({"deal": module}, journal)  # never started: the process dies first
    dead("deal", {"event_id": "e", "round": 1})
    assert len(list(journal.glob("*.json"))) == 1 and ran == []
    (journal / "torn.tmp").write_text('{"function": "de')  # a write the crash cut short: never run
    back = AsyncInvoker({"deal": module}, journal).start()
    deadline = time.monotonic() + 10
    while back.pending and time.monotonic() < deadline:
        time.sleep(0.01)
    back.close()
    assert ran == [{"event_id": "e", "round": 1}]
    assert list(journal.glob("*.json")) == []  # done: not run again by the next start
