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

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, Strict

from ..competition.artificial import Artificial
from ..engines.registry import RULESETS

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


class MatchSpec(Body):
    """A match event's settings (service/organiser/match_settings.py checks the options' documents)."""

    format: Literal[
        "swiss", "round_robin", "knockout", "double_elimination", "swiss_with_cut", "swiss_then_knockout"
    ] = "swiss"
    games: Literal["one_game", "best_of_three"] = "one_game"
    same_boards: bool = Field(
        default=False, description="Board k is the same deal at every table of a round (off by default)."
    )
    no_new_board_after: Annotated[
        int | None,
        Field(
            ge=1, le=1440, description="Minutes after a match's start when no new board begins (time modes)."
        ),
    ] = None
    swiss: dict[str, Any] | None = Field(
        default=None, description="round1, lot_seed, no_same_region_round1, forbid_same_club, forbidden_pairs"
    )
    ranking: dict[str, Any] | None = Field(
        default=None, description="chain, h2h, h2h_recursive, final, lot_seed"
    )
    round_robin: dict[str, Any] | None = Field(
        default=None, description="groups (snake by seed; 1 by default), legs (1 single, 2 double)"
    )
    knockout: dict[str, Any] | None = Field(
        default=None,
        description="third_place (none|play), final (one_final|reset: double elimination), "
        "match ({decision: best_of|summed_level_points, games: 3|5 or 2|3}), "
        "draw (strength|lot: a knockout's bracket by seeds, or by lot — a board game's default)",
    )
    extra_board: dict[str, Any] | None = Field(
        default=None,
        description="Swiss: last_rounds (1–2) and leading (pairs): their matches play an extra board, never drawn",
    )
    stages: dict[str, Any] | None = Field(
        default=None,
        description="swiss_with_cut: units [{rounds, leave}]; swiss_then_knockout: swiss_rounds, qualifiers (2ⁿ)",
    )
    deal_ms: Annotated[
        int,
        Field(
            ge=0,
            le=10_000,
            description="Games whose seats act during the deal (trump declared as cards arrive): ms between two cards the server "
            "gives out at a table without a dealing table (250 by default; 0: all at once).",
        ),
    ] = 250
    max_games: Annotated[
        int | None,
        Field(
            ge=2,
            le=50,
            description="A board game's match: games before a match still level is decided by lot (8 by default).",
        ),
    ] = None


class EventSpec(Body):
    event_id: Annotated[str | None, Field(pattern=ID)] = None
    name: Annotated[Text, Field(min_length=1, max_length=200)]
    ruleset: Literal[RULESETS]  # type: ignore[valid-type]  # the registry's, as an enum
    grade: Literal[
        "national_championship", "national_open", "A", "B1", "B2", "C1", "C2", "C3", "C4", "C5", "unrated"
    ]
    organiser: Literal["centre", "centre_guided", "registered_unit"] = "registered_unit"
    format: Literal["pvp", "pva"] = "pvp"
    rounds: Annotated[int, Field(ge=1, le=50)]
    boards_per_round: Annotated[
        int | None,
        Field(ge=1, le=100, description="Duplicate events: the boards of a round (required there)."),
    ] = None
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

    match: MatchSpec | None = Field(
        default=None,
        description="Match events (pairs, a game's rule set that carries; a board game's players): their settings.",
    )
    options: dict[str, Any] | None = Field(
        default=None,
        description="The rule set's options (an end mode, a board count, minutes: docs/engines.md).",
    )


class PlayerSpec(Body):
    id: Annotated[str, Field(pattern=ID)]
    name: Annotated[Text | None, Field(max_length=200)] = None
    silver_points: Count = 0
    red_points: Count = 0
    region: Annotated[
        Text | None, Field(max_length=100, description="The player's region (shown in the export).")
    ] = None


class PairPlayer(Body):
    id: Annotated[str, Field(pattern=ID)]
    name: Annotated[Text | None, Field(max_length=200)] = None
    ai: bool = Field(
        default=False,
        description="A players-vs-AI (pva) event only: the AI plays this player's seat (no join link).",
    )


class PairSpec(Body):
    id: Annotated[str, Field(pattern=ID)]
    name: Annotated[Text | None, Field(max_length=200)] = None
    players: Annotated[
        list[PairPlayer],
        Field(min_length=1, max_length=2, description="Two players; a board game's side: one"),
    ]
    seed: Annotated[
        int | None,
        Field(ge=1, le=100000, description="Strength, 1 the strongest (a Swiss round 1 by snake)."),
    ] = None
    region: Annotated[Text | None, Field(max_length=100)] = None
    club: Annotated[Text | None, Field(max_length=100)] = None


class PairsBody(Body):
    pairs: Annotated[list[PairSpec], Field(min_length=1, max_length=5000)]


class PairingBody(Body):
    """The organiser's own pairing of the next round (checked, warned about, logged as an override)."""

    pairs: Annotated[
        list[Annotated[list[Annotated[str, Field(pattern=ID)]], Field(min_length=2, max_length=2)]],
        Field(min_length=1, max_length=2500),
    ]
    bye: Annotated[str | None, Field(pattern=ID)] = None
    reason: Annotated[Text, Field(min_length=1, max_length=500)]


class PlayersBody(Body):
    players: Annotated[list[PlayerSpec], Field(min_length=1, max_length=10000)]


class LinksBody(Body):
    """Whose join links to issue (each replaces the player's link before); none named: every player."""

    players: Annotated[
        list[Annotated[str, Field(pattern=ID)]] | None,
        Field(min_length=1, max_length=10000, description="Player ids (default: every registered player)."),
    ] = None


