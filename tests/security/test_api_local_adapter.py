"""The local venue's HTTP adapter: the token is checked before anything of the body is read, a body
over 1 MiB is refused unread, a length it cannot trust is refused; each organiser's token is its own
identity, so organiser B cannot work on organiser A's event through the local API either."""

import json
import socket
import time
from email.message import Message

import pytest
from api_calls import ALICE, EVENT, PLAYERS, api_under_moto
from deckhand_local.venue import organisers
from deckhand_local.venue.api_client import ApiClient, ApiError
from deckhand_local.venue.http_adapter import MAX_BODY, ApiServer, Refusal, body_length
from handlers import FakeContext

TOKEN = "venue-token"


@pytest.fixture
def recording(tmp_path):
    """An adapter whose handler records the events it is given and answers 200."""
    seen = []

    def handler(event):
        seen.append(event)
        return {"statusCode": 200, "headers": {"Content-Type": "application/json"}, "body": "{}"}

    server = ApiServer(handler, TOKEN, port=0, organisers=lambda: organisers.read(tmp_path)).start()
    yield server, seen, tmp_path
    server.stop()


def raw(server, head, body=b"", timeout=5.0):
    """Send the request head (and so much of a body), read the answer: status and JSON body. The
    adapter must answer without waiting for the rest of a body it was promised."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as conn:
        conn.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    status = int(data.split(b" ", 2)[1])
    return status, json.loads(data.split(b"\r\n\r\n", 1)[1] or b"null")


def post(length, token=TOKEN, extra=""):
    auth = f"Authorization: Bearer {token}\n" if token else ""
    return f"POST /events HTTP/1.1\nHost: x\n{auth}Content-Length: {length}\n{extra}"


def test_no_token_is_refused_before_a_huge_body_is_read(recording):
    server, seen, _ = recording
    # 400 MiB promised, 1 KiB sent: the answer comes at once, nothing reaches the handler.
    assert raw(server, post(400 * 1024 * 1024, token=None), b"x" * 1024) == (
        401,
        {"error": "missing or wrong token"},
    )
    assert raw(server, post("abc", token="wrong")) == (401, {"error": "missing or wrong token"})
    assert seen == []


def test_a_body_over_one_mebibyte_is_refused_unread(recording):
    server, seen, _ = recording
    status, answer = raw(server, post(MAX_BODY + 1), b"{")
    assert status == 413 and set(answer) == {"error"} and seen == []


@pytest.mark.parametrize(
    "head",
    [
        post("abc"),
        post("-1"),
        post("12", extra="Content-Length: 13\n"),
        f"POST /events HTTP/1.1\nHost: x\nAuthorization: Bearer {TOKEN}\nTransfer-Encoding: chunked\n",
    ],
)
def test_a_length_that_cannot_be_trusted_is_a_400(recording, head):
    server, seen, _ = recording
    status, answer = raw(server, head)
    assert status == 400 and set(answer) == {"error"} and seen == []


def test_a_length_of_other_digits_is_a_400_not_a_crash():
    headers = Message()
    headers["Content-Length"] = "\u00b2"  # a digit to str.isdigit, not to int()
    with pytest.raises(Refusal) as refused:
        body_length(headers)
    assert refused.value.status == 400


def test_a_client_that_sends_slowly_holds_no_thread(tmp_path):
    server = ApiServer(lambda event: {}, TOKEN, port=0, request_timeout=0.5).start()
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as conn:
            conn.sendall(b"POST /events HTTP/1.1\r\n")  # and never the rest
            started = time.monotonic()
            assert conn.recv(1) == b""  # closed by the server
            assert time.monotonic() - started < 3
    finally:
        server.stop()


def test_a_body_within_the_limit_is_served_with_the_tokens_identity(recording):
    server, seen, state = recording
    assert raw(server, post(2), b"{}")[0] == 200
    token = organisers.add(state, "bob")
    assert raw(server, post(2, token=token), b"{}")[0] == 200
    assert [e["requestContext"]["identity"]["userArn"] for e in seen] == ["local-organiser", "local:bob"]
    assert seen[0]["body"] == "{}"
    assert (state / organisers.FILE).stat().st_mode & 0o777 == 0o600
    organisers.remove(state, "bob")
    assert raw(server, post(2, token=token), b"{}")[0] == 401


def test_organiser_b_cannot_work_on_as_event_through_the_local_api_and_cli(tmp_path):
    with api_under_moto() as api:
        server = ApiServer(
            lambda event: api.handler(event, FakeContext()),
            TOKEN,
            port=0,
            organisers=lambda: organisers.read(tmp_path),
        ).start()
        try:
            (tmp_path / "venue.json").write_text(
                json.dumps({"api": f"http://127.0.0.1:{server.port}", "token": TOKEN})
            )
            organisers.add(tmp_path, "bob")
            venue = ApiClient(state_dir=tmp_path, sleep=lambda s: None)  # the default CLI: the venue's token
            bob = ApiClient(state_dir=tmp_path, sleep=lambda s: None, organiser="bob")
            assert venue.request("POST", "/events", EVENT)["owner"] == "local-organiser"
            with pytest.raises(ApiError) as refused:
                bob.request("POST", "/events/cup/players", PLAYERS)
            assert refused.value.status == 403 and "local:bob" in refused.value.body["error"]
            venue.request("PUT", "/events/cup/roles", {"roles": {"local:bob": "organiser"}})
            assert len(bob.request("POST", "/events/cup/players", PLAYERS)["registered"]) == 8
            assert ALICE not in json.dumps(venue.request("GET", "/events/cup/roles"))
        finally:
            server.stop()
