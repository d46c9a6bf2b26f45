"""The organiser CLI's client (deckhand_local/cli/organiser.py) retries a request that got no answer with
the same Idempotency-Key, so a dropped connection after the API acted does not act twice."""

import json

import pytest
from backend import FakeClock, create_table, setup_moto_env
from deckhand.errors import DeckhandError
from deckhand.service.infra import clock, lambda_runtime
from deckhand.service.infra.messaging import RecordingPublisher
from deckhand.service.infra.runtime import Runtime
from deckhand.service.organiser import events
from deckhand.service.storage import keys, models
from deckhand_local.venue.api_client import ApiClient, ApiError
from deckhand_local.venue.http_adapter import ApiServer
from handlers import FakeContext, load_handler
from moto import mock_aws

setup_moto_env()

EVENT = {
    "name": "Harbour Cup",
    "ruleset": "bigtwo-2017",
    "grade": "unrated",
    "rounds": 2,
    "boards_per_round": 2,
    "start": "2026-12-14",
}


class Api:
    """The api handler behind the local HTTP adapter; ``drop`` answers to lose after the handler acted."""

    def __init__(self) -> None:
        self.handler = load_handler("api")
        self.drop = 0
        self.fail = 0
        self.keys: list[str | None] = []

    def __call__(self, event):
        self.keys.append(event["headers"].get("Idempotency-Key"))
        if self.fail:
            self.fail -= 1
            return {
                "statusCode": 503,
                "headers": {"Content-Type": "application/json"},
                "body": '{"error":"busy"}',
            }
        response = self.handler.handler(event, FakeContext())
        if self.drop:
            self.drop -= 1
            raise ConnectionAbortedError("the answer is lost on the way back")  # the server closes the socket
        return response


@pytest.fixture
def served(tmp_path):
    with mock_aws():
        create_table()
        clock.set_clock(FakeClock())
        lambda_runtime.set_runtime(Runtime(RecordingPublisher(), lambda name, payload: None))
        api = Api()
        server = ApiServer(api, "secret", port=0).start()
        (tmp_path / "venue.json").write_text(
            json.dumps({"api": f"http://127.0.0.1:{server.port}", "token": "secret"})
        )
        pauses: list[float] = []
        client = ApiClient(state_dir=tmp_path, sleep=pauses.append)
        yield api, client, pauses
        server.stop()
        lambda_runtime.set_runtime(None)
        clock.set_clock(None)


def event_ids():
    return [events.event_id_of(e) for e in models.EventItem.scan() if e.sk == keys.META]


def test_a_post_whose_answer_was_lost_is_retried_with_its_key_and_acts_once(served):
    api, client, pauses = served
    api.drop = 1
    created = client.request("POST", "/events", EVENT)
    assert event_ids() == [created["event_id"]]
    assert len(api.keys) == 2 and api.keys[0] == api.keys[1] and api.keys[0]
    assert pauses == [ApiClient.BACKOFF]


def test_each_request_has_its_own_key(served):
    api, client, _ = served
    client.request("POST", "/events", EVENT)
    client.request("POST", "/events", EVENT)
    assert len(set(api.keys)) == 2 and len(event_ids()) == 2  # two commands, two events


def test_a_5xx_is_retried_with_backoff_then_reported(served):
    api, client, pauses = served
    api.fail = 1
    assert client.request("POST", "/events", EVENT)["event_id"]
    assert pauses == [ApiClient.BACKOFF]
    api.fail = ApiClient.RETRIES + 1
    with pytest.raises(ApiError, match="HTTP 503"):
        client.request("POST", "/events", EVENT)
    assert pauses[1:] == [ApiClient.BACKOFF, ApiClient.BACKOFF * 2]


def test_a_4xx_is_not_retried(served):
    api, client, pauses = served
    with pytest.raises(ApiError, match="HTTP 404"):
        client.request("POST", "/events/nowhere/players", {"players": [{"id": "P1"}]})
    assert len(api.keys) == 1 and pauses == []


def test_gets_carry_no_key(served):
    api, client, _ = served
    with pytest.raises(ApiError):
        client.request("GET", "/events/nowhere")
    assert api.keys == [None]


def test_no_venue_at_the_address_is_reported_after_the_retries(tmp_path):
    (tmp_path / "venue.json").write_text(json.dumps({"api": "http://127.0.0.1:9", "token": "t"}))
    pauses: list[float] = []
    with pytest.raises(DeckhandError, match="cannot reach the API"):
        ApiClient(state_dir=tmp_path, sleep=pauses.append).request("POST", "/events", EVENT)
    assert len(pauses) == ApiClient.RETRIES
