"""The DynamoDB table of the local venue, created from template.yaml's own definition (not a copy)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml


class _CfnLoader(yaml.SafeLoader):  # type: ignore[misc]
    """Reads CloudFormation short tags (!Ref, !Sub, …) as plain values: we only need literal parts."""


def _any_tag(loader: Any, suffix: str, node: Any) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return {suffix: loader.construct_scalar(node)}
    if isinstance(node, yaml.SequenceNode):
        return {suffix: loader.construct_sequence(node, deep=True)}
    assert isinstance(node, yaml.MappingNode)
    return {suffix: loader.construct_mapping(node, deep=True)}


_CfnLoader.add_multi_constructor("!", _any_tag)


def table_definition(template: Path) -> dict[str, Any]:
    """CreateTable arguments from the template's AWS::DynamoDB::Table (keys, attributes, billing)."""
    doc = yaml.load(template.read_text(), Loader=_CfnLoader)  # noqa: S506 - a safe loader subclass
    tables = [r for r in doc["Resources"].values() if r["Type"] == "AWS::DynamoDB::Table"]
    if len(tables) != 1:
        raise ValueError(f"template.yaml should define one DynamoDB table, found {len(tables)}")
    props = tables[0]["Properties"]
    return {
        "AttributeDefinitions": props["AttributeDefinitions"],
        "KeySchema": props["KeySchema"],
        "BillingMode": props["BillingMode"],
    }


def create_table(client: Any, name: str, template: Path) -> None:
    """A fresh, empty table (moto keeps state per process: a second venue in one process starts clean;
    persisted data is loaded afterwards from its file)."""
    if name in client.list_tables()["TableNames"]:
        client.delete_table(TableName=name)
        client.get_waiter("table_not_exists").wait(TableName=name)
    client.create_table(TableName=name, **table_definition(template))
    client.get_waiter("table_exists").wait(TableName=name)


def export_items(client: Any, name: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    kwargs: dict[str, Any] = {"TableName": name}
    while True:
        page = client.scan(**kwargs)
        items.extend(page["Items"])
        if "LastEvaluatedKey" not in page:
            return items
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def import_items(client: Any, name: str, items: list[dict[str, Any]]) -> None:
    for i in range(0, len(items), 25):
        batch = [{"PutRequest": {"Item": item}} for item in items[i : i + 25]]
        client.batch_write_item(RequestItems={name: batch})
