"""``deckhand venue credentials THING``: the provisioning contract of docs/cli.md — one JSON object, the
device's config.json for the running venue (plain on loopback, or over TLS with the venue CA), with a
password only that thing's name derives from the venue's key."""

import json
import subprocess

import pytest
from deckhand_local.venue.credentials import SERVER, VenueCredentials
from deckhand_local.venue.venue_tls import venue_tls
from helpers import run_cli


def credentials(state, *args):
    """The command's exit code, stdout and stderr (run by its ``main`` in this process)."""
    code, out, err = run_cli("venue", "credentials", *args, "--state", str(state))
    return subprocess.CompletedProcess(args, code, out, err)


def running(state, **extra):
    """The venue.json of a venue running from ``state`` (what the command reads)."""
    key = VenueCredentials.for_state(state)
    (state / "venue.json").write_text(json.dumps({"mqtt_port": 18830, "tls_port": None, **extra}))
    return key


def test_a_things_config_for_the_loopback_listener(tmp_path):
    key = running(tmp_path)
    proc = credentials(tmp_path, "hs-T1-0")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {
        "thing": "hs-T1-0",
        "role": "handset",
        "endpoint": "127.0.0.1",
        "port": 18830,
        "tls": False,
        "username": "hs-T1-0",
        "password": key.password("hs-T1-0"),
    }
    assert key.check("hs-T1-0", json.loads(proc.stdout)["password"])
    assert not key.check("hs-T1-1", json.loads(proc.stdout)["password"])


def test_over_tls_it_carries_the_venue_ca(tmp_path):
    tls = venue_tls(tmp_path, "192.0.2.10", 8883)
    key = running(tmp_path, tls_port=8883, device_host="192.0.2.10")
    proc = credentials(tmp_path, "dealer-T1", "--role", "dealer")
    assert proc.returncode == 0, proc.stderr
    config = json.loads(proc.stdout)
    assert config["endpoint"] == "192.0.2.10" and config["port"] == 8883 and config["tls"] is True
    assert config["role"] == "dealer" and config["password"] == key.password("dealer-T1")
    assert config["ca"] == "/certs/venue-ca.pem" and config["ca_pem"] == tls.ca.read_text()
    refused = credentials(tmp_path, "dealer-T1", "--endpoint", "venue.example")
    assert refused.returncode == 2 and "does not name venue.example" in refused.stderr


@pytest.mark.parametrize("name", [SERVER, "events", "no spaces", "x" * 129])
def test_no_provisioning_for_a_name_no_thing_can_have(tmp_path, name):
    running(tmp_path)
    proc = credentials(tmp_path, name)
    assert proc.returncode == 2 and "thing name" in proc.stderr and proc.stdout == ""


def test_without_a_running_venue_it_says_so(tmp_path):
    proc = credentials(tmp_path, "hs-T1-0")
    assert proc.returncode == 2 and "no venue is running" in proc.stderr and "Traceback" not in proc.stderr
