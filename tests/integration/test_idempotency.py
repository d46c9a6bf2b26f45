"""Idempotent POSTs (service/storage/idempotency.py): a retry with the same Idempotency-Key gets the first answer
and changes nothing; through the api handler as Lambda calls it, under moto."""

import json

import pytest
from aws_lambda_powertools.event_handler import Response
from backend import FakeClock, create_table, setup_moto_env
from deckhand.service.infra import clock, lambda_runtime
from deckhand.service.infra.messaging import RecordingPublisher
from deckhand.service.infra.runtime import Runtime
from deckhand.service.organiser import events
from deckhand.service.storage import idempotency, keys, models
from handlers import FakeContext, api_event, load_handler
from moto import mock_aws

setup_moto_env()

ORGANISER = "arn:aws:iam::123456789012:user/organiser"
EVENT = {
    "name": "Harbour Cup",
    "ruleset": "bigtwo-2017",
    "grade": "unrated",
    "rounds": 2,
    "boards_per_round": 2,
    "start": "2026-12-14",
}


@pytest.fixture
def api():
    with mock_aws():
        create_table()
        clock.set_clock(FakeClock())
        lambda_runtime.set_runtime(Runtime(RecordingPublisher(), lambda name, payload: None))
        yield load_handler("api")
        lambda_runtime.set_runtime(None)
        clock.set_clock(None)


def post(api, path, body, key=None, *, caller=ORGANISER, sample="api-create-event.json"):
    """A POST as API Gateway delivers it: the status, the JSON body and the headers of the answer."""
    event = api_event(sample, path=path, body=body, method="POST")
    if key is not None:
        event["headers"]["Idempotency-Key"] = key
    event["requestContext"]["identity"]["userArn"] = caller
    response = api.handler(event, FakeContext())
    headers = {
        **response.get("headers", {}),
        **{k: v[0] for k, v in response.get("multiValueHeaders", {}).items()},
    }
    return response["statusCode"], json.loads(response["body"]), headers


def event_ids():
    return sorted(events.event_id_of(e) for e in models.EventItem.scan() if e.sk == keys.META)


def test_a_retried_create_without_an_id_makes_one_event_and_answers_the_same(api):
    first = post(api, "/events", EVENT, "k-1")
    retry = post(api, "/events", EVENT, "k-1")
    assert first[0] == retry[0] == 201
    assert retry[1] == first[1]
    assert event_ids() == [first[1]["event_id"]]
    assert retry[2].get("Idempotent-Replayed") == "true" and "Idempotent-Replayed" not in first[2]


def test_without_a_key_a_post_is_not_protected(api):
    post(api, "/events", EVENT)
    post(api, "/events", EVENT)
    assert len(event_ids()) == 2  # documented: the header is what makes a retry safe


def test_a_retried_referee_warning_is_logged_once(api):
    assert post(api, "/events", dict(EVENT, event_id="cup"), "create")[0] == 201
    assert post(api, "/events/cup/players", {"players": [{"id": "P1"}]}, "players")[0] == 201
    warning = {"kind": "warning", "player": "P1", "reason": "slow play"}
    first = post(api, "/events/cup/referee", warning, "w-1")
    retry = post(api, "/events/cup/referee", warning, "w-1")
    assert first[0] == retry[0] == 201 and retry[1] == first[1]
    audit = [a for a in models.AuditItem.query(keys.event_pk("cup")) if a.kind == "warning"]
    assert len(audit) == 1
    # A second warning is a new request, with a new key: it is logged.
    assert post(api, "/events/cup/referee", warning, "w-2")[0] == 201
    assert len([a for a in models.AuditItem.query(keys.event_pk("cup")) if a.kind == "warning"]) == 2


def test_the_same_key_with_another_body_is_refused_and_changes_nothing(api):
    assert post(api, "/events", EVENT, "k-1")[0] == 201
    status, body, _ = post(api, "/events", dict(EVENT, name="Another Cup"), "k-1")
    assert status == 422
    assert "different body" in body["error"]
    assert len(event_ids()) == 1


def test_a_reformatted_body_is_the_same_body(api):
    assert post(api, "/events", json.dumps(EVENT), "k-1")[0] == 201
    assert post(api, "/events", json.dumps(EVENT, indent=2, sort_keys=True), "k-1")[0] == 201
    assert len(event_ids()) == 1


