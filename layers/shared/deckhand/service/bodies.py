"""The API's request bodies: strict types, bounded numbers, clean text.

Strict: a JSON string, float or boolean is never taken for an integer (``"5"``, ``5.0``, ``true``).
Numbers stay within DynamoDB's 38 significant digits. Text that people read (names, reasons) may
not hold control characters or bidirectional overrides, which could make an export or a screen say
something else than what is stored. Unknown fields are refused: nothing the server decides (an
event's owner, say) can be slipped in by a body.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from ..engines.registry import DUPLICATE_RULESETS

ID = r"^[A-Za-z0-9_.-]{1,64}$"
THING = r"^[A-Za-z0-9_:-]{0,128}$"
SERVER_IDENTITY = "deckhand-server"  # the server's own MQTT identity at a local venue: never a thing
# Names no thing may have: the server's identity, and the segment of the events' topic (dh/events/<id>:
# a thing named so could read an event called "down", and the bridge would take "up" as its messages).
RESERVED_THINGS = frozenset({SERVER_IDENTITY, "events"})
IDENTITY = r"^[A-Za-z0-9+=,.@_:/*-]{1,256}$"  # an IAM ARN or a local venue organiser's name
DYNAMODB_MAX = 10**38 - 1  # a DynamoDB number holds 38 significant digits
# C0 and C1 controls (DEL too), the bidirectional marks, embeddings, overrides and isolates.
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _clean(text: str) -> str:
    bad = UNSAFE.search(text)
    if bad:
        raise ValueError(f"has a control or bidirectional character (U+{ord(bad.group()):04X})")
    return text


def _not_reserved(thing: str | None) -> str | None:
    if thing in RESERVED_THINGS:
        raise ValueError(f"{thing!r} is reserved (the server's identity, or a topic of the server's)")
    return thing


Text = Annotated[str, AfterValidator(_clean)]
Thing = Annotated[str, Field(pattern=THING), AfterValidator(_not_reserved)]
Count = Annotated[int, Field(ge=0, le=DYNAMODB_MAX)]
Score = Annotated[int, Field(ge=-DYNAMODB_MAX, le=DYNAMODB_MAX)]


class Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class EventSpec(Body):
    event_id: Annotated[str | None, Field(pattern=ID)] = None
    name: Annotated[Text, Field(min_length=1, max_length=200)]
    ruleset: Literal[DUPLICATE_RULESETS]  # type: ignore[valid-type]  # the registry's, as an enum
    grade: Literal[
        "national_championship", "national_open", "A", "B1", "B2", "C1", "C2", "C3", "C4", "C5", "unrated"
    ]
    organiser: Literal["centre", "centre_guided", "registered_unit"] = "registered_unit"
    format: Literal["pvp", "pva"] = "pvp"
    rounds: Annotated[int, Field(ge=1, le=50)]
    boards_per_round: Annotated[int, Field(ge=1, le=100)]
    groups: Annotated[int, Field(ge=1, le=100)] = 1
    venue: bool = True
    fee: Count = 0
    start: Annotated[dt.date, Field(strict=False)]  # an ISO date is a JSON string: parsed, not strict
    ranking: Literal["competition", "dense"] = "competition"
    seed: Annotated[Text | None, Field(max_length=128)] = None
    deal_seed: Annotated[
        Text | None,
        Field(
            max_length=128,
            description="Unrated events only (a rated event's deals are secret): boards derived from "
            "this seed are not secret, and every export says so (`deals`: `organiser_seed`).",
        ),
    ] = None


class PlayerSpec(Body):
    id: Annotated[str, Field(pattern=ID)]
    name: Annotated[Text | None, Field(max_length=200)] = None
    silver_points: Count = 0
    red_points: Count = 0


class PlayersBody(Body):
    players: Annotated[list[PlayerSpec], Field(min_length=1, max_length=10000)]


class TableSpec(Body):
    id: Annotated[str, Field(pattern=ID)]
    seats: Annotated[list[Thing], Field(min_length=3, max_length=4)]
    dealer: Thing | None = None


class TablesBody(Body):
    tables: Annotated[list[TableSpec], Field(min_length=1, max_length=1000)]


class RefereeAction(Body):
    kind: Literal["warning", "violation", "adjust"]
    player: Annotated[str | None, Field(pattern=ID)] = None
    round: Annotated[int | None, Field(ge=1, le=1000)] = None
    table: Annotated[str | None, Field(pattern=ID)] = None
    board: Annotated[str | None, Field(pattern=ID)] = None
    scores: Annotated[list[Score] | None, Field(min_length=2, max_length=4)] = None
    reason: Annotated[Text, Field(min_length=1, max_length=500)]


class RolesBody(Body):
    roles: Annotated[
        dict[Annotated[str, Field(pattern=IDENTITY)], Literal["organiser", "referee"]],
        Field(
            max_length=100,
            description="Every role of the event (this replaces them): the identity (an IAM ARN, or a "
            "local venue organiser as `local:NAME`) → `organiser` or `referee`.",
        ),
    ]


def validation_error(errors: Sequence[Any]) -> dict[str, Any]:
    """pydantic's errors as every other refusal: ``{"error": "<field>: <what>", "field": …}``
    (the first error; the message names no Python or pydantic internals)."""
    first = errors[0] if errors else {}
    loc = [str(part) for part in first.get("loc", ()) if part != "body"]
    field = ".".join(loc)
    message = str(first.get("msg") or "is not valid").removeprefix("Value error, ")
    body: dict[str, Any] = {"error": f"{field}: {message}" if field else f"the body {message}"}
    if field:
        body["field"] = field
    if len(errors) > 1:
        body["error"] += f" (and {len(errors) - 1} more)"
    return body
