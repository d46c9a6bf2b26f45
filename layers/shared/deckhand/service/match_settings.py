"""A match event's settings (RULES.md §4.3): its format, games a round, the deal option, the clock.

Typed, with defaults, read from the event's JSON and written back to it; unknown keys and bad values
are errors naming the field. The Swiss and ranking options are the competition core's own documents
(competition/matchplay/documents.py), checked here when the event is created.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..competition.matchplay import documents as mp_docs
from ..competition.matchplay.entrants import Entrant, RoundFormat
from ..competition.matchplay.errors import MatchPlayError
from ..competition.matchplay.ranking import RankingOptions
from ..competition.matchplay.swiss import SwissOptions
from ..engines.registry import Game
from ..errors import DeckhandError


class MatchFormat(StrEnum):
    """How the pairs of a round are found (the formats the service runs; the staged ones and double
    elimination are drawn by `deckhand pairings`)."""

    SWISS = "swiss"  # 积分编排: by standing, never the same opponents twice
    ROUND_ROBIN = "round_robin"  # Berger tables: everyone meets everyone (a rest in an odd field)
    KNOCKOUT = "knockout"  # single elimination: seeds by strength, byes to the strongest, no draws


@dataclass(frozen=True)
class MatchSettings:
    format: MatchFormat = MatchFormat.SWISS
    games: RoundFormat = RoundFormat.ONE_GAME
    # Off by default (no open platform has it): board k is the same deal at every table of a round, so
    # pairs who meet different opponents still hold the same cards.
    same_boards: bool = False
    # Minutes after a match's start when no new board may begin (003: 50 of 60); None: the rule set's
    # own clock (its end mode's minutes). Only where the end mode counts time.
    no_new_board_after: int | None = None
    swiss: dict[str, Any] = field(default_factory=dict)
    ranking: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format.value,
            "games": self.games.value,
            "same_boards": self.same_boards,
            "no_new_board_after": self.no_new_board_after,
            "swiss": self.swiss,
            "ranking": self.ranking,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> MatchSettings:
        doc = data or {}
        if not isinstance(doc, dict):
            raise DeckhandError(f"match: expected an object, got {doc!r}")
        known = {"format", "games", "same_boards", "no_new_board_after", "swiss", "ranking"}
        unknown = sorted(set(doc) - known)
        if unknown:
            raise DeckhandError(f"match.{unknown[0]}: unknown field")
        try:
            fmt = MatchFormat(doc.get("format", MatchFormat.SWISS.value))
        except ValueError:
            raise DeckhandError(
                f"match.format: expected one of {', '.join(f.value for f in MatchFormat)}"
            ) from None
        try:
            games = RoundFormat(doc.get("games", RoundFormat.ONE_GAME.value))
        except ValueError:
            raise DeckhandError(
                f"match.games: expected one of {', '.join(g.value for g in RoundFormat)}"
            ) from None
        same = doc.get("same_boards", False)
        if not isinstance(same, bool):
            raise DeckhandError("match.same_boards: expected true or false")
        cutoff = doc.get("no_new_board_after")
        if cutoff is not None and (not isinstance(cutoff, int) or isinstance(cutoff, bool) or cutoff < 1):
            raise DeckhandError("match.no_new_board_after: expected a positive number of minutes")
        swiss = doc.get("swiss") or {}
        ranking = doc.get("ranking") or {}
        settings = cls(fmt, games, same, cutoff, dict(swiss), dict(ranking))
        settings.swiss_options([])  # checked now, not at the first round
        settings.ranking_options()
        return settings

    def swiss_options(self, teams: list[Entrant]) -> SwissOptions:
        """The Swiss options, their forbidden pairs checked against ``teams`` (none yet: not checked)."""
        pairs = self.swiss.get("forbidden_pairs", [])
        if not teams and isinstance(pairs, list):
            # Before registration: the ids are checked when the rounds are paired.
            ids = {x for p in pairs if isinstance(p, list) for x in p if isinstance(x, str) and x}
            teams = [Entrant(id=i, reg=n + 1) for n, i in enumerate(sorted(ids))]
        try:
            return mp_docs.parse_swiss_options(self.swiss, teams)
        except MatchPlayError as exc:
            raise DeckhandError(f"match.swiss: {exc}") from None

    def ranking_options(self) -> RankingOptions:
        try:
            return mp_docs.parse_ranking_options(self.ranking)
        except MatchPlayError as exc:
            raise DeckhandError(f"match.ranking: {exc}") from None

    def clock_minutes(self, g: Game, options: Any) -> int | None:
        """Minutes after a match's start when the platform tells the board in play that time is up."""
        own = g.match_clock(options) if g.match_clock is not None else None
        if self.no_new_board_after is not None:
            if own is None:
                raise DeckhandError("match.no_new_board_after: the end mode has no clock (a time mode has)")
            return min(own, self.no_new_board_after)
        return own


def rule_options(g: Game, data: dict[str, Any] | None) -> Any:
    """The rule set's typed options from the event's JSON (its defaults where absent)."""
    if g.options is None:
        if data:
            raise DeckhandError(f"options: {g.name} has no options")
        return None
    try:
        return g.options(data)
    except DeckhandError as exc:
        raise DeckhandError(f"options: {exc}") from None
