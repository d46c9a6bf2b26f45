"""moto's DynamoDB answers made quickly, for the tests that run the service on moto.

moto 5.2 writes every answer through a serializer that walks the operation's whole model, value by
value: three quarters of a moto-backed test's time went there (a Swiss of matches: 2,989 calls, 0.11 s
each). A DynamoDB answer is the result moto built, as JSON: for a successful data-plane call this writes
it so directly — members that are None left out, bytes in base64 and times as epoch seconds, as the
serializer does. Errors and every other call still go through moto's serializer.
``DECKHAND_MOTO_CHECK=1`` writes each answer both ways and fails on any difference."""

from __future__ import annotations

import base64
import copy
import datetime as dt
import functools
import json
import os
import threading
from typing import Any

DATA_PLANE = frozenset(
    {
        "GetItem",
        "PutItem",
        "UpdateItem",
        "DeleteItem",
        "Query",
        "Scan",
        "BatchGetItem",
        "BatchWriteItem",
        "TransactGetItems",
        "TransactWriteItems",
    }
)


def _plain(value: Any) -> Any:
    """An attribute value as JSON has it (bytes in base64)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode()
    return value


def _shaped(value: Any, shape: Any) -> Any:
    """``value`` as the serializer writes it for ``shape``: a structure keeps only its model's members
    that are not None (moto's results carry a few more), times are epoch seconds; an attribute value is
    taken whole."""
    if value is None:
        return None
    kind = shape.type_name
    if shape.name == "AttributeValue":
        return _plain(value)
    if kind == "structure":
        members = shape.members
        return {k: _shaped(v, members[k]) for k, v in value.items() if k in members and v is not None}
    if kind == "list":
        return [_shaped(v, shape.member) for v in value]
    if kind == "map":
        return {k: _shaped(v, shape.value) for k, v in value.items() if v is not None}
    if kind == "timestamp" and isinstance(value, dt.datetime):
        return value.timestamp()
    if kind == "blob" and isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode()
    return value


class _TableBackups:
    """moto's TransactWriteItems deep-copies the whole table once for each item it writes (its backup for a
    rollback): 100 copies of every item for a transaction of 100. The copies taken before the first write
    are all equal, so within one transaction a table is copied once and that copy reused."""

    def __init__(self) -> None:
        self.local = threading.local()

    def deepcopy(self, value: Any, memo: Any = None) -> Any:
        taken = getattr(self.local, "taken", None)
        if taken is None or memo is not None or type(value).__name__ != "Table":
            return copy.deepcopy(value, memo)
        if id(value) not in taken:
            taken[id(value)] = (value, copy.deepcopy(value))
        return taken[id(value)][1]

    def __getattr__(self, name: str) -> Any:
        return getattr(copy, name)


class _Check:
    on = os.environ.get("DECKHAND_MOTO_CHECK") == "1"


CHECK = _Check()  # its ``on`` is flipped by tests/infrastructure/test_moto_fast.py


@functools.cache
def _output_shape(action: str) -> Any:
    from moto.core.utils import get_service_model

    return get_service_model("dynamodb").operation_model(action).output_shape


def install() -> None:
    from moto.core import responses as core_responses
    from moto.core import utils as core_utils
    from moto.dynamodb.responses import DynamoHandler, DynamoResult

    original = DynamoHandler.serialized

    def serialized(self: Any, action_result: Any) -> Any:
        if not isinstance(action_result, DynamoResult) or self._get_action() not in DATA_PLANE:
            return original(self, action_result)
        shape = _output_shape(self._get_action())
        body = json.dumps(_shaped(action_result.result, shape) or {}, separators=(",", ":"))
        headers = {"Content-Type": "application/x-amz-json-1.0", **self.response_headers}
        if CHECK.on:
            status, _, expected = original(self, action_result)
            assert status == 200 and json.loads(expected) == json.loads(body), (expected[:500], body[:500])
        return 200, headers, body

    DynamoHandler.serialized = serialized  # type: ignore[method-assign]

    from moto.dynamodb import models as dynamodb_models

    backups = _TableBackups()
    dynamodb_models.copy = backups  # type: ignore[attr-defined]
    transact = dynamodb_models.DynamoDBBackend.transact_write_items

    @functools.wraps(transact)
    def transact_write_items(self: Any, *args: Any, **kwargs: Any) -> Any:
        backups.local.taken = {}
        try:
            return transact(self, *args, **kwargs)
        finally:
            backups.local.taken = None

    dynamodb_models.DynamoDBBackend.transact_write_items = transact_write_items  # type: ignore[method-assign]
    # moto lists a handler's methods with inspect.getmembers on every call (3 ms each): the same each time.
    cached = functools.cache(core_utils.method_names_from_class)
    core_utils.method_names_from_class = cached
    core_responses.method_names_from_class = cached  # type: ignore[attr-defined]
