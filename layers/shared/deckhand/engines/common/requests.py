"""Reading fields of a referee's JSON request (its calculator's ``Op``) with errors that name the field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...errors import CardError, DeckhandError
from .cards import parse_cards

# One operation of a referee's calculator: a JSON request in, a JSON answer out.
Op = Callable[[dict[str, Any]], dict[str, Any]]


def field(request: dict[str, Any], name: str) -> Any:
    if name not in request:
        raise DeckhandError(f"missing field {name!r}")
    return request[name]


def list_of(request: dict[str, Any], name: str, kind: type, length: int) -> list[Any]:
    value = field(request, name)
    if not isinstance(value, list):
        raise DeckhandError(f"{name!r} must be a list")
    if len(value) != length:
        raise DeckhandError(f"{name!r} must have {length} entries, got {len(value)}")
    for item in value:
        # bool is an int in Python; a referee who writes true for a card count has made a mistake.
        if not isinstance(item, kind) or (kind is int and isinstance(item, bool)):
            raise DeckhandError(f"{name!r} entries must be {kind.__name__}, got {item!r}")
    return value


def scalar(request: dict[str, Any], name: str, kind: type) -> Any:
    value = field(request, name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise DeckhandError(f"{name!r} must be {kind.__name__}, got {value!r}")
    return value


def cards_in(value: object, name: str, *, decks: int, jokers: bool) -> list[int]:
    """Card tokens from a request; a bad one is an error that says where it stands."""
    try:
        return parse_cards(value, decks=decks, jokers=jokers)
    except CardError as exc:
        raise DeckhandError(f"{name!r}: {exc}") from None
