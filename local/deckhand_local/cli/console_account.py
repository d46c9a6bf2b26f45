"""``deckhand console-account add EMAIL --stack NAME [--referee]``: an account of a deployed stack's
console (its Cognito user pool), in the group that says what it may do, and the identity an event's
owner names to give it a role (``cognito:<sub>``, docs/access.md).

The pool sends the new account's temporary password by e-mail; the person sets their own at first
sign-in. Adding an account that exists puts it in the group and prints its identity again: running the
command twice is harmless.
"""

from __future__ import annotations

import json
from typing import IO, Any

from deckhand.errors import DeckhandError

from ..console.cognito import IDENTITY_PREFIX, ORGANISERS, REFEREES
from .publish_page import stack_outputs


def add_account(session: Any, stack: str, email: str, group: str) -> dict[str, Any]:
    """The account ``email`` in ``group`` of the stack's console pool, made if it is not there."""
    if group not in (ORGANISERS, REFEREES):
        raise DeckhandError(f"group {group!r} is not {ORGANISERS} or {REFEREES}")
    if "@" not in email or any(c.isspace() for c in email):
        raise DeckhandError(f"{email!r} is not an e-mail address")
    outputs = stack_outputs(session.client("cloudformation"), stack, ("ConsoleUserPoolId", "ConsoleUrl"))
    pool = outputs["ConsoleUserPoolId"]
    idp = session.client("cognito-idp")
    try:
        idp.admin_create_user(
            UserPoolId=pool,
            Username=email,
            UserAttributes=[{"Name": "email", "Value": email}, {"Name": "email_verified", "Value": "true"}],
            DesiredDeliveryMediums=["EMAIL"],
        )
        created = True
    except idp.exceptions.UsernameExistsException:
        created = False
    idp.admin_add_user_to_group(UserPoolId=pool, Username=email, GroupName=group)
    attributes = idp.admin_get_user(UserPoolId=pool, Username=email)["UserAttributes"]
    sub = next(a["Value"] for a in attributes if a["Name"] == "sub")
    return {
        "email": email,
        "group": group,
        "identity": IDENTITY_PREFIX + sub,
        "created": created,
        "console": outputs["ConsoleUrl"],
    }


def run_console_account(stack: str, region: str | None, email: str, referee: bool, out: IO[str]) -> int:
    import boto3

    group = REFEREES if referee else ORGANISERS
    out.write(json.dumps(add_account(boto3.Session(region_name=region), stack, email, group)) + "\n")
    return 0