def test_a_retry_while_the_first_is_in_progress_is_a_409_to_retry(api, monkeypatch):
    seen = []
    create = events.create_event

    def slow_create(data, **kw):
        seen.append(post(api, "/events", EVENT, "k-1"))  # the client's retry arrives meanwhile
        return create(data, **kw)

    monkeypatch.setattr(events, "create_event", slow_create)
    assert post(api, "/events", EVENT, "k-1")[0] == 201
    ((status, body, headers),) = seen
    assert status == 409 and "still being processed" in body["error"]
    assert headers["Retry-After"] == "1"
    monkeypatch.setattr(events, "create_event", create)
    assert post(api, "/events", EVENT, "k-1")[0] == 201  # and later the first answer
    assert len(event_ids()) == 1


def test_two_callers_with_the_same_key_do_not_collide(api):
    a = post(api, "/events", EVENT, "same", caller="arn:aws:iam::123456789012:user/alice")
    b = post(api, "/events", EVENT, "same", caller="arn:aws:iam::123456789012:user/bob")
    assert a[0] == b[0] == 201 and a[1]["event_id"] != b[1]["event_id"]
    assert len(event_ids()) == 2


def test_the_same_key_on_another_path_is_another_request(api):
    assert post(api, "/events", dict(EVENT, event_id="one"), "k")[0] == 201
    players = {"players": [{"id": "P1"}]}
    assert post(api, "/events/one/players", players, "k")[0] == 201
    assert (
        len(
            list(
                models.PlayerItem.query(
                    keys.event_pk("one"), models.PlayerItem.sk.startswith(keys.PLAYER_PREFIX)
                )
            )
        )
        == 1
    )


@pytest.mark.parametrize("key", ["", "x" * 256, "has space", "naïve", "a/b"])
def test_a_malformed_key_is_a_400_and_changes_nothing(api, key):
    status, body, _ = post(api, "/events", EVENT, key)
    assert status == 400 and "Idempotency-Key" in body["error"]
    assert event_ids() == []


def test_a_longest_key_is_accepted(api):
    assert post(api, "/events", EVENT, "k" * 255)[0] == 201


def test_an_error_is_not_remembered_so_a_retry_after_the_fix_succeeds(api):
    players = {"players": [{"id": "P1"}]}
    assert post(api, "/events/late/players", players, "reg")[0] == 404
    assert post(api, "/events", dict(EVENT, event_id="late"), "create")[0] == 201
    status, body, _ = post(api, "/events/late/players", players, "reg")
    assert status == 201 and body["registered"][0]["id"] == "P1"


def test_a_large_answer_is_remembered_whole(api, monkeypatch):
    monkeypatch.setattr(idempotency, "COMPRESS_ABOVE", 100)  # moto registers thousands of players slowly
    assert post(api, "/events", dict(EVENT, event_id="big"), "create")[0] == 201
    players = {"players": [{"id": f"player-{i:03d}"} for i in range(30)]}
    first = post(api, "/events/big/players", players, "reg")
    retry = post(api, "/events/big/players", players, "reg")
    assert first[0] == retry[0] == 201 and retry[1] == first[1] and len(first[1]["registered"]) == 30
    assert retry[2].get("Idempotent-Replayed") == "true"


def test_the_largest_registration_answer_fits_in_one_item():
    registered = [{"id": f"{i:064d}", "number": i} for i in range(1, 10_001)]  # PlayersBody's maximum
    answer = idempotency.to_answer(Response(201, "application/json", {"registered": registered}))
    assert len(json.dumps(answer)) < 300_000  # a DynamoDB item is at most 400 KB
    assert idempotency.to_response(answer).body == {"registered": registered}


def test_records_live_in_their_own_partition_with_a_ttl(api):
    post(api, "/events", EVENT, "k-1")
    import boto3

    client = boto3.client("dynamodb", region_name="us-east-1")
    items = client.query(
        TableName=models._Base.Meta.table_name,
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": keys.IDEMPOTENCY_PK}},
    )["Items"]
    assert len(items) == 1
    assert items[0]["sk"]["S"].startswith(keys.IDEMPOTENCY_SK_PREFIX + "#")
    assert items[0]["status"]["S"] == "COMPLETED" and int(items[0]["ttl"]["N"]) > 0
