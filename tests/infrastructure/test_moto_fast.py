"""tests/moto_fast.py answers as moto's own serializer does, and its one table backup a transaction still
rolls a failed transaction back whole: the service's moto-backed tests run on it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import moto_fast
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws


@pytest.fixture
def table() -> Iterator[Any]:
    with mock_aws():
        client = boto3.client("dynamodb", region_name="eu-west-1")
        client.create_table(
            TableName="t",
            KeySchema=[
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"},
            ],
            AttributeDefinitions=[
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "S"},
            ],
            BillingMode="PAY_PER_REQUEST",
        )
        moto_fast.CHECK.on = True  # every answer written both ways, and compared
        try:
            yield client
        finally:
            moto_fast.CHECK.on = False


def item(sk: str, **more: Any) -> dict[str, Any]:
    return {"pk": {"S": "E"}, "sk": {"S": sk}, **more}


def test_each_data_call_answers_as_the_serializer_does(table: Any) -> None:
    rich = {
        "n": {"N": "7"},
        "b": {"B": b"\x00\xff"},
        "tags": {"SS": ["a", "b"]},
        "doc": {"M": {"l": {"L": [{"S": "x"}, {"NULL": True}, {"BOOL": False}]}}},
        "text": {"S": "中文" * 1000},
    }
    table.put_item(TableName="t", Item=item("A", **rich), ReturnConsumedCapacity="TOTAL")
    got = table.get_item(TableName="t", Key=item("A"), ConsistentRead=True)["Item"]
    assert got["b"] == {"B": b"\x00\xff"} and got["text"] == rich["text"] and got["doc"] == rich["doc"]
    table.update_item(
        TableName="t",
        Key=item("A"),
        UpdateExpression="SET n = n + :one",
        ExpressionAttributeValues={":one": {"N": "1"}},
        ReturnValues="ALL_NEW",
    )
    table.batch_write_item(RequestItems={"t": [{"PutRequest": {"Item": item(f"B{i}")}} for i in range(5)]})
    page = table.query(
        TableName="t",
        KeyConditionExpression="pk = :p",
        ExpressionAttributeValues={":p": {"S": "E"}},
        Limit=3,
        ReturnConsumedCapacity="TOTAL",
    )
    assert page["Count"] == 3 and "LastEvaluatedKey" in page
    got_many = table.batch_get_item(RequestItems={"t": {"Keys": [item("A"), item("B1")]}})["Responses"]["t"]
    assert sorted(i["sk"]["S"] for i in got_many) == ["A", "B1"]
    assert table.scan(TableName="t")["Count"] == 6
    table.delete_item(TableName="t", Key=item("B0"), ReturnValues="ALL_OLD")


def test_a_failed_transaction_changes_nothing_and_a_good_one_everything(table: Any) -> None:
    table.put_item(TableName="t", Item=item("A", v={"N": "1"}))
    writes = [{"Put": {"TableName": "t", "Item": item(f"T{i}")}} for i in range(20)]
    refused = {
        "Put": {
            "TableName": "t",
            "Item": item("A", v={"N": "2"}),
            "ConditionExpression": "v = :two",
            "ExpressionAttributeValues": {":two": {"N": "2"}},
        }
    }
    with pytest.raises(ClientError) as error:
        table.transact_write_items(TransactItems=[*writes, refused])
    assert error.value.response["Error"]["Code"] == "TransactionCanceledException"
    assert table.scan(TableName="t")["Count"] == 1  # none of the 20 puts stayed
    table.transact_write_items(TransactItems=writes)
    assert table.scan(TableName="t")["Count"] == 21
