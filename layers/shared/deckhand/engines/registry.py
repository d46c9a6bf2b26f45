"""The registry of game engines: everything outside ``engines/`` asks here and never names a game.

Lazy: importing this module imports no engine. ``game(ruleset)`` imports that game's spec module
the first time it is asked for, so a handler that serves one game loads only that game. A new game
plugs in with one line in ``ENTRIES`` and its folder under ``engines/``.
"""

from __future__ import annotations

import importlib
from typing import Any, NamedTuple

from ..errors import DeckhandError
from .spec import Competition, GameSpec

Game = GameSpec  # the name the platform has used for a game's spec


class Entry(NamedTuple):
    ruleset: str
    alias: str  # the command line's name for it
    seats: int  # the table's size, known before the engine is loaded (checked against its spec)
    competition: Competition  # how its events run: known before loading too
    module: str  # the engine package; its ``spec`` module exports ``SPEC`` (or ``SPECS`` by rule set)
    dealt: bool = True  # played with a deck (``spec.Deck``); False: a board game (``spec.Position``)


ENTRIES: tuple[Entry, ...] = (
    Entry("bigtwo-2017", "bigtwo", 4, Competition.DUPLICATE, "deckhand.engines.bigtwo"),
    Entry("doudizhu-2016", "doudizhu", 3, Competition.DUPLICATE, "deckhand.engines.doudizhu"),
    Entry("guandan-2023", "guandan", 4, Competition.MATCH, "deckhand.engines.guandan"),
    Entry("shengji-yaoji2010", "shengji", 4, Competition.MATCH, "deckhand.engines.shengji"),
    Entry("shengji-common", "shengji-common", 4, Competition.MATCH, "deckhand.engines.shengji"),
    Entry("xiangqi-2004", "xiangqi", 2, Competition.HEAD_TO_HEAD, "deckhand.engines.xiangqi", dealt=False),
    Entry("gomoku-renju", "gomoku", 2, Competition.HEAD_TO_HEAD, "deckhand.engines.gomoku", dealt=False),
    Entry("junqi-2004", "junqi", 2, Competition.HEAD_TO_HEAD, "deckhand.engines.junqi", dealt=False),
    Entry("checkers-2004", "checkers", 2, Competition.HEAD_TO_HEAD, "deckhand.engines.checkers", dealt=False),
)
RULESETS: tuple[str, ...] = tuple(e.ruleset for e in ENTRIES)
ALIASES: dict[str, str] = {e.alias: e.ruleset for e in ENTRIES}
# The rule sets played with a deck: the service's events, dealing and handsets run these today.
DEALT_RULESETS: tuple[str, ...] = tuple(e.ruleset for e in ENTRIES if e.dealt)
DUPLICATE_ALIASES: dict[str, str] = {
    e.alias: e.ruleset for e in ENTRIES if e.competition is Competition.DUPLICATE
}
# The rule sets whose events the service runs today: duplicate events (match play comes with pair events).
DUPLICATE_RULESETS: tuple[str, ...] = tuple(
    e.ruleset for e in ENTRIES if e.competition is Competition.DUPLICATE
)
DEFAULT = ENTRIES[0].ruleset
DEFAULT_ALIAS = ENTRIES[0].alias
TABLE_SIZES: frozenset[int] = frozenset(e.seats for e in ENTRIES if e.competition is Competition.DUPLICATE)

_BY_RULESET = {e.ruleset: e for e in ENTRIES}
_LOADED: dict[str, GameSpec] = {}


def game(ruleset: str) -> GameSpec:
    """The spec of a rule set, importing its engine on first use."""
    spec = _LOADED.get(ruleset)
    if spec is not None:
        return spec
    entry = _BY_RULESET.get(ruleset) if isinstance(ruleset, str) else None
    if entry is None:
        raise DeckhandError(f"unknown rule set {ruleset!r}; available: {', '.join(sorted(RULESETS))}")
    module = importlib.import_module(entry.module + ".spec")
    # One engine may serve several rule sets (presets): its spec module then maps them in ``SPECS``.
    spec = getattr(module, "SPECS", {}).get(ruleset) or module.SPEC
    assert (
        isinstance(spec, GameSpec) and (spec.ruleset, spec.alias, spec.seats, spec.competition) == entry[:4]
    ) and (spec.deck is not None) == entry.dealt, entry.module
    _LOADED[ruleset] = spec
    return spec


def by_alias(alias: str) -> GameSpec:
    """The spec named on the command line (``bigtwo``) or by its rule set (``bigtwo-2017``)."""
    return game(ALIASES.get(alias, alias))


def describe() -> list[dict[str, Any]]:
    return [{"ruleset": s.ruleset, "name": s.name, "seats": s.seats} for s in map(game, RULESETS)]
