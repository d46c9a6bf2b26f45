"""Fixtures that several security tests share (tests/conftest.py says where fixtures live)."""

from typing import Any

import boto3
import pytest
from api_calls import BOB, api_under_moto, call, cup_dealt
from backend import Backend, run_round

TABLE = "deckhand-test"  # backend.create_table's


def _items() -> list[dict[str, Any]]:
    """Every item of the test table under moto, as DynamoDB's wire form."""
    client = boto3.client("dynamodb", region_name="us-east-1")
    return [item for page in client.get_paginator("scan").paginate(TableName=TABLE) for item in page["Items"]]


def _restore(items: list[dict[str, Any]]) -> None:
    client = boto3.client("dynamodb", region_name="us-east-1")
    for i in range(0, len(items), 25):
        client.batch_write_item(
            RequestItems={TABLE: [{"PutRequest": {"Item": it}} for it in items[i : i + 25]]}
        )


@pytest.fixture(scope="session")
def played_cup() -> list[dict[str, Any]]:
    """Round 1 of Alice's cup played through once for the run (4 boards by the bots): its items."""
    with cup_dealt() as (_, table_a, table_b):
        run_round(table_a[0].backend, table_a + table_b)
        return _items()


@pytest.fixture
def cup(played_cup):
    """Alice's cup with round 1 played through (tables A and B, boards 1 and 2), Bob its referee: the
    run's one play (played_cup) written into this test's own empty table."""
    with api_under_moto(Backend().rt) as api:
        _restore(played_cup)
        assert call(api, "PUT", "/events/cup/roles", {"roles": {BOB: "referee"}})[0] == 200
        yield api
