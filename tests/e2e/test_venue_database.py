"""``deckhand venue`` on DynamoDB Local, as processes: its data survives ``kill -9`` and a clean stop,
``--fresh`` starts empty, a second venue never takes a port in use or a folder in use, and nothing is
left running after Ctrl-C."""

import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from deckhand_local.venue.api_client import ApiClient, ApiError
from deckhand_local.venue.demo_event import free_port
from deckhand_local.venue.processes import is_venue_server

EVENT = {
    "event_id": "kept",
    "name": "Kept",
    "ruleset": "bigtwo-2017",
    "grade": "unrated",
    "rounds": 1,
    "boards_per_round": 1,
    "start": "2026-12-14",
}


def start_venue(state, *extra, ports=None):
    """``deckhand venue`` in a process of its own; returns it once it says it runs (or fails the test)."""
    ports = ports or [free_port() for _ in range(3)]
    command = [sys.executable, "-m", "deckhand_local.cli.main", "venue", "--state", str(state)]
    for option, port in zip(("--dynamodb-port", "--mqtt-port", "--http-port"), ports, strict=True):
        command += [option, str(port)]
    proc = subprocess.Popen(
        [*command, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    first = proc.stdout.readline()
    if "Ctrl-C stops it" not in first:
        proc.kill()
        pytest.fail(f"the venue did not start: {first!r} {proc.communicate()[1]}")
    return proc, ports


def stop_venue(proc):
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=90)
    assert proc.returncode == 0, err
    assert "Traceback" not in err


def port_free(port):
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def test_a_venue_killed_with_sigkill_restarts_with_all_its_data(tmp_path, tmp_path_factory, monkeypatch):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "someone")  # a signed request, not the venue's token
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "else")
    proc, ports = start_venue(tmp_path)
    try:
        api = ApiClient(state_dir=tmp_path)
        assert api.request("POST", "/events", EVENT)["event_id"] == "kept"
        a_second_venue_is_refused(tmp_path, ports, tmp_path_factory.mktemp("second"))
        with pytest.raises(ApiError) as unauthorised:
            ApiClient(api.api).request("GET", "/events/kept")  # no token, no SigV4 credentials for localhost
        assert unauthorised.value.status in (401, 403)
        running = json.loads((tmp_path / "venue.json").read_text())
        servers = [running["dynamodb_pid"], running["broker_pid"]]
        proc.kill()  # as a power cut would: no handler runs, nothing is exported
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert all(is_venue_server(pid) for pid in servers)  # database and broker outlived the venue …
    proc, _ = start_venue(tmp_path, ports=ports)  # … and the same ports are free again for the restart
    try:
        assert not any(is_venue_server(pid) for pid in servers)  # the orphans were stopped, not used
        assert ApiClient(state_dir=tmp_path).request("GET", "/events/kept")["name"] == "Kept"
    finally:
        stop_venue(proc)
    assert not (tmp_path / "venue.json").exists()
    assert all(port_free(port) for port in ports)  # nothing left listening, the database stopped too
    proc, _ = start_venue(tmp_path, "--fresh")
    try:
        with pytest.raises(ApiError) as gone:
            ApiClient(state_dir=tmp_path).request("GET", "/events/kept")
        assert gone.value.status == 404
    finally:
        stop_venue(proc)


def a_second_venue_is_refused(state, ports, elsewhere):
    """A second venue on the running venue's folder, or on one of its ports, refuses with a clear
    message and changes nothing (checked on the running venue a test has started anyway)."""
    same_folder = subprocess.run(
        [sys.executable, "-m", "deckhand_local.cli.main", "venue", "--state", str(state)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert same_folder.returncode == 2 and "already running from" in same_folder.stderr
    same_port = subprocess.run(
        [
            *(sys.executable, "-m", "deckhand_local.cli.main", "venue", "--state", str(elsewhere)),
            *("--dynamodb-port", str(ports[0]), "--mqtt-port", str(free_port()), "--http-port", "0"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert same_port.returncode == 2 and f"port {ports[0]} on 127.0.0.1 is already in use" in same_port.stderr
    assert "Traceback" not in same_folder.stderr + same_port.stderr
    time.sleep(0.1)
    assert ApiClient(state_dir=state).request("GET", "/events/kept")["name"] == "Kept"
