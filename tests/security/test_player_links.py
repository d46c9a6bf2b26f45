"""Join links (issue 36): a per-player token admits that player's own device and nothing else.

Issued and revoked only by the event's organisers; only the secret's digest is stored; a new link
replaces the old one; a token admits its device while the event runs and the link is not revoked,
checked in one place (player_links.authorize) by the AWS custom authorizer and the venue's broker.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from api_calls import BOB, EVENT, PLAYERS, api_under_moto, call
from deckhand.service.organiser import player_links
from deckhand.service.storage import keys, models
from handlers import FakeContext, load_handler

ARN = "arn:aws:iot:us-east-1:123456789012"


@pytest.fixture
def api() -> Any:
    with api_under_moto() as handler:
        assert call(handler, "POST", "/events", EVENT)[0] == 201
        assert call(handler, "POST", "/events/cup/players", PLAYERS)[0] == 201
        yield handler


def issue(api: Any, players: list[str] | None = None, **kw: Any) -> dict[str, dict[str, Any]]:
    status, body = call(api, "POST", "/events/cup/links", {"players": players} if players else None, **kw)
    assert status == 201, body
    return {link["player"]: link for link in body["links"]}


def token_of(link: dict[str, Any]) -> str:
    prefix = "/play/#t="
    assert link["url"].startswith(prefix)
    return str(link["url"][len(prefix) :])


def table_items() -> list[dict[str, Any]]:
    """Every item of the table, raw (what a refused request must leave as it was)."""
    import boto3

    client = boto3.client("dynamodb", region_name="us-east-1")
    items = client.scan(TableName=models.EventItem.Meta.table_name)["Items"]
    return sorted(items, key=lambda item: (item["pk"]["S"], item["sk"]["S"]))


def test_a_link_per_registered_player_admits_that_players_device_only(api: Any) -> None:
    links = issue(api)
    assert sorted(links) == sorted(p["id"] for p in PLAYERS["players"])
    p1 = links["P1"]
    token = token_of(p1)
    link_id, secret = token.split(".")
    assert p1["thing"] == f"web-{link_id}" and p1["replaced"] is None
    grant = player_links.authorize(p1["thing"], token)
    assert grant is not None and (grant.thing, grant.event_id, grant.player) == (p1["thing"], "cup", "P1")
    # Another player's thing with this token, or this thing with another's token: refused.
    assert player_links.authorize(links["P2"]["thing"], token) is None
    assert player_links.authorize(p1["thing"], token_of(links["P2"])) is None
    # The secret is stored nowhere: only its digest.
    assert secret not in json.dumps(table_items(), default=str)


def test_a_forged_secret_a_malformed_username_or_password_is_refused(api: Any) -> None:
    p1 = issue(api, ["P1"])["P1"]
    token = token_of(p1)
    link_id, secret = token.split(".")
    forged = f"{link_id}.{'A' * 43}"
    for username, password in [
        (p1["thing"], forged),  # the right link id, a wrong secret
        (p1["thing"], token + "x"),
        (p1["thing"], token[:-1]),
        (p1["thing"].upper(), token),
        (f"hs-{link_id}", token),
        (p1["thing"], None),
        (None, token),
        (p1["thing"], 12),
        (p1["thing"], "x" * 100_000),
        ("", ""),
        (p1["thing"], f"{link_id}.{secret}\n"),
    ]:
        assert player_links.authorize(username, password) is None, (username, password)


def test_a_revoked_link_or_a_finished_event_admits_nobody(api: Any) -> None:
    links = issue(api, ["P1", "P2"])
    p1, p2 = links["P1"], links["P2"]
    status, body = call(api, "DELETE", "/events/cup/links/P1")
    assert (status, body) == (200, {"player": "P1", "thing": p1["thing"], "revoked": True})
    assert player_links.authorize(p1["thing"], token_of(p1)) is None
    assert call(api, "DELETE", "/events/cup/links/P1")[0] == 200  # revoking again changes nothing
    assert player_links.authorize(p2["thing"], token_of(p2)) is not None
    event = models.EventItem.get(keys.event_pk("cup"), keys.META)
    event.update(actions=[models.EventItem.status.set("finished")])
    assert player_links.authorize(p2["thing"], token_of(p2)) is None  # tokens expire with their event
    status, body = call(api, "POST", "/events/cup/links", {"players": ["P2"]})
    assert status == 409 and "finished" in body["error"]


def test_a_new_link_replaces_the_old_one(api: Any) -> None:
    old = issue(api, ["P1"])["P1"]
    new = issue(api, ["P1"])["P1"]
    assert new["thing"] != old["thing"] and new["replaced"] == old["thing"]
    assert player_links.authorize(old["thing"], token_of(old)) is None
    assert player_links.authorize(new["thing"], token_of(new)) is not None
    devices = [i["pk"]["S"] for i in table_items() if i["pk"]["S"].startswith(keys.device_pk(""))]
    assert devices == [keys.device_pk(new["thing"])]


def test_only_the_events_organisers_issue_or_revoke_links(api: Any) -> None:
    status, _ = call(api, "POST", "/events/cup/links", None, caller=BOB)
    assert status == 403
    issue(api, ["P1"])
    before = table_items()
    assert call(api, "DELETE", "/events/cup/links/P1", caller=BOB)[0] == 403
    assert call(api, "POST", "/events/cup/links", None, caller=None)[0] == 403
    assert table_items() == before


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"players": ["P1", "nobody"]}, 404),
        ({"players": ["P1", "P1"]}, 400),
        ({"players": []}, 422),
        ({"players": ["bad id!"]}, 422),
        ({"players": ["P1"], "extra": 1}, 422),
    ],
)
def test_a_bad_request_is_refused_and_changes_nothing(api: Any, body: Any, status: int) -> None:
    before = table_items()
    code, answer = call(api, "POST", "/events/cup/links", body)
    assert code == status and "error" in answer
    assert table_items() == before


def test_revoking_a_link_no_one_was_given_is_a_404(api: Any) -> None:
    status, body = call(api, "DELETE", "/events/cup/links/P3")
    assert status == 404 and "no join link" in body["error"]
    assert call(api, "DELETE", "/events/nothere/links/P3")[0] == 404


def test_a_retry_with_the_same_idempotency_key_gets_the_same_links(api: Any) -> None:
    headers = {"Idempotency-Key": "links-1"}
    first = issue(api, ["P1"], headers=headers)
    again = issue(api, ["P1"], headers=headers)
    assert again == first
    assert player_links.authorize(first["P1"]["thing"], token_of(first["P1"])) is not None


def test_a_table_may_not_take_a_player_devices_name(api: Any) -> None:
    tables = {"tables": [{"id": "T1", "seats": ["web-abcdefghij", "a", "b", "c"]}]}
    status, body = call(api, "POST", "/events/cup/tables", tables)
    assert status == 400 and "join links" in body["error"]


# The AWS custom authorizer (functions/authorizer/app.py) around the same check.


def authorizer_event(username: Any, password: str | None, client_id: str | None = None) -> dict[str, Any]:
    mqtt: dict[str, Any] = {"username": username}
    if password is not None:
        mqtt["password"] = base64.b64encode(password.encode()).decode()
    if client_id is not None:
        mqtt["clientId"] = client_id
    return {
        "signatureVerified": False,
        "protocols": ["tls", "mqtt"],
        "protocolData": {"tls": {"serverName": "example"}, "mqtt": mqtt},
        "connectionMetadata": {"id": "c0ffee"},
    }


def test_the_authorizer_grants_only_the_players_own_topics(api: Any) -> None:
    handler = load_handler("authorizer")
    links = issue(api, ["P1", "P2"])
    p1 = links["P1"]
    thing = p1["thing"]
    answer = handler.handler(authorizer_event(thing, token_of(p1), thing), FakeContext())
    assert answer["isAuthenticated"] is True
    assert answer["principalId"].isalnum() and 300 <= answer["refreshAfterInSeconds"] <= 86400
    assert 300 <= answer["disconnectAfterInSeconds"] <= 86400
    (document,) = answer["policyDocuments"]
    statements = json.loads(document)["Statement"]
    assert {(s["Action"], s["Resource"]) for s in statements} == {
        ("iot:Connect", f"{ARN}:client/{thing}"),
        ("iot:Publish", f"{ARN}:topic/dh/{thing}/up"),
        ("iot:Subscribe", f"{ARN}:topicfilter/dh/{thing}/down"),
        ("iot:Receive", f"{ARN}:topic/dh/{thing}/down"),
    }
    assert all(s["Effect"] == "Allow" for s in statements)
    assert links["P2"]["thing"] not in document and "*" not in document


def wss_event(username: str, password: str, client_id: str, query: str = "") -> dict[str, Any]:
    """What IoT Core hands the authorizer for MQTT over WSS (the page's way in): the upgrade request's
    headers and query string beside the CONNECT's username, base64 password and client id."""
    event = authorizer_event(username, password, client_id)
    event["protocols"] = ["tls", "http", "mqtt"]
    event["protocolData"]["http"] = {
        "headers": {
            "host": "abc123-ats.iot.eu-west-1.amazonaws.com",
            "upgrade": "websocket",
            "sec-websocket-protocol": "mqtt",
            "origin": "https://d111111abcdef8.cloudfront.net",
        },
        "queryString": query,
    }
    return event


@pytest.mark.parametrize(
    ("username", "query"),
    [
        # The page's way: the authorizer named on the wss:// URL, the username the thing alone.
        ("{thing}", "?x-amz-customauthorizer-name=deckhand-players-dev"),
        # The authorizer named in the username's query string, which IoT Core passes on as sent.
        ("{thing}?x-amz-customauthorizer-name=deckhand-players-dev", ""),
        # An SDK's own parameters in the same query string.
        ("{thing}?SDK=JS&Version=2.0&x-amz-customauthorizer-name=deckhand-players-dev", ""),
    ],
)
def test_the_authorizer_reads_the_thing_however_the_authorizer_is_named(
    api: Any, username: str, query: str
) -> None:
    handler = load_handler("authorizer")
    p1 = issue(api, ["P1"])["P1"]
    thing = p1["thing"]
    event = wss_event(username.format(thing=thing), token_of(p1), thing, query)
    answer = handler.handler(event, FakeContext())
    assert answer["isAuthenticated"] is True
    assert f":client/{thing}" in answer["policyDocuments"][0]


def test_the_authorizer_refuses_a_username_naming_another_thing_before_its_query(api: Any) -> None:
    handler = load_handler("authorizer")
    links = issue(api, ["P1", "P2"])
    p1, p2 = links["P1"], links["P2"]
    for username in [
        f"{p2['thing']}?x-amz-customauthorizer-name=deckhand-players-dev",
        f"?{p1['thing']}",
        f"{p1['thing']}x?x-amz-customauthorizer-name=deckhand-players-dev",
    ]:
        event = wss_event(username, token_of(p1), p1["thing"])
        assert handler.handler(event, FakeContext()) == {"isAuthenticated": False}, username


def test_the_authorizer_refuses_expired_revoked_forged_and_malformed_credentials(api: Any) -> None:
    handler = load_handler("authorizer")
    links = issue(api, ["P1", "P2", "P3"])
    p1, p2, p3 = links["P1"], links["P2"], links["P3"]
    link_id = p1["thing"].removeprefix("web-")
    assert call(api, "DELETE", "/events/cup/links/P2")[0] == 200
    denied = [
        authorizer_event(p1["thing"], f"{link_id}.{'B' * 43}"),  # forged: right link id, wrong secret
        authorizer_event(p2["thing"], token_of(p2)),  # revoked
        authorizer_event(p1["thing"], token_of(p1), client_id=p3["thing"]),  # another thing's client id
        authorizer_event(p1["thing"], None),
        authorizer_event(None, token_of(p1)),
        {
            **authorizer_event(p1["thing"], None),
            "protocolData": {"mqtt": {"username": p1["thing"], "password": "%%%"}},
        },
        {"protocolData": "nothing"},
        {},
    ]
    for event in denied:
        assert handler.handler(event, FakeContext()) == {"isAuthenticated": False}, event
    event = models.EventItem.get(keys.event_pk("cup"), keys.META)
    event.update(actions=[models.EventItem.status.set("finished")])
    expired = handler.handler(authorizer_event(p3["thing"], token_of(p3)), FakeContext())
    assert expired == {"isAuthenticated": False}
