"""Many items written or read in few calls, for the deal of a round (2,500 tables: thousands of items).

Two kinds of write, by what a retried writer may do to an item:
- :func:`put_all`: items whose content is fixed by their key (a deal's card order from the round's
  secret), so writing one again changes nothing: unconditional ``BatchWriteItem``, 25 a call, the
  items DynamoDB leaves unprocessed sent again after a growing pause.
- :func:`put_absent`: items that move on once written (a board under play, a match): written only
  where no item has their key, never over one. A consistent ``BatchGetItem`` finds those stored; the
  rest go in transactions of conditional puts (``attribute_not_exists``; ``BatchWriteItem`` has no
  conditions), up to 100 a call. An item another writer stored between the read and the write cancels
  its transaction: that one is read, the others are sent again.
Either call, interrupted at any point and made again with the same items, ends with the same items
stored as one that was never interrupted.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from pynamodb.exceptions import TransactWriteError

from .models import _Base, shared_connection, transaction

M = TypeVar("M", bound=_Base)
T = TypeVar("T")

BATCH_WRITE_LIMIT = 25  # DynamoDB's items a BatchWriteItem
BATCH_GET_LIMIT = 100  # keys a BatchGetItem
TRANSACTION_LIMIT = 100  # items a TransactWriteItems
TRANSACTION_BYTES = 3_000_000  # under the 4 MB a transaction (item sizes estimated from their JSON)
MAX_ROUNDS = 10  # calls for one batch's unprocessed or raced items before giving up
BASE_PAUSE_S = 0.05

Key = tuple[str, str]


class BatchIncomplete(Exception):
    """DynamoDB kept leaving items unprocessed (throttled) after every retry: a re-drive writes them."""


def pause(attempt: int) -> None:
    """Exponential backoff with full jitter before resending unprocessed items (tests replace it)."""
    time.sleep(random.uniform(0, BASE_PAUSE_S * 2**attempt))


def key_of(item: _Base) -> Key:
    return (item.pk, item.sk)


def _chunks(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _table(items: Sequence[_Base]) -> str:
    names = {type(i).Meta.table_name for i in items}
    if len(names) != 1:
        raise ValueError(f"items of one table only, not {sorted(names)}")
    return names.pop()


def _send(operation: str, **request: Any) -> dict[str, Any]:
    """One call on the models' client (the tests inject failures here)."""
    client = shared_connection().client
    answer: dict[str, Any] = getattr(client, operation)(**request)
    return answer


def put_all(items: Sequence[_Base], *, send: Callable[..., dict[str, Any]] | None = None) -> None:
    """Write every item unconditionally, 25 a call; unprocessed items are resent with backoff.

    Only for items a second write leaves as they are (their content fixed by their key) and without
    a version: a versioned item is one that moves on, for :func:`put_absent`."""
    if not items:
        return
    table = _table(items)
    versioned = [i for i in items if i._version_attribute_name]
    if versioned:
        raise ValueError(f"{type(versioned[0]).__name__} is versioned: write it with put_absent")
    call = send or _send
    for chunk in _chunks(items, BATCH_WRITE_LIMIT):
        requests = [{"PutRequest": {"Item": item.serialize()}} for item in chunk]
        for attempt in range(MAX_ROUNDS):
            answer = call("batch_write_item", RequestItems={table: requests})
            requests = answer.get("UnprocessedItems", {}).get(table, [])
            if not requests:
                break
            pause(attempt)
        else:
            raise BatchIncomplete(f"{len(requests)} items left unprocessed after {MAX_ROUNDS} tries")


def get_many(
    model: type[M], keys: Sequence[Key], *, send: Callable[..., dict[str, Any]] | None = None
) -> dict[Key, M]:
    """The stored items of ``keys`` (consistent reads, 100 keys a call; unprocessed keys asked again
    with backoff): key → item, absent keys missing."""
    table = model.Meta.table_name
    call = send or _send
    found: dict[Key, M] = {}
    for chunk in _chunks(list(dict.fromkeys(keys)), BATCH_GET_LIMIT):
        request: dict[str, Any] = {
            "Keys": [{"pk": {"S": pk}, "sk": {"S": sk}} for pk, sk in chunk],
            "ConsistentRead": True,
        }
        for attempt in range(MAX_ROUNDS):
            answer = call("batch_get_item", RequestItems={table: request})
            for raw in answer.get("Responses", {}).get(table, []):
                item = model.from_raw_data(raw)
                found[key_of(item)] = item
            request = answer.get("UnprocessedKeys", {}).get(table, {})
            if not request.get("Keys"):
                break
            pause(attempt)
        else:
            raise BatchIncomplete(f"{len(request['Keys'])} keys left unread after {MAX_ROUNDS} tries")
    return found


def _size(item: _Base) -> int:
    return len(json.dumps(item.serialize(), separators=(",", ":")))


def transaction_groups(items: Sequence[M]) -> Iterator[list[M]]:
    """The items in groups a transaction takes: at most 100, and under 4 MB together."""
    group: list[M] = []
    size = 0
    for item in items:
        n = _size(item)
        if group and (len(group) == TRANSACTION_LIMIT or size + n > TRANSACTION_BYTES):
            yield group
            group, size = [], 0
        group.append(item)
        size += n
    if group:
        yield group


def put_absent(items: Sequence[M]) -> dict[Key, M]:
    """Write each item only where no item has its key, in few calls (module doc); key → the item as
    stored: the one found, or the one written (its version set as saved). Items of one model."""
    if not items:
        return {}
    model = type(items[0])
    if any(type(i) is not model for i in items):
        raise ValueError("put_absent takes items of one model")
    stored = get_many(model, [key_of(i) for i in items])
    todo = [i for i in items if key_of(i) not in stored]
    for group in transaction_groups(todo):
        for attempt in range(MAX_ROUNDS):
            raced = _put_group(model, group)
            if raced is None:  # written
                break
            if raced:  # stored by another writer meanwhile: that one stays
                stored.update(get_many(model, raced))
                group = [i for i in group if key_of(i) not in stored]
                if not group:
                    break
            else:  # a concurrent transaction on one of the items: the same again, after a pause
                pause(attempt)
        else:
            raise BatchIncomplete(f"{len(group)} items kept racing after {MAX_ROUNDS} tries")
        for item in group:
            stored[key_of(item)] = item
    return stored


def _put_group(model: type[M], group: Sequence[M]) -> list[Key] | None:
    """One transaction of conditional puts: None when written, else the keys another writer stored
    first ([]: cancelled by a concurrent transaction, nothing stored first)."""
    try:
        with transaction() as tx:
            for item in group:
                tx.save(item, condition=model.pk.does_not_exist())
    except TransactWriteError as exc:
        if exc.cause_response_code != "TransactionCanceledException":
            raise
        reasons = exc.cancellation_reasons
        if any(r and r.code not in ("ConditionalCheckFailed", "TransactionConflict") for r in reasons):
            raise
        return [
            key_of(i)
            for i, r in zip(group, reasons, strict=False)
            if r and r.code == "ConditionalCheckFailed"
        ]
    return None
