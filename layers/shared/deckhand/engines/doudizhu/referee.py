"""``deckhand rules --game doudizhu``: the referee's calculator for rule set doudizhu-2016."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..common.cards import parse_cards
from ..common.requests import field, list_of, scalar
from . import SEATS
from . import combos as ddz
from .scoring import scores


class DouDizhuReferee:
    """classify, beats and score (RULES.md §3)."""

    def ops(self) -> Mapping[str, Callable[[dict[str, Any]], dict[str, Any]]]:
        return {"classify": self.classify, "beats": self.beats, "score": self.score}

    @staticmethod
    def _combo(request: dict[str, Any], name: str) -> ddz.Combo | None:
        return ddz.classify(parse_cards(field(request, name), jokers=True))

    def classify(self, request: dict[str, Any]) -> dict[str, Any]:
        combo = self._combo(request, "cards")
        return {"type": combo.type if combo else None}

    def beats(self, request: dict[str, Any]) -> dict[str, Any]:
        prev = self._combo(request, "prev")
        play = self._combo(request, "play")
        return {"beats": bool(prev and play and ddz.beats(prev, play))}

    def score(self, request: dict[str, Any]) -> dict[str, Any]:
        return {
            "scores": scores(
                bid=scalar(request, "bid", int),
                landlord=scalar(request, "landlord", int),
                defenders_won=scalar(request, "defenders_won", bool),
                bombs=scalar(request, "bombs", int),
                rockets=scalar(request, "rockets", int),
                spring=scalar(request, "spring", bool),
                anti_spring=scalar(request, "anti_spring", bool),
                doubled=list_of(request, "doubled", bool, SEATS),
                redoubled=scalar(request, "redoubled", bool),
            )
        }
