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


def unique_table_name(prefix: str) -> str:
    """A table of its own on a shared database server (DynamoDB's names: 3–255 of [A-Za-z0-9_.-])."""
    import secrets

    return f"deckhand-{prefix}-{secrets.token_hex(4)}"


def ensure_table(client: Any, name: str, template: Path) -> bool:
    """The venue's table, created from the template when missing; an existing table (a restarted
    venue's data) is never deleted or changed. Returns whether it was created."""
    if name in list_tables(client):
        return False
    client.create_table(TableName=name, **table_definition(template))
    client.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 0.1, "MaxAttempts": 300})
    return True


def list_tables(client: Any) -> list[str]:
    names: list[str] = []
    kwargs: dict[str, Any] = {}
    while True:
        page = client.list_tables(**kwargs)
        names.extend(page["TableNames"])
        if "LastEvaluatedTableName" not in page:
            return names
        kwargs["ExclusiveStartTableName"] = page["LastEvaluatedTableName"]
