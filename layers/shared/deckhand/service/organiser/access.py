"""Who may do what to an event: its owner, and the organisers and referees the owner names.

The identity is the caller's as the API's authorizer verified it (API Gateway's IAM identity, the
local venue's token), never anything in a request's body. An event made in-process (tests, benches)
has no owner: nobody may change it through the API.
"""

from __future__ import annotations

import re
import secrets
from typing import Literal

from pynamodb.exceptions import TransactWriteError

from ...errors import Conflict, DeckhandError
from ..infra.clock import now_ms
from ..storage.keys import audit_sk
from ..storage.models import AuditItem, EventItem, transaction

Role = Literal["owner", "organiser", "referee"]
Action = Literal["grant", "organise", "referee"]

# Each action and the roles that may take it: an organiser runs the event and may referee it; a
# referee only referees (warnings, violations, adjustments, the audit log); granting is the owner's.
MAY: dict[Action, frozenset[Role]] = {
    "grant": frozenset({"owner"}),
    "organise": frozenset({"owner", "organiser"}),
    "referee": frozenset({"owner", "organiser", "referee"}),
}
GRANTABLE = ("organiser", "referee")
MAX_ROLES = 100
# An IAM ARN or a local name: printable, no spaces or control characters, at most 256 characters.
IDENTITY = re.compile(r"^[A-Za-z0-9+=,.@_:/*-]{1,256}$")


class Forbidden(DeckhandError):
    """The caller may not do this to this event (a 403)."""


class NoIdentity(Forbidden):
    """The request carries no verified identity."""


def role_of(event: EventItem, identity: str) -> Role | None:
    if event.owner is not None and identity == event.owner:
        return "owner"
    role = (event.roles or {}).get(identity)
    return role if role in GRANTABLE else None


def require(event: EventItem, identity: str, action: Action) -> Role:
    """The caller's role if it may take ``action`` on ``event``; Forbidden otherwise."""
    role = role_of(event, identity)
    if role is None or role not in MAY[action]:
        raise Forbidden(f"{identity} may not {action} event {event.pk.split('#', 1)[1]!r}")
    return role


def check_identity(identity: str) -> str:
    if not IDENTITY.match(identity):
        raise DeckhandError(f"identity {identity[:80]!r} is not an IAM ARN or a venue organiser name")
    return identity


def set_roles(event: EventItem, identity: str, roles: dict[str, str]) -> EventItem:
    """Replace the event's roles (owner only), with an audit entry (``roles``: who was granted, changed
    or removed) in the same transaction. Written on the event's version: a grant made meanwhile by
    another request fails this one rather than being lost. The same roles again change nothing and
    add no entry (a retry)."""
    require(event, identity, "grant")
    if len(roles) > MAX_ROLES:
        raise DeckhandError(f"at most {MAX_ROLES} roles per event")
    for who, role in roles.items():
        check_identity(who)
        if role not in GRANTABLE:
            raise DeckhandError(f"role {role!r} is not one of {', '.join(GRANTABLE)}")
        if who == event.owner:
            raise DeckhandError("the owner has every role already")
    before, after = dict(event.roles or {}), dict(sorted(roles.items()))
    if before == after:
        return event
    at = now_ms()
    entry = AuditItem(
        event.pk,
        audit_sk(at, secrets.token_hex(4)),
        kind="roles",
        detail=role_changes(before, after),
        by=identity,
        at=at,
    )
    try:
        with transaction() as tx:
            tx.update(event, actions=[EventItem.roles.set(after)])
            tx.save(entry, condition=AuditItem.sk.does_not_exist())
    except TransactWriteError:
        raise Conflict("the event changed meanwhile; read it and try again") from None
    event.roles = after
    return event


def role_changes(before: dict[str, str], after: dict[str, str]) -> dict[str, dict[str, str]]:
    """What an audit entry says of a change of staff: each identity granted, changed (to its new
    role) or removed (with the role it had)."""
    changes: dict[str, dict[str, str]] = {"granted": {}, "changed": {}, "removed": {}}
    for who, role in after.items():
        if who not in before:
            changes["granted"][who] = role
        elif before[who] != role:
            changes["changed"][who] = role
    changes["removed"] = {who: role for who, role in before.items() if who not in after}
    return {k: v for k, v in changes.items() if v}
