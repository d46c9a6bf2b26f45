"""``deckhand rules --game bigtwo``: the referee's calculator for rule set bigtwo-2017."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..common.cards import parse_cards
from ..common.requests import field, list_of
from . import SEATS
from .combos import beats, classify
from .scoring import scores


class BigTwoReferee:
    """classify, beats and score (RULES.md §2)."""

    def ops(self) -> Mapping[str, Callable[[dict[str, Any]], dict[str, Any]]]:
        return {"classify": self.classify, "beats": self.beats, "score": self.score}

    def classify(self, request: dict[str, Any]) -> dict[str, Any]:
        combo = classify(parse_cards(field(request, "cards")))
        return {"type": combo.name if combo else None}

    def beats(self, request: dict[str, Any]) -> dict[str, Any]:
        prev = classify(parse_cards(field(request, "prev")))
        play = classify(parse_cards(field(request, "play")))
        return {"beats": bool(prev and play and beats(prev, play))}

    def score(self, request: dict[str, Any]) -> dict[str, Any]:
        left = list_of(request, "cards_left", int, SEATS)
        shown = list_of(request, "shown", bool, SEATS)
        doubled = list_of(request, "doubled", bool, SEATS)
        return {"scores": scores(left, shown, doubled)}
