"""The event's options for ``gomoku-renju`` (RULES.md §6.2 ⚖): how a forbidden move is judged, and
the time a move may take."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ...errors import DeckhandError

MOVE_SECONDS = 60  # ⚖ the rules' default time per move
MOVE_SECONDS_RANGE = (5, 3600)
WARNINGS_LOSE = 3  # the third warning for time loses the game


class ForbiddenRule(StrEnum):
    """What happens when Black plays a forbidden move."""

    CLAIM = "claim"  # 004: the stone stands; White may point it out before its next stone and win
    AUTOMATIC = "automatic"  # the platform declares the loss as the stone is placed


@dataclass(frozen=True)
class Options:
    forbidden: ForbiddenRule = ForbiddenRule.CLAIM
    move_seconds: int = MOVE_SECONDS

    def to_dict(self) -> dict[str, Any]:
        return {"forbidden": self.forbidden.value, "move_seconds": self.move_seconds}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Options:
        """The options from an event's JSON (None: the defaults); unknown keys and bad values are errors."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise DeckhandError(f"gomoku options must be an object, got {data!r}")
        unknown = set(data) - {"forbidden", "move_seconds"}
        if unknown:
            raise DeckhandError(f"unknown gomoku options: {', '.join(sorted(unknown))}")
        rule = data.get("forbidden", ForbiddenRule.CLAIM.value)
        if not isinstance(rule, str) or rule not in {r.value for r in ForbiddenRule}:
            raise DeckhandError(f"'forbidden' must be 'claim' or 'automatic', got {rule!r}")
        seconds = data.get("move_seconds", MOVE_SECONDS)
        low, high = MOVE_SECONDS_RANGE
        if not isinstance(seconds, int) or isinstance(seconds, bool) or not low <= seconds <= high:
            raise DeckhandError(f"'move_seconds' must be a whole number {low}–{high}, got {seconds!r}")
        return cls(ForbiddenRule(rule), seconds)


def options(data: dict[str, Any] | None) -> Options:
    return Options.from_dict(data)
