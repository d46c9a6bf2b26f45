"""Players' own devices at a running venue (Aedes): a join token admits its device to its own two
topics only, a forged or another player's token nothing, and revoking the link cuts the connection
at once (issue 36). The broker asks the venue's loopback join-token check, which answers nobody else."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from deckhand_local.venue.api_client import ApiClient
from deckhand_local.venue.demo_event import free_port
from deckhand_local.venue.local import Venue
from deckhand_local.venue.tables import unique_table_name
from test_broker_policy import SETTLE, Client

EVENT = {
    "event_id": "cup",
    "name": "Cup",
    "ruleset": "bigtwo-2017",
    "grade": "unrated",
    "rounds": 1,
    "boards_per_round": 1,
    "start": "2026-12-14",
}
PLAYERS = {"players": [{"id": f"P{i}"} for i in range(1, 5)]}


class Device(Client):
    """A client that also notes when the broker closes its connection."""

    def __init__(self, port: int, client_id: str, username: str, password: str) -> None:
        self.dropped = threading.Event()
        super().__init__(port, client_id, username, password)
        self.paho.on_disconnect = lambda *args: self.dropped.set()


@pytest.fixture(scope="module")
def venue(tmp_path_factory: Any, dynamodb_local: str) -> Any:
    venue = Venue(
        mqtt_port=free_port(),
        http_port=0,
        state_dir=tmp_path_factory.mktemp("venue"),
        dynamodb_endpoint=dynamodb_local,
        table=unique_table_name("links"),
    ).start()
    api = ApiClient(state_dir=venue.state_dir)
    api.request("POST", "/events", EVENT)
    api.request("POST", "/events/cup/players", PLAYERS)
    yield venue
    venue.stop()


def links(venue: Venue, *players: str) -> dict[str, tuple[str, str]]:
    """player → (thing, token) of newly issued links."""
    answer = ApiClient(state_dir=venue.state_dir).request(
        "POST", "/events/cup/links", {"players": list(players)}
    )
    return {link["player"]: (link["thing"], link["url"].split("#t=", 1)[1]) for link in answer["links"]}


def test_a_join_token_admits_its_device_to_its_own_topics_only(venue: Venue) -> None:
    issued = links(venue, "P1", "P2")
    (thing, token), (other, _) = issued["P1"], issued["P2"]
    device = Device(venue.mqtt_port, thing, thing, token)
    assert device.accepted
    device.subscribe(f"dh/{thing}/down", f"dh/{other}/down", "dh/#", "#")
    before = venue.bridge.received
    device.publish(f"dh/{thing}/up", b'{"t":"hello","msg":"h1"}', confirmed=True)
    device.wait_for(lambda: venue.bridge.received > before)
    venue.sent.publish(f"dh/{other}/down", {"t": "ack", "msg": "not yours"})
    venue.idle()
    time.sleep(SETTLE)
    device.publish(f"dh/{other}/up", b'{"t":"hello","msg":"forged"}')  # the broker drops it (and the device)
    time.sleep(SETTLE)
    venue.idle()
    device.close()
    assert venue.bridge.received == before + 1  # its own message only
    topics = {topic for topic, _ in device.messages}
    assert topics == {f"dh/{thing}/down"}  # the ack of its hello; never the other device's


def test_forged_borrowed_or_malformed_credentials_are_refused(venue: Venue) -> None:
    issued = links(venue, "P3", "P4")
    (thing, token), (other, other_token) = issued["P3"], issued["P4"]
    link_id = thing.removeprefix("web-")
    attempts = [
        (thing, thing, f"{link_id}.{'A' * 43}"),  # the right link id, a forged secret
        (thing, thing, other_token),  # another player's token
        (other, thing, token),  # the right token, another client id
        (thing, thing, venue.credentials.password(thing)),  # a handset-style password for the thing
        (thing, thing, ""),
        ("web-x", "web-x", token),
    ]
    for client_id, username, password in attempts:
        intruder = Device(venue.mqtt_port, client_id, username, password)
        intruder.close()
        assert not intruder.accepted, (client_id, username)


def test_revoking_a_link_cuts_its_device_off_at_once_and_for_good(venue: Venue) -> None:
    thing, token = links(venue, "P2")["P2"]
    device = Device(venue.mqtt_port, thing, thing, token)
    assert device.accepted
    api = ApiClient(state_dir=venue.state_dir)
    assert api.request("DELETE", "/events/cup/links/P2")["revoked"] is True
    assert device.dropped.wait(5), "the revoked device stayed connected"
    device.close()
    again = Device(venue.mqtt_port, thing, thing, token)
    again.close()
    assert not again.accepted


def test_a_new_link_cuts_off_the_device_of_the_one_it_replaces(venue: Venue) -> None:
    thing, token = links(venue, "P1")["P1"]
    device = Device(venue.mqtt_port, thing, thing, token)
    assert device.accepted
    new_thing, new_token = links(venue, "P1")["P1"]
    assert device.dropped.wait(5)
    device.close()
    fresh = Device(venue.mqtt_port, new_thing, new_thing, new_token)
    fresh.close()
    assert fresh.accepted


def test_the_join_token_check_answers_only_the_broker(venue: Venue) -> None:
    thing, token = links(venue, "P4")["P4"]
    url = f"http://127.0.0.1:{venue.link_check.port}/links/authorize"
    body = json.dumps({"username": thing, "password": token}).encode()

    def status(headers: dict[str, str], data: bytes = body) -> int:
        request = urllib.request.Request(url, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return int(response.status)
        except urllib.error.HTTPError as error:
            return error.code

    secret = venue.credentials.link_check_secret
    assert status({}) == 401  # a valid token alone gets nothing from it
    assert status({"Authorization": f"Bearer {venue.token}"}) == 401  # nor the organiser API's token
    assert status({"Authorization": f"Bearer {secret}"}) == 200
    assert status({"Authorization": f"Bearer {secret}"}, b"[1]") == 400
    assert status({"Authorization": f"Bearer {secret}"}, b'{"username": "web-x", "password": "y"}') == 403
