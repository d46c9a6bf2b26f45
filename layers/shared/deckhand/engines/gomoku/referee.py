"""``deckhand rules --game gomoku``: the referee's calculator for rule set gomoku-renju (RULES.md §6.2)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...errors import DeckhandError
from ..common.requests import field
from .forbidden import Verdict, verdict
from .stones import CENTRE, POINTS, B, E, Stones, W, name, parse_point

RESULTS = {B: "black", W: "white"}


class GomokuReferee:
    """forbidden, legal and result, on a board of 15 strings (row 15 first, columns A–O; "B", "W", ".")."""

    def ops(self) -> Mapping[str, Callable[[dict[str, Any]], dict[str, Any]]]:
        return {"forbidden": self.forbidden, "legal": self.legal, "result": self.result}

    def forbidden(self, request: dict[str, Any]) -> dict[str, Any]:
        """The verdict on ``color`` playing ``move``: White's moves are always legal; Black's exact
        five is legal; else the first of overline, double-four, double-three."""
        stones = Stones.from_rows(field(request, "board"))
        point = parse_point(field(request, "move"))
        color = field(request, "color")
        if color not in ("B", "W"):
            raise DeckhandError(f"'color' must be 'B' or 'W', got {color!r}")
        if stones.cells[point] != E:
            raise DeckhandError(f"{request['move']} already holds a stone")
        return {"verdict": (verdict(stones, point) if color == "B" else Verdict.LEGAL).value}

    def legal(self, request: dict[str, Any]) -> dict[str, Any]:
        """The side to move (Black when the stones are even, White when Black has one more) and the
        points it may play, A1 … O15 (H8 alone on the empty board; none once the game is won or the
        board is full); Black's forbidden points among them are listed apart: they are played, and lose."""
        stones = Stones.from_rows(field(request, "board"))
        black = sum(stones.cells[i] == B for i in POINTS)
        white = stones.count - black
        if black - white not in (0, 1):
            raise DeckhandError(
                f"Black has {black} stones and White {white}: Black moves first, then turn about"
            )
        colour = B if black == white else W
        if stones.winner() is not None:
            points: list[int] = []
        elif not stones.count:
            points = [CENTRE]
        else:
            points = list(stones.empty_points())
        barred = [i for i in points if colour == B and verdict(stones, i) is not Verdict.LEGAL]
        return {
            "to_move": RESULTS[colour],
            "moves": [name(i) for i in points],
            "forbidden": [name(i) for i in barred],
        }

    def result(self, request: dict[str, Any]) -> dict[str, Any]:
        """Black's exact five or White's five or more; a full board without one is a draw."""
        stones = Stones.from_rows(field(request, "board"))
        won = stones.winner()
        if won is not None:
            return {"result": RESULTS[won]}
        return {"result": "draw" if stones.full else None}
