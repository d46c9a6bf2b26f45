"""The organiser API's handler as API Gateway calls it, with the caller's verified identity chosen:
what the security tests use to act as one organiser or another."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

from backend import THINGS, Backend, DeviceBot, FakeClock, create_table, setup_moto_env
from deckhand.service.infra import clock, lambda_runtime
from deckhand.service.infra.messaging import RecordingPublisher
from deckhand.service.infra.runtime import Runtime
from deckhand.service.storage import keys, models
from handlers import FakeContext, api_event, load_handler
from moto import mock_aws

ALICE = "arn:aws:iam::123456789012:user/alice"
BOB = "arn:aws:iam::123456789012:user/bob"
CAROL = "arn:aws:sts::123456789012:assumed-role/referees/carol"

EVENT = {
    "event_id": "cup",
    "name": "Harbour Cup",
    "ruleset": "bigtwo-2017",
    "grade": "unrated",
    "rounds": 2,
    "boards_per_round": 2,
    "start": "2026-12-14",
}
PLAYERS = {"players": [{"id": f"P{i}", "name": f"Player {i}"} for i in range(1, 9)]}
TABLES = {"tables": [{"id": f"T{t}", "seats": [f"hs-T{t}-{s}" for s in range(4)]} for t in (1, 2)]}


def call(
    api: Any,
    method: str,
    path: str,
    body: Any = None,
    *,
    caller: str | None = ALICE,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    """One request; ``caller`` None: a request without a verified identity."""
    event = api_event("api-create-event.json", path=path, body=body, method=method)
    event["headers"].update(headers or {})
    identity = event["requestContext"]["identity"]
    identity["userArn"] = caller
    identity["caller"] = caller
    if "?" in path:
        path, query = path.split("?", 1)
        event["path"] = path
        params = dict(part.split("=", 1) for part in query.split("&"))
        event["queryStringParameters"] = params
        event["multiValueQueryStringParameters"] = {k: [v] for k, v in params.items()}
    response = api.handler(event, FakeContext())
    text = response["body"]
    headers = {
        **(response.get("headers") or {}),
        **{k: v[0] for k, v in (response.get("multiValueHeaders") or {}).items()},
    }
    if text and headers.get("Content-Type", "").startswith("application/json"):
        return response["statusCode"], json.loads(text)
    return response["statusCode"], text


@contextlib.contextmanager
def api_under_moto(runtime: Runtime | None = None) -> Iterator[Any]:
    """The api handler on an empty table under moto; ``runtime``: where invocations go (none: dropped)."""
    setup_moto_env()
    with mock_aws():
        create_table()
        clock.set_clock(FakeClock())
        lambda_runtime.set_runtime(runtime or Runtime(RecordingPublisher(), lambda name, payload: None))
        try:
            yield load_handler("api")
        finally:
            lambda_runtime.set_runtime(None)
            clock.set_clock(None)


@contextlib.contextmanager
def cup_dealt() -> Iterator[tuple[Any, list[DeviceBot], list[DeviceBot]]]:
    """Alice's cup through the API, round 1 dealt: the api handler and the bots of tables A and B
    (handsets; play with backend.run_round)."""
    backend = Backend()
    with api_under_moto(backend.rt) as api:
        assert call(api, "POST", "/events", EVENT)[0] == 201
        assert call(api, "POST", "/events/cup/players", PLAYERS)[0] == 201
        tables = {"tables": [{"id": "A", "seats": THINGS[:4]}, {"id": "B", "seats": THINGS[4:]}]}
        assert call(api, "POST", "/events/cup/tables", tables)[0] == 201
        assert call(api, "POST", "/events/cup/rounds")[0] == 202
        bots = [DeviceBot(backend, t) for t in THINGS]
        yield api, bots[:4], bots[4:]


def artificial_score(
    kinds: list[str | None], *, board: str = "1", reason: str, table: str = "A"
) -> dict[str, Any]:
    """A referee's artificial scores for a table's board of round 1: one kind a seat."""
    return {
        "kind": "artificial",
        "round": 1,
        "table": table,
        "board": board,
        "artificial": kinds,
        "reason": reason,
    }


def audit(event_id: str = "cup") -> list[models.AuditItem]:
    """The event's audit log as stored: every referee action, in order (the owner's changes of staff,
    written when a fixture grants its roles, left out: test_organiser_authorization.py checks those)."""
    return [
        a
        for a in models.AuditItem.query(
            keys.event_pk(event_id), models.AuditItem.sk.startswith(keys.AUDIT_PREFIX)
        )
        if a.kind != "roles"
    ]
