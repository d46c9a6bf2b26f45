"""``deckhand rules --game xiangqi``: the referee's calculator (perft, legal, result, notation).

Positions are Xiangqi FEN (WXF's E and H accepted), moves ICCS. These ops judge a position alone:
no history, so no repetition rule (perft counts every legal move, as move generators are compared).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...errors import DeckhandError
from ..common.requests import field, scalar
from .chinese import chinese
from .position import Position, iccs, parse_iccs, perft
from .tables import RED

MAX_PERFT_DEPTH = 5  # deeper counts take minutes in Python: a calculator answers in seconds


class XiangqiReferee:
    """perft, legal, result and notation (RULES.md §6.1)."""

    def ops(self) -> Mapping[str, Callable[[dict[str, Any]], dict[str, Any]]]:
        return {"perft": self.perft, "legal": self.legal, "result": self.result, "notation": self.notation}

    def perft(self, request: dict[str, Any]) -> dict[str, Any]:
        pos = Position.from_fen(field(request, "fen"))
        depth = scalar(request, "depth", int)
        if not 0 <= depth <= MAX_PERFT_DEPTH:
            raise DeckhandError(f"depth must be 0..{MAX_PERFT_DEPTH}, got {depth}")
        return {"nodes": perft(pos, depth)}

    def legal(self, request: dict[str, Any]) -> dict[str, Any]:
        pos = Position.from_fen(field(request, "fen"))
        return {"moves": sorted(iccs(m) for m in pos.legal_moves())}

    def result(self, request: dict[str, Any]) -> dict[str, Any]:
        pos = Position.from_fen(field(request, "fen"))
        check = pos.in_check()
        if pos.legal_moves():
            return {"result": None, "why": None, "check": check}
        winner = "black" if pos.side == RED else "red"  # no legal move loses, mated or stalemated
        return {"result": winner, "why": "checkmate" if check else "stalemate", "check": check}

    def notation(self, request: dict[str, Any]) -> dict[str, Any]:
        pos = Position.from_fen(field(request, "fen"))
        move = parse_iccs(field(request, "move"))
        if move not in pos.legal_moves():
            raise DeckhandError(f"{iccs(move)} is not a legal move in this position")
        return {"iccs": iccs(move), "chinese": chinese(pos, move)}
