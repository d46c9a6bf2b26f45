"""``deckhand rules --game junqi``: the umpire's calculator for rule set junqi-2004 (RULES.md §6.3's
contract table): ``setup_ok``, ``legal``, ``battle`` and ``apply`` on positions of any subset of the
pieces, ``{square: {"side", "piece"}}``. A malformed request or an illegal move is an error."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from ...errors import DeckhandError
from ..common.requests import field
from .geometry import NAMES, SIDES, SQUARES, parse
from .moves import Cell, destinations, ending, flag_square, has_marshal, legal_moves, play, sorted_texts
from .pieces import COUNTS, battle, token
from .setup import reason


def side_of(value: object, name: str = "side") -> int:
    if value not in SIDES:
        raise DeckhandError(f"{name!r} must be 'red' or 'blue', got {value!r}")
    return SIDES.index(str(value))


def position_of(request: dict[str, Any]) -> list[Cell]:
    """The cells of ``position``: squares to ``{"side", "piece"}``, never more of a kind than a side owns."""
    given = field(request, "position")
    if not isinstance(given, dict):
        raise DeckhandError("'position' must be an object of squares")
    cells: list[Cell] = [None] * len(SQUARES)
    for key, piece in given.items():
        sq = parse(key)
        if not isinstance(piece, dict) or set(piece) != {"side", "piece"}:
            raise DeckhandError(f"{key}: a piece is {{'side': 'red'|'blue', 'piece': token}}, got {piece!r}")
        cells[sq] = (side_of(piece["side"], f"{key}.side"), token(piece["piece"]))
    for (side, kind), n in Counter(c for c in cells if c is not None).items():
        if n > COUNTS[kind]:
            raise DeckhandError(f"{SIDES[side]} has {n} {kind} pieces; a side owns {COUNTS[kind]}")
    return cells


def position_json(cells: list[Cell]) -> dict[str, Any]:
    return {NAMES[sq]: {"side": SIDES[c[0]], "piece": c[1]} for sq, c in enumerate(cells) if c is not None}


def flag_shown(cells: list[Cell], side: int, lost: bool, show: bool) -> str | None:
    sq = flag_square(cells, side) if show and lost else None
    return None if sq is None else NAMES[sq]


class JunqiReferee:
    """setup_ok, legal, battle and apply (RULES.md §6.3 Calculator contract)."""

    def ops(self) -> Mapping[str, Callable[[dict[str, Any]], dict[str, Any]]]:
        return {"setup_ok": self.setup_ok, "legal": self.legal, "battle": self.battle, "apply": self.apply}

    def setup_ok(self, request: dict[str, Any]) -> dict[str, Any]:
        side = side_of(field(request, "side"))
        placement = field(request, "placement")
        if not isinstance(placement, dict):
            raise DeckhandError("'placement' must be an object {square: token}")
        why = reason(side, placement)
        return {"ok": True} if why is None else {"ok": False, "reason": why}

    def legal(self, request: dict[str, Any]) -> dict[str, Any]:
        cells = position_of(request)
        return {"moves": sorted_texts(legal_moves(cells, side_of(field(request, "side"))))}

    def battle(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"result": battle(field(request, "attacker"), field(request, "defender"))}

    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        cells = position_of(request)
        side = side_of(field(request, "side"))
        quiet = request.get("quiet", 0)
        if not isinstance(quiet, int) or isinstance(quiet, bool) or quiet < 0:
            raise DeckhandError(f"'quiet' must be a whole number 0 or more, got {quiet!r}")
        lost = request.get("marshal_lost", {"red": False, "blue": False})
        if (
            not isinstance(lost, dict)
            or set(lost) - set(SIDES)
            or not all(isinstance(v, bool) for v in lost.values())
        ):
            raise DeckhandError("'marshal_lost' must be {'red': bool, 'blue': bool}")
        show = request.get("show_flag_on_marshal_loss", True)
        if not isinstance(show, bool):
            raise DeckhandError("'show_flag_on_marshal_loss' must be true or false")
        text = field(request, "move")
        parts = text.split("-") if isinstance(text, str) else []
        if len(parts) != 2:
            raise DeckhandError(f"'move' must be 'from-to' (a6-a7), got {text!r}")
        frm, to = parse(parts[0]), parse(parts[1])
        if cells[frm] is None or cells[frm][0] != side:  # type: ignore[index]
            raise DeckhandError(f"{parts[0]} holds no piece of {SIDES[side]}")
        if to not in destinations(cells, frm):
            raise DeckhandError(f"{text} is not a legal move")
        played = play(cells, frm, to)
        captured = played.outcome is not None
        quiet = 0 if captured else quiet + 1
        end = ending(cells, side, played, quiet)
        gone = {s: bool(lost.get(s, False)) or not has_marshal(cells, n) for n, s in enumerate(SIDES)}
        return {
            "position": position_json(cells),
            "captured": captured,
            "quiet": quiet,
            "result": None
            if end is None
            else {"winner": None if end.winner < 0 else SIDES[end.winner], "why": end.why},
            "marshal_lost": gone,
            "flag_shown": {s: flag_shown(cells, n, gone[s], show) for n, s in enumerate(SIDES)},
        }
