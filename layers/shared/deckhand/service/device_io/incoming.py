"""Device messages as they arrive (docs/protocol.md): parsed and validated before anything is read,
so a malformed message is refused with the field it got wrong and costs nothing."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from ...engines.common.cards import parse_cards
from ...engines.common.words import LANGS, Lang
from ...engines.contract import Action
from ...engines.registry import Game
from ...errors import CardError

THING = re.compile(r"^[A-Za-z0-9_:-]{1,128}$")


DEALER = -1
EBOARD = -3  # an electronic board's assignment (organiser.events.EBOARD_SEAT)


MsgId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")]


BoardId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]{1,32}$")]


RoundNo = Annotated[int, Field(ge=1, le=999)]


Tokens = Annotated[list[str], Field(min_length=1, max_length=108)]


Kind = Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,16}$")]


class BadMessage(Exception):
    def __init__(self, code: str, why: str, ask: dict[str, Any] | None = None) -> None:
        super().__init__(why)
        self.code = code
        self.why = why
        self.ask = ask  # the decision that resolves the refusal (docs/protocol.md, ``reject``)


class _Up(BaseModel):
    """Fields every message has; fields a message type does not list are ignored (docs/protocol.md)."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    msg: MsgId


class _OnBoard(_Up):
    board: BoardId
    r: RoundNo | None = None  # the round of the view the message was decided on

    @model_validator(mode="after")
    def _round_given_is_a_number(self) -> _OnBoard:
        if self.r is None and "r" in self.model_fields_set:
            raise ValueError("r must be a number")
        return self


class Hello(_Up):
    t: Literal["hello"]
    # The language the device's screens are drawn in from now on (remembered); absent: unchanged
    # (a device that never says one gets English: the handsets).
    lang: Lang | None = None

    @field_validator("lang", mode="before")
    @classmethod
    def _language_given_is_one(cls, value: Any) -> Any:
        if value is None:  # given as null: never "unchanged" (that is leaving it out)
            raise ValueError("lang must be a language")
        return value


class Dealt(_OnBoard):
    t: Literal["dealt"]
    cards: Tokens
    # A report while dealing (a game whose seats act during the deal): ``cards`` are the first ``upto``
    # cards read so far, and the server gives them to the seats. Absent: the whole deal, read.
    upto: Annotated[int, Field(ge=1, le=108)] | None = None

    @model_validator(mode="after")
    def _upto_counts_the_cards(self) -> Dealt:
        if self.upto is not None and self.upto != len(self.cards):
            raise ValueError("upto must be the number of cards reported")
        return self


SquareName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9]{1,8}$")]


class Moved(_OnBoard):
    """An electronic board's report of a move it sensed: its squares in the order of the move's keys
    (the ``q`` of its last ``pos``), for the position numbered ``n`` (the moves played before it)."""

    t: Literal["moved"]
    n: Annotated[int, Field(ge=0, le=100_000)]
    sq: Annotated[list[SquareName], Field(min_length=1, max_length=2)]


class PositionReport(_OnBoard):
    """An electronic board's whole position as its sensors read it: the grid's rows of glyphs."""

    t: Literal["position"]
    rows: Annotated[
        list[Annotated[str, StringConstraints(max_length=32)]], Field(min_length=1, max_length=24)
    ]


class ActionBody(BaseModel):
    """``a`` of an ``act``: the kind, and what the game's action schema says it carries."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    k: Kind
    v: Any = None  # what ``v`` and ``c`` must be depends on the kind: checked against the game's schema
    c: Any = None
    d: Any = None


class Act(_OnBoard):
    t: Literal["act"]
    a: ActionBody


Message = Hello | Dealt | Act | Moved | PositionReport
DeviceMessage = Annotated[Message, Field(discriminator="t")]


_MESSAGE: TypeAdapter[Message] = TypeAdapter(DeviceMessage)


_TOKENS: TypeAdapter[list[str]] = TypeAdapter(Tokens, config=ConfigDict(strict=True))


# What a malformed field is told, by its place in the message (the first one wins, in this order).
_WHY = (
    ("msg", "msg must be a message id of 1–64 letters, digits or _.:-"),
    ("lang", f"lang must be one of {', '.join(map(repr, LANGS))}"),
    ("board", "board must be a board id"),
    ("cards", "cards must be a non-empty list of card tokens"),
    ("upto", "upto must be the number of cards read so far (1–108)"),
    ("n", "n must be the number of moves played before the move (the pos's n)"),
    ("sq", "sq must be the move's 1–2 square names"),
    ("rows", "rows must be the grid's 1–24 rows of glyphs"),
    ("r", "r must be the round number of the view"),
    ("a.k", "a.k must be an action kind"),
    ("a", 'a must be an action: {"k": kind, "v"?: value, "c"?: cards, "d"?: data}'),
)


def parse(payload: Any) -> Message:
    """The message, or ``BadMessage("malformed", …)`` saying which field is wrong."""
    if not isinstance(payload, dict):
        raise BadMessage("malformed", "a message must be a JSON object")
    try:
        return _MESSAGE.validate_python(payload)
    except ValidationError as exc:
        places = set()
        for error in exc.errors():
            if error["type"] in ("union_tag_invalid", "union_tag_not_found"):
                raise BadMessage("malformed", f"unknown message type {payload.get('t')!r}") from None
            loc = [str(part) for part in error["loc"][1:]]  # after the message type
            places.add(".".join(loc[:2]))
            places.add(loc[0] if loc else "")
        for place, why in _WHY:
            if place in places:
                raise BadMessage("malformed", why) from None
        raise BadMessage("malformed", str(exc.errors()[0]["msg"])) from None


def to_action(g: Game, seat: int, body: ActionBody) -> Action:
    """The game's action schema: the kind exists, it carries cards, a value of its range, data."""
    rule = g.action(body.k)
    if rule is None:
        kinds = ", ".join(a.kind for a in g.actions)
        raise BadMessage("malformed", f"unknown action {body.k!r} (this game's: {kinds})")
    cards: tuple[int, ...] = ()
    if rule.cards:  # cards belong to a play only, ``v`` to a decision only: elsewhere ignored
        try:
            tokens = _TOKENS.validate_python(body.c)
        except ValidationError:
            raise BadMessage("malformed", "a.c must be a non-empty list of card tokens") from None
        try:
            cards = tuple(parse_cards(tokens, decks=g.decks, jokers=g.jokers))
        except CardError as exc:
            raise BadMessage("bad_card", str(exc)) from None
    value = 0
    if rule.values:
        if isinstance(body.v, bool) or not isinstance(body.v, int) or body.v not in rule.values:
            raise BadMessage("malformed", f"a.v must be {rule.values_text}")
        value = body.v
    return Action(seat, rule.kind, cards, value, data=body.d if rule.data else None)
