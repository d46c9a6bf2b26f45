"""The event's options for ``junqi-2004`` (RULES.md §6.3 ⚖ D8, D10): the flag shown when a marshal
falls, and the time a setup and a move may take."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import DeckhandError

MOVE_SECONDS = 60  # ⚖ an event setting: the rules fix only that the fifth timeout loses
SETUP_SECONDS = 300
SECONDS_RANGE = (5, 3600)
TIMEOUTS_LOSE = 5  # a player's fifth timed-out turn in a game loses it (D10)


@dataclass(frozen=True)
class Options:
    show_flag_on_marshal_loss: bool = True
    move_seconds: int = MOVE_SECONDS
    setup_seconds: int = SETUP_SECONDS

    def to_dict(self) -> dict[str, Any]:
        return {
            "show_flag_on_marshal_loss": self.show_flag_on_marshal_loss,
            "move_seconds": self.move_seconds,
            "setup_seconds": self.setup_seconds,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Options:
        """The options from an event's JSON (None: the defaults); unknown keys and bad values are errors."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise DeckhandError(f"junqi options must be an object, got {data!r}")
        unknown = set(data) - set(cls().to_dict())
        if unknown:
            raise DeckhandError(f"unknown junqi options: {', '.join(sorted(unknown))}")
        show = data.get("show_flag_on_marshal_loss", True)
        if not isinstance(show, bool):
            raise DeckhandError(f"'show_flag_on_marshal_loss' must be true or false, got {show!r}")
        low, high = SECONDS_RANGE
        seconds = []
        for key, default in (("move_seconds", MOVE_SECONDS), ("setup_seconds", SETUP_SECONDS)):
            value = data.get(key, default)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise DeckhandError(f"{key!r} must be a whole number {low}–{high}, got {value!r}")
            seconds.append(value)
        return cls(show, seconds[0], seconds[1])
