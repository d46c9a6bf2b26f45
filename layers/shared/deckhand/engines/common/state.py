"""The state plumbing every board shares: compact JSON, loading with clear errors, equality by state."""

from __future__ import annotations

import json
from typing import Any, Self

from ...errors import DeckhandError


class StoredBoard:
    """A board whose whole state is ``to_dict()``: stored as compact JSON (every byte of a board item is
    paid for on each write), loaded back exactly, and equal to another exactly when their states are."""

    ruleset: str  # set by each game's board class
    name: str  # for people, in errors

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def _load(cls, data: dict[str, Any]) -> Self:
        """The board from a state dict of this rule set (a missing or mistyped key raises)."""
        raise NotImplementedError

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        try:
            if data["r"] != cls.ruleset:
                raise DeckhandError(f"state is for rule set {data['r']!r}, not {cls.ruleset}")
            return cls._load(data)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, DeckhandError):
                raise
            raise DeckhandError(f"not a {cls.name} board state: {exc}") from exc

    @classmethod
    def from_json(cls, text: str) -> Self:
        return cls.from_dict(json.loads(text))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


def check_seat(seat: int, seats: int) -> None:
    if not 0 <= seat < seats:
        raise DeckhandError(f"seat must be 0..{seats - 1}, got {seat}")
