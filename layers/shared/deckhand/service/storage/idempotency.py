"""Idempotent POSTs: a request retried with the same ``Idempotency-Key`` gets the first answer and
changes nothing (docs/openapi.json, docs/data-model.md).

A client that lost an answer (a dropped connection, a timeout, a 5xx) cannot know whether its request
took effect; resending it with the same key is always safe. Powertools' idempotency utility keeps one
record per (caller, method, path, key) in the event table; the body's hash is kept with it, so the
same key with another body is refused instead of answered with something that does not fit.

Only answers below 400 are remembered: an error changed nothing (every route checks before it writes,
and writes all-or-nothing), so running the request again is as safe as replaying the error, and lets a
retry succeed once the organiser has fixed what was wrong. A request without the header is served as
before, without this protection.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.event_handler import Response

from ...errors import DeckhandError
from . import keys, models

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.idempotency.persistence.datarecord import DataRecord
    from aws_lambda_powertools.utilities.typing import LambdaContext

HEADER = "Idempotency-Key"
KEY_PATTERN = re.compile(r"^[A-Za-z0-9._~:-]{1,255}$")  # URL-safe, so a key can be logged and quoted as is
# A retry comes within seconds; a day also covers a client that waits out an outage.
EXPIRES_AFTER_SECONDS = 24 * 60 * 60
TTL_ATTRIBUTE = "ttl"  # the table's TimeToLiveSpecification (template.yaml): expired records are deleted
REPLAYED_HEADER = "Idempotent-Replayed"

# Bytes of body above which it is kept compressed: an item is at most 400 KB, and a 10,000-player
# registration answers ~0.4 MB of JSON, which compresses tenfold.
COMPRESS_ABOVE = 32 * 1024

Answer = dict[str, Any]  # {"status", "headers", "body" | "body_z"}: a response as it is remembered


class MalformedKey(DeckhandError):
    """The header is there but is not a key (HTTP 400)."""


class KeyReused(DeckhandError):
    """The key was used before, by this caller on this route, with another body (HTTP 422)."""


class KeyInProgress(DeckhandError):
    """The first request with this key has not answered yet (HTTP 409, retry later)."""


def parse_key(headers: dict[str, str], multi: dict[str, list[str]] | None = None) -> str | None:
    """The request's key, ``None`` when it sent none; a malformed one is refused, not ignored."""
    values = {v for k, vs in (multi or {}).items() if k.lower() == HEADER.lower() for v in vs}
    if len(values) > 1:
        raise MalformedKey(f"{HEADER}: sent more than once with different values")
    key = headers.get(HEADER)
    if key is None:
        return None
    if not KEY_PATTERN.match(key):
        raise MalformedKey(
            f"{HEADER}: 1 to 255 characters among letters, digits and . _ ~ : - (a UUID is a good key)"
        )
    return key


def request_scope(caller: str, method: str, path: str, key: str, body: Any) -> dict[str, Any]:
    """What is hashed into the record's key (who, what, which key) and what must match on a retry (body).

    The caller is part of the key, so two organisers who happen to use the same key never collide."""
    return {"scope": {"caller": caller, "method": method, "path": path, "key": key}, "body": body}


class Store:
    """The idempotency records of one table and endpoint (Powertools' DynamoDB persistence layer).

    Powertools' idempotency is imported here, not with the module: it imports boto3 (~0.2 s), which
    only a POST with a key needs, not every cold start of the api function."""

    def __init__(self, client: Any, table_name: str) -> None:
        from aws_lambda_powertools.utilities.idempotency import (
            DynamoDBPersistenceLayer,
            IdempotencyConfig,
            idempotent_function,
        )

        self.persistence = DynamoDBPersistenceLayer(
            table_name=table_name,
            key_attr="pk",
            sort_key_attr="sk",
            static_pk_value=keys.IDEMPOTENCY_PK,
            expiry_attr=TTL_ATTRIBUTE,
            boto3_client=client,
        )
        self.config = IdempotencyConfig(
            event_key_jmespath="scope",
            payload_validation_jmespath="body",
            raise_on_no_idempotency_key=True,
            expires_after_seconds=EXPIRES_AFTER_SECONDS,
            response_hook=_mark_replayed,
        )

        @idempotent_function(  # type: ignore[untyped-decorator]
            data_keyword_argument="request",
            persistence_store=self.persistence,
            config=self.config,
            key_prefix=keys.IDEMPOTENCY_SK_PREFIX,
        )
        def once(request: dict[str, Any], run: Callable[[], Answer]) -> Answer:
            answer = run()
            if answer["status"] >= 400:
                raise _NotRemembered(answer)  # the record is deleted; the answer still goes out
            return answer

        self._once = once

    def answer(
        self, request: dict[str, Any], run: Callable[[], Answer], context: LambdaContext | None
    ) -> Answer:
        """``run()``'s answer the first time; the remembered answer on a retry.

        The Lambda context bounds how long an unfinished record blocks retries: a request that crashed
        mid-way is re-run once its invocation's time is up instead of answering 409 until expiry."""
        from aws_lambda_powertools.utilities.idempotency.exceptions import (
            IdempotencyAlreadyInProgressError,
            IdempotencyValidationError,
        )

        if context is not None:
            self.config.register_lambda_context(context)
        try:
            answer: Answer = self._once(request=request, run=run)
            return answer
        except _NotRemembered as error:
            return error.answer
        except IdempotencyValidationError:
            raise KeyReused(
                f"this {HEADER} was already used for a request with a different body; "
                "use a new key for a new request"
            ) from None
        except IdempotencyAlreadyInProgressError:
            raise KeyInProgress(
                f"a request with this {HEADER} is still being processed; retry it in a moment"
            ) from None


class _NotRemembered(Exception):
    """Carries an error answer out of the idempotent call, so Powertools forgets the request."""

    def __init__(self, answer: Answer) -> None:
        super().__init__(answer["status"])
        self.answer = answer


def _mark_replayed(response: Any, idempotent_data: DataRecord) -> Any:
    """A replayed answer says so (as Stripe's API does), for clients and for whoever reads the logs."""
    return {**response, "headers": {**response.get("headers", {}), REPLAYED_HEADER: "true"}}


_STORES: dict[tuple[str, str | None, str | None], Store] = {}


def store() -> Store:
    """The store on the models' table and endpoint (AWS, the local venue's database, or moto), built
    once per endpoint: a boto3 client costs ~0.2 s of CPU."""
    meta = models._Base.Meta
    key = (meta.table_name, meta.region, meta.host)
    found = _STORES.get(key)
    if found is None:
        import boto3

        client = boto3.client("dynamodb", region_name=meta.region, endpoint_url=meta.host or None)
        found = _STORES[key] = Store(client, meta.table_name)
    return found


def body_of(raw: str | None) -> Any:
    """The body as JSON where it is JSON (so a retry that re-serialised it still matches), else as sent."""
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def to_answer(response: Response[Any]) -> Answer:
    """A route's response as it is remembered (a large body compressed, to fit in one item)."""
    answer: Answer = {"status": response.status_code, "headers": dict(response.headers)}
    text = json.dumps(response.body, separators=(",", ":"))
    if len(text) > COMPRESS_ABOVE:
        answer["body_z"] = base64.b64encode(zlib.compress(text.encode(), 9)).decode()
    else:
        answer["body"] = response.body
    return answer


def to_response(answer: Answer) -> Response[Any]:
    body = (
        json.loads(zlib.decompress(base64.b64decode(answer["body_z"])))
        if "body_z" in answer
        else answer["body"]
    )
    return Response(answer["status"], headers=answer["headers"], body=body)
