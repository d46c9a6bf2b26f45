"""``deckhand rules``: a referee's calculator over JSON Lines (docs/cli.md).

One JSON object out for every line in, in order; a bad line gets ``{"error": …}`` and the next line
is still read, so a referee can paste a whole session without it stopping at the first typo.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import IO, Any

from ..bigtwo import SEATS as BIGTWO_SEATS
from ..bigtwo.combos import beats, classify
from ..bigtwo.scoring import scores as bigtwo_scores
from ..cards import parse_cards
from ..doudizhu import SEATS as DOUDIZHU_SEATS
from ..doudizhu import combos as ddz
from ..doudizhu.scoring import scores as doudizhu_scores
from ..errors import DeckhandError

Handler = Callable[[dict[str, Any]], dict[str, Any]]


def _field(request: dict[str, Any], name: str) -> Any:
    if name not in request:
        raise DeckhandError(f"missing field {name!r}")
    return request[name]


def _list_of(request: dict[str, Any], name: str, kind: type, length: int) -> list[Any]:
    value = _field(request, name)
    if not isinstance(value, list):
        raise DeckhandError(f"{name!r} must be a list")
    if len(value) != length:
        raise DeckhandError(f"{name!r} must have {length} entries, got {len(value)}")
    for item in value:
        # bool is an int in Python; a referee who writes true for a card count has made a mistake.
        if not isinstance(item, kind) or (kind is int and isinstance(item, bool)):
            raise DeckhandError(f"{name!r} entries must be {kind.__name__}, got {item!r}")
    return value


class BigTwoReferee:
    """The ops for ``--game bigtwo`` (rule set bigtwo-2017)."""

    def classify(self, request: dict[str, Any]) -> dict[str, Any]:
        combo = classify(parse_cards(_field(request, "cards")))
        return {"type": combo.name if combo else None}

    def beats(self, request: dict[str, Any]) -> dict[str, Any]:
        prev = classify(parse_cards(_field(request, "prev")))
        play = classify(parse_cards(_field(request, "play")))
        return {"beats": bool(prev and play and beats(prev, play))}

    def score(self, request: dict[str, Any]) -> dict[str, Any]:
        left = _list_of(request, "cards_left", int, BIGTWO_SEATS)
        shown = _list_of(request, "shown", bool, BIGTWO_SEATS)
        doubled = _list_of(request, "doubled", bool, BIGTWO_SEATS)
        return {"scores": bigtwo_scores(left, shown, doubled)}


def _scalar(request: dict[str, Any], name: str, kind: type) -> Any:
    value = _field(request, name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise DeckhandError(f"{name!r} must be {kind.__name__}, got {value!r}")
    return value


class DouDizhuReferee:
    """The ops for ``--game doudizhu`` (rule set doudizhu-2016)."""

    @staticmethod
    def _combo(request: dict[str, Any], name: str) -> ddz.Combo | None:
        return ddz.classify(parse_cards(_field(request, name), jokers=True))

    def classify(self, request: dict[str, Any]) -> dict[str, Any]:
        combo = self._combo(request, "cards")
        return {"type": combo.type if combo else None}

    def beats(self, request: dict[str, Any]) -> dict[str, Any]:
        prev = self._combo(request, "prev")
        play = self._combo(request, "play")
        return {"beats": bool(prev and play and ddz.beats(prev, play))}

    def score(self, request: dict[str, Any]) -> dict[str, Any]:
        return {
            "scores": doudizhu_scores(
                bid=_scalar(request, "bid", int),
                landlord=_scalar(request, "landlord", int),
                defenders_won=_scalar(request, "defenders_won", bool),
                bombs=_scalar(request, "bombs", int),
                rockets=_scalar(request, "rockets", int),
                spring=_scalar(request, "spring", bool),
                anti_spring=_scalar(request, "anti_spring", bool),
                doubled=_list_of(request, "doubled", bool, DOUDIZHU_SEATS),
                redoubled=_scalar(request, "redoubled", bool),
            )
        }


GAMES: dict[str, Any] = {"bigtwo": BigTwoReferee, "doudizhu": DouDizhuReferee}


def answer(referee: Any, line: str) -> dict[str, Any]:
    """The reply to one input line; never raises for bad input."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not JSON: {exc.msg} at column {exc.colno}"}
    if not isinstance(request, dict):
        return {"error": "each line must be a JSON object"}
    op = request.get("op")
    handler = getattr(referee, op, None) if isinstance(op, str) and not op.startswith("_") else None
    if handler is None:
        return {"error": f"unknown op {op!r}; use classify, beats or score"}
    try:
        result: dict[str, Any] = handler(request)
        return result
    except DeckhandError as exc:
        return {"error": str(exc)}


def run(game: str, stdin: IO[str], stdout: IO[str]) -> int:
    referee = GAMES[game]()
    for line in stdin:
        reply = answer(referee, line.rstrip("\r\n"))
        stdout.write(json.dumps(reply, separators=(",", ":"), ensure_ascii=False) + "\n")
        stdout.flush()
    return 0
