"""Errors of match play: every one names the field or the rule it comes from."""

from __future__ import annotations

from ...errors import DeckhandError


class MatchPlayError(DeckhandError):
    """Bad match-play input; ``field`` says where (``teams[2].id``, ``options.chain``…)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.detail = message


class CannotPairError(MatchPlayError):
    """No pairing of the round satisfies the rules (RULES.md §4.3: the organiser is told)."""

    def __init__(self, message: str) -> None:
        super().__init__("", message)


class ExtraBoardNeeded(MatchPlayError):
    """A knockout game ended level: one more board decides it (RULES.md §4.3 Draws)."""

    def __init__(self, message: str = "levels are equal: play an extra board") -> None:
        super().__init__("", message)