class TableSpec(Body):
    id: Annotated[str, Field(pattern=ID)]
    seats: Annotated[list[Thing], Field(min_length=2, max_length=4)]
    dealer: Thing | None = None
    eboard: Annotated[
        Thing | None,
        Field(
            description="A board game's electronic board at the table: it reports the moves it senses "
            "(docs/devices.md); refused for a game of cards or one whose seats see different boards."
        ),
    ] = None


class TablesBody(Body):
    tables: Annotated[list[TableSpec], Field(min_length=1, max_length=1000)]


class RefereeAction(Body):
    kind: Annotated[
        Literal[
            "warning",
            "violation",
            "foul",
            "forfeit",
            "disqualify",
            "adjust",
            "artificial",
            "reseat",
            "withdraw",
            "serve_deal",
            "resume",
            "adjudicate",
            "correct_move",
            "no_show",
        ],
        Field(
            description="A match event's penalties apply to the player's board in play (foul, forfeit and "
            "disqualify are a match's only); adjust replaces a duplicate board's scores; artificial gives "
            "each seat of a table an artificial score for a board (the table is out of the board's "
            "comparison, docs/competition.md); a board the table has not ended (never begun, or stuck) is "
            "ended unplayed first and the table goes on to its next board; reseat seats the player at table and seat from each table's "
            "next board not yet begun of the round in play, swapping with whoever sat there (docs/cli.md); "
            "withdraw: the "
            "player (a match event: the player's pair) keeps its results and is seated no more; "
            "serve_deal: the table's dealing table failed during a paced deal, the server gives out the "
            "rest of its cards and deals the rest of the match; resume: the board its electronic board "
            "stopped (an illegal move sensed) goes on, the pieces put back, its clocks moved on by the stop "
            "(names the table, the board's version, and the board outside a match). "
            "A board game's board in play (each bound "
            "to the board's `version`, as the round's status gives it): adjudicate decides a `claim` "
            "(upheld: the game ends, won by `winner`, null a draw; rejected: nothing changes); "
            "correct_move replaces the board's `move`-th move with `data` and replays the game from its "
            "start, refused if the corrected line is not legal; no_show: the `player` who did not "
            "appear loses the game in play by forfeit, and the match."
        ),
    ]
    player: Annotated[str | None, Field(pattern=ID)] = None
    round: Annotated[int | None, Field(ge=1, le=1000)] = None
    table: Annotated[str | None, Field(pattern=ID)] = None
    board: Annotated[str | None, Field(pattern=ID)] = None
    seat: Annotated[int | None, Field(ge=0, le=3, description="reseat: the seat the player takes.")] = None
    scores: Annotated[list[Score] | None, Field(min_length=2, max_length=4)] = None
    artificial: Annotated[
        list[Annotated[Artificial, Strict(False)] | None] | None,  # the kind's name, as JSON has it
        Field(
            min_length=2,
            max_length=4,
            description="artificial: one kind a seat, in seat order (null for an AI seat): average_plus "
            "(60 % of the board's top), average (50 %), average_minus (40 %), averaged (the seat's own "
            "mean MP% over its other boards of the round).",
        ),
    ] = None
    version: Annotated[
        int | None,
        Field(
            ge=0,
            le=DYNAMODB_MAX,
            description="resume, adjudicate, correct_move, no_show: the board's version, as the round's "
            "status gives it.",
        ),
    ] = None
    claim: Annotated[
        str | None,
        Field(
            pattern=r"^[a-z_]{1,32}$",
            description="adjudicate: the claim by the game's word (forbidden, perpetual_check, "
            "perpetual_chase, other; forfeit).",
        ),
    ] = None
    decision: Literal["upheld", "rejected"] | None = None
    winner: Annotated[
        int | None, Field(ge=0, le=1, description="adjudicate upheld: the seat that wins (null: a draw).")
    ] = None
    move: Annotated[
        int | None, Field(ge=1, le=10_000, description="correct_move: the move's number, 1 first.")
    ] = None
    data: Annotated[
        dict[
            Annotated[str, Field(pattern=r"^[a-z]{1,8}$")],
            Annotated[str, Field(pattern=r"^[A-Za-z0-9]{1,8}$")],
        ]
        | None,
        Field(
            min_length=1,
            max_length=4,
            description='correct_move: the move as a device sends it, like {"from": "h2", "to": "e2"} or '
            '{"point": "H8"}.',
        ),
    ] = None
    reason: Annotated[Text, Field(min_length=1, max_length=500)]


class CallHandled(Body):
    """A handset's call for the referee, answered: named as the round's status lists it."""

    round: Annotated[int, Field(ge=1, le=1000)]
    table: Annotated[str, Field(pattern=ID)]
    board: Annotated[str, Field(pattern=ID)]
    seat: Annotated[int, Field(ge=0, le=3)]
    at: Annotated[
        int, Field(ge=0, le=DYNAMODB_MAX, description="The call's time (ms), as the status gives it.")
    ]
    note: Annotated[Text | None, Field(min_length=1, max_length=500)] = None


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
    if first.get("type") == "json_invalid":  # its loc is the position, not a field
        where = [part for part in first.get("loc", ()) if isinstance(part, int)]
        expected = str((first.get("ctx") or {}).get("error") or "invalid JSON")
        at = f" at character {where[0]}" if where else ""
        return {"error": f"the body is not valid JSON{at}: {expected}"}
    loc = [str(part) for part in first.get("loc", ()) if part != "body"]
    field = ".".join(loc)
    message = str(first.get("msg") or "is not valid").removeprefix("Value error, ")
    body: dict[str, Any] = {"error": f"{field}: {message}" if field else f"the body {message}"}
    if field:
        body["field"] = field
    if len(errors) > 1:
        body["error"] += f" (and {len(errors) - 1} more)"
    return body
