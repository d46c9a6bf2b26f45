"""deckhand console-account add: an account of the stack's console pool, in its group, and the identity
an event's owner names (moto)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from backend import moto_account
from deckhand.errors import DeckhandError
from deckhand_local.cli import console_account
from deckhand_local.cli.main import build_parser

REGION = "eu-west-1"


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_account(monkeypatch, REGION)


def stack(aws: Any, name: str = "deckhand") -> str:
    """A stack whose outputs name a pool with the template's two groups (moto makes no Cognito resources)."""
    idp = aws.client("cognito-idp")
    pool = idp.create_user_pool(PoolName="deckhand-console-dev")["UserPool"]["Id"]
    for group in ("organisers", "referees"):
        idp.create_group(UserPoolId=pool, GroupName=group)
    template = {
        "Resources": {"Queue": {"Type": "AWS::SQS::Queue"}},
        "Outputs": {
            "ConsoleUserPoolId": {"Value": pool},
            "ConsoleUrl": {"Value": "https://d111111abcdef8.cloudfront.net/console/"},
        },
    }
    aws.client("cloudformation").create_stack(StackName=name, TemplateBody=json.dumps(template))
    return pool


def test_an_organiser_account_is_made_in_its_group_with_its_identity_and_made_again_harmlessly(aws):
    pool = stack(aws)
    first = console_account.add_account(aws, "deckhand", "td@example.org", "organisers")
    idp = aws.client("cognito-idp")
    user = idp.admin_get_user(UserPoolId=pool, Username="td@example.org")
    sub = next(a["Value"] for a in user["UserAttributes"] if a["Name"] == "sub")
    assert first == {
        "email": "td@example.org",
        "group": "organisers",
        "identity": f"cognito:{sub}",
        "created": True,
        "console": "https://d111111abcdef8.cloudfront.net/console/",
    }
    groups = idp.admin_list_groups_for_user(UserPoolId=pool, Username="td@example.org")["Groups"]
    assert [g["GroupName"] for g in groups] == ["organisers"]
    again = console_account.add_account(aws, "deckhand", "td@example.org", "organisers")
    assert again == {**first, "created": False}
    assert len(idp.list_users(UserPoolId=pool)["Users"]) == 1


def test_the_command_line_makes_a_referee_and_prints_one_json_line(aws):
    pool = stack(aws)
    args = build_parser().parse_args(
        ["console-account", "add", "ref@example.org", "--stack", "deckhand", "--referee"]
    )
    out = io.StringIO()
    assert console_account.run_console_account(args.stack, args.region, args.email, args.referee, out) == 0
    answer = json.loads(out.getvalue())
    assert answer["group"] == "referees" and answer["identity"].startswith("cognito:")
    groups = aws.client("cognito-idp").admin_list_groups_for_user(UserPoolId=pool, Username="ref@example.org")
    assert [g["GroupName"] for g in groups["Groups"]] == ["referees"]


def test_a_stack_without_a_console_a_bad_address_or_group_is_refused(aws):
    aws.client("cloudformation").create_stack(
        StackName="old", TemplateBody=json.dumps({"Resources": {"Queue": {"Type": "AWS::SQS::Queue"}}})
    )
    with pytest.raises(DeckhandError, match="ConsoleUserPoolId"):
        console_account.add_account(aws, "old", "td@example.org", "organisers")
    with pytest.raises(DeckhandError, match="missing"):
        console_account.add_account(aws, "missing", "td@example.org", "organisers")
    stack(aws, "deckhand")
    with pytest.raises(DeckhandError, match="e-mail"):
        console_account.add_account(aws, "deckhand", "not an address", "organisers")
    with pytest.raises(DeckhandError, match="group"):
        console_account.add_account(aws, "deckhand", "td@example.org", "admins")
