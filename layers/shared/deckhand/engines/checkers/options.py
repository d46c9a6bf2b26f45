"""The event's options for ``checkers-2004`` (RULES.md §6.4 ⚖): the round from which passive play
loses (or never), and the time a move may take."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import DeckhandError
from .ending import PASSIVE_AFTER

MOVE_SECONDS = 60  # ⚖ as Gomoku's: the rules set no time; at the limit a warning, the third loses
MOVE_SECONDS_RANGE = (5, 3600)
WARNINGS_LOSE = 3
KEYS = {"passive_after", "move_seconds"}


def whole(value: object) -> bool:
    """A JSON whole number (true and false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def passive_after(value: object) -> int | None:
    """``passive_after`` as a request or an event gives it: null (the rule off) or a whole number >= 1."""
    if value is None or (whole(value) and value >= 1):  # type: ignore[operator]
        return value  # type: ignore[return-value]
    raise DeckhandError(f"'passive_after' must be null or a whole number >= 1, got {value!r}")


@dataclass(frozen=True)
class Options:
    passive_after: int | None = PASSIVE_AFTER
    move_seconds: int = MOVE_SECONDS

    def to_dict(self) -> dict[str, Any]:
        return {"passive_after": self.passive_after, "move_seconds": self.move_seconds}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Options:
        """The options from an event's JSON (None: the defaults); unknown keys and bad values are errors."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise DeckhandError(f"checkers options must be an object, got {data!r}")
        unknown = set(data) - KEYS
        if unknown:
            raise DeckhandError(f"unknown checkers options: {', '.join(sorted(unknown))}")
        seconds = data.get("move_seconds", MOVE_SECONDS)
        low, high = MOVE_SECONDS_RANGE
        if not whole(seconds) or not low <= seconds <= high:
            raise DeckhandError(f"'move_seconds' must be a whole number {low}–{high}, got {seconds!r}")
        return cls(passive_after(data.get("passive_after", PASSIVE_AFTER)), seconds)
