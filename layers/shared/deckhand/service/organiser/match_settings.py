"""A match event's settings (RULES.md §4.3): its format, games a round, the deal option, the clock.

Typed, with defaults, read from the event's JSON and written back to it; unknown keys and bad values
are errors naming the field. The Swiss and ranking options are the competition core's own documents
(competition/matchplay/documents.py), checked here when the event is created.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any, TypeVar

from ...competition.matchplay import documents as mp_docs
from ...competition.matchplay.entrants import Entrant, RoundFormat
from ...competition.matchplay.errors import MatchPlayError
from ...competition.matchplay.knockout import FinalReset, KnockoutDecision, KnockoutMatchRule, ThirdPlace
from ...competition.matchplay.ranking import RankingOptions
from ...competition.matchplay.staged import CutUnit, SwissWithCut
from ...competition.matchplay.swiss import SwissOptions
from ...engines.registry import Game
from ...errors import DeckhandError


class MatchFormat(StrEnum):
    """How the pairs of a round are found (RULES.md §4.3; 002 §25–29)."""

    SWISS = "swiss"  # 积分编排: by standing, never the same opponents twice
    ROUND_ROBIN = "round_robin"  # Berger tables in groups, single or double (a rest in an odd group)
    KNOCKOUT = "knockout"  # single elimination: seeds by strength, byes to the strongest, no draws
    DOUBLE_ELIMINATION = "double_elimination"  # out after two losses; one final (a reset: option)
    SWISS_WITH_CUT = "swiss_with_cut"  # units of 2–3 Swiss rounds, the lowest pairs leave after each
    SWISS_THEN_KNOCKOUT = "swiss_then_knockout"  # 2ⁿ pairs of the Swiss go on to a knockout

    @property
    def bracket(self) -> bool:
        """Formats played as a bracket from some round on: no game is drawn in those rounds."""
        return self in (MatchFormat.KNOCKOUT, MatchFormat.DOUBLE_ELIMINATION, MatchFormat.SWISS_THEN_KNOCKOUT)


@dataclass(frozen=True)
class RoundRobinSettings:
    """002 §26: groups seeded by strength (snake by the pairs' seeds, then registration), single or
    double (the second leg with the sides swapped)."""

    groups: int = 1
    legs: int = 1

    @classmethod
    def from_dict(cls, doc: object) -> RoundRobinSettings:
        data = _object(doc, "match.round_robin")
        _known(data, {"groups", "legs"}, "match.round_robin")
        groups = _positive(data.get("groups", 1), "match.round_robin.groups")
        legs = _positive(data.get("legs", 1), "match.round_robin.legs")
        if legs > 2:
            raise DeckhandError("match.round_robin.legs: 1 (single) or 2 (double)")
        return cls(groups, legs)

    def to_dict(self) -> dict[str, Any]:
        return {"groups": self.groups, "legs": self.legs}


class KnockoutDraw(StrEnum):
    """How a knockout's bracket is drawn: seeds by strength (§4.3), or by lot (抽签, RULES.md §6.5)."""

    STRENGTH = "strength"  # the pairs' seeds, then registration
    LOT = "lot"  # the seeds first, the rest by lot from round 1's committed secret


@dataclass(frozen=True)
class KnockoutSettings:
    """A bracket's options (002 §25, §29): a 3rd-place match, the double elimination's reset final,
    and how a knockout match of several games is won (None: the round's ``games``)."""

    third_place: ThirdPlace = ThirdPlace.NONE
    final: FinalReset = FinalReset.ONE_FINAL
    match: KnockoutMatchRule | None = None
    draw: KnockoutDraw = KnockoutDraw.STRENGTH

    @classmethod
    def from_dict(cls, doc: object) -> KnockoutSettings:
        data = _object(doc, "match.knockout")
        _known(data, {"third_place", "final", "match", "draw"}, "match.knockout")
        draw = _choice(KnockoutDraw, data.get("draw", KnockoutDraw.STRENGTH.value), "match.knockout.draw")
        third = _choice(
            ThirdPlace, data.get("third_place", ThirdPlace.NONE.value), "match.knockout.third_place"
        )
        final = _choice(FinalReset, data.get("final", FinalReset.ONE_FINAL.value), "match.knockout.final")
        rule = None
        if data.get("match") is not None:
            m = _object(data["match"], "match.knockout.match")
            _known(m, {"decision", "games"}, "match.knockout.match")
            decision = _choice(KnockoutDecision, m.get("decision"), "match.knockout.match.decision")
            games = _positive(m.get("games"), "match.knockout.match.games")
            try:
                rule = KnockoutMatchRule(decision, games)
            except MatchPlayError as exc:
                raise DeckhandError(f"match.knockout.match.games: {exc.detail}") from None
        return cls(third, final, rule, draw)

    def to_dict(self) -> dict[str, Any]:
        rule = (
            None if self.match is None else {"decision": self.match.decision.value, "games": self.match.games}
        )
        drawn = {"draw": self.draw.value} if self.draw is KnockoutDraw.LOT else {}
        return {"third_place": self.third_place.value, "final": self.final.value, "match": rule, **drawn}


@dataclass(frozen=True)
class StageSettings:
    """The staged formats' shape (002 §28–29): the cut's units, or the Swiss rounds and how many pairs
    go on to the knockout."""

    cut: SwissWithCut | None = None
    swiss_rounds: int = 0
    qualifiers: int = 0

    @classmethod
    def from_dict(cls, fmt: MatchFormat, doc: object) -> StageSettings:
        data = _object(doc, "match.stages")
        _known(data, {"units", "swiss_rounds", "qualifiers"}, "match.stages")
        if fmt is MatchFormat.SWISS_WITH_CUT:
            units = data.get("units")
            if not isinstance(units, list) or not units:
                raise DeckhandError("match.stages.units: a Swiss with cut needs its units, e.g. "
                                    '[{"rounds": 3, "leave": 8}, {"rounds": 2, "leave": 0}]')  # fmt: skip
            parsed = []
            for i, unit in enumerate(units):
                u = _object(unit, f"match.stages.units[{i}]")
                _known(u, {"rounds", "leave"}, f"match.stages.units[{i}]")
                parsed.append(
                    CutUnit(
                        _positive(u.get("rounds"), f"match.stages.units[{i}].rounds"),
                        _count(u.get("leave", 0), f"match.stages.units[{i}].leave"),
                    )
                )
            try:
                return cls(cut=SwissWithCut(tuple(parsed)))
            except MatchPlayError as exc:
                raise DeckhandError(f"match.stages.{exc.field}: {exc.detail}") from None
        if fmt is MatchFormat.SWISS_THEN_KNOCKOUT:
            rounds = _positive(data.get("swiss_rounds"), "match.stages.swiss_rounds")
            q = _positive(data.get("qualifiers"), "match.stages.qualifiers")
            if q < 2 or q & (q - 1):
                raise DeckhandError(
                    f"match.stages.qualifiers: the knockout takes 2ⁿ pairs (2, 4, 8 …), got {q}"
                )
            return cls(swiss_rounds=rounds, qualifiers=q)
        if data:
            raise DeckhandError(f"match.stages: only for the staged formats, not {fmt.value}")
        return cls()

    def to_dict(self) -> dict[str, Any]:
        if self.cut is not None:
            return {"units": [{"rounds": u.rounds, "leave": u.leave} for u in self.cut.units]}
        if self.qualifiers:
            return {"swiss_rounds": self.swiss_rounds, "qualifiers": self.qualifiers}
        return {}

    def fixed_rounds(self) -> int | None:
        """The event's rounds when the stages alone fix them (a knockout's depend on the field too)."""
        if self.cut is not None:
            return sum(u.rounds for u in self.cut.units)
        if self.qualifiers:
            return self.swiss_rounds + self.qualifiers.bit_length() - 1
        return None


@dataclass(frozen=True)
class ExtraBoard:
    """002 §27.三: in a Swiss's last 1–2 rounds, a match between two of the leading pairs (the top
    ``leading`` of the standings before the round) may not be drawn — a game level at its end plays
    one extra board at a time until one is won. Off (0 rounds) by default."""

    last_rounds: int = 0
    leading: int = 2

    @classmethod
    def from_dict(cls, doc: object) -> ExtraBoard:
        data = _object(doc, "match.extra_board")
        _known(data, {"last_rounds", "leading"}, "match.extra_board")
        last = _count(data.get("last_rounds", 0), "match.extra_board.last_rounds")
        if last > 2:
            raise DeckhandError("match.extra_board.last_rounds: the last 1–2 rounds of a Swiss (002 §27.三)")
        leading = _positive(data.get("leading", 2), "match.extra_board.leading")
        if leading < 2:
            raise DeckhandError("match.extra_board.leading: at least the 2 leading pairs")
        return cls(last, leading)

    def to_dict(self) -> dict[str, Any]:
        return {"last_rounds": self.last_rounds, "leading": self.leading}


DEAL_MS = 250  # a paced deal: ms between two cards (each of four players draws one a second)
MAX_DEAL_MS = 10_000
DEFAULT_MAX_GAMES = 8  # ⚖ a board game's match: level after 8 games, a lot decides (RULES.md §6.5)
MAX_GAMES = 50  # a board game's match: the most games before a level match's lot an event may set


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
    round_robin: RoundRobinSettings = RoundRobinSettings()
    knockout: KnockoutSettings = KnockoutSettings()
    stages: StageSettings = StageSettings()
    extra_board: ExtraBoard = ExtraBoard()
    # Games whose seats act while the cards are dealt (trump declared as they come): without a dealing
    # table the server gives the cards out one at a time, this many ms apart (250: each of four
    # players draws a card a second, as people do); 0 gives them all at once.
    deal_ms: int = DEAL_MS
    # A board game's match of games (RULES.md §6.5): still level after this many games, a lot decides
    # the tie. None for the card games (their matches are the end mode's boards).
    max_games: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format.value,
            "games": self.games.value,
            "same_boards": self.same_boards,
            "no_new_board_after": self.no_new_board_after,
            "swiss": self.swiss,
            "ranking": self.ranking,
            "round_robin": self.round_robin.to_dict(),
            "knockout": self.knockout.to_dict(),
            "stages": self.stages.to_dict(),
            "extra_board": self.extra_board.to_dict(),
            "deal_ms": self.deal_ms,
            **({"max_games": self.max_games} if self.max_games is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> MatchSettings:
        doc = data or {}
        if not isinstance(doc, dict):
            raise DeckhandError(f"match: expected an object, got {doc!r}")
        known = {"format", "games", "same_boards", "no_new_board_after", "swiss", "ranking"}
        known |= {"round_robin", "knockout", "stages", "extra_board", "deal_ms", "max_games"}
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
        rr = RoundRobinSettings.from_dict(doc.get("round_robin") or {})
        ko = KnockoutSettings.from_dict(doc.get("knockout") or {})
        stages = StageSettings.from_dict(fmt, doc.get("stages") or {})
        if ko.final is FinalReset.RESET and fmt is not MatchFormat.DOUBLE_ELIMINATION:
            raise DeckhandError("match.knockout.final: a reset final is a double elimination's option")
        if ko.third_place is ThirdPlace.PLAY and fmt not in (
            MatchFormat.KNOCKOUT,
            MatchFormat.SWISS_THEN_KNOCKOUT,
        ):
            raise DeckhandError("match.knockout.third_place: a single elimination's option")
        if ko.draw is KnockoutDraw.LOT and fmt is not MatchFormat.KNOCKOUT:
            raise DeckhandError(
                "match.knockout.draw: a knockout's option (a staged event seeds by its Swiss)"
            )
        if rr != RoundRobinSettings() and fmt is not MatchFormat.ROUND_ROBIN:
            raise DeckhandError("match.round_robin: only for the round_robin format")
        extra = ExtraBoard.from_dict(doc.get("extra_board") or {})
        if extra.last_rounds and fmt not in (MatchFormat.SWISS, MatchFormat.SWISS_WITH_CUT):
            raise DeckhandError("match.extra_board: a Swiss's option (a bracket's games are never drawn)")
        pace = doc.get("deal_ms", DEAL_MS)
        if not isinstance(pace, int) or isinstance(pace, bool) or not 0 <= pace <= MAX_DEAL_MS:
            raise DeckhandError(
                f"match.deal_ms: expected 0…{MAX_DEAL_MS} ms between two cards of a paced deal"
            )
        most = doc.get("max_games")
        if most is not None and (
            not isinstance(most, int) or isinstance(most, bool) or not 2 <= most <= MAX_GAMES
        ):
            raise DeckhandError(
                f"match.max_games: expected 2…{MAX_GAMES} games before a level match goes to a lot"
            )
        settings = cls(
            fmt, games, same, cutoff, dict(swiss), dict(ranking), rr, ko, stages, extra, pace, most
        )
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


def _object(value: object, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DeckhandError(f"{name}: expected an object, got {value!r}")
    return value


def _known(doc: dict[str, Any], keys: set[str], name: str) -> None:
    unknown = sorted(set(doc) - keys)
    if unknown:
        raise DeckhandError(f"{name}.{unknown[0]}: unknown field")


def _positive(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise DeckhandError(f"{name}: expected a positive whole number, got {value!r}")
    return value


def _count(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise DeckhandError(f"{name}: expected a whole number ≥ 0, got {value!r}")
    return value


E = TypeVar("E", bound=Enum)


def _choice(kind: type[E], value: object, name: str) -> E:
    try:
        return kind(value)
    except ValueError:
        raise DeckhandError(f"{name}: expected one of {', '.join(str(k.value) for k in kind)}") from None


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
