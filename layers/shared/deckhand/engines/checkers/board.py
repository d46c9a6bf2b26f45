"""The Chinese checkers board (RULES.md §6.4): one game of a match, Red (seat 0) first.

A move is ``Action(seat, "move", data=…)`` with either ``{"from": "r3c1", "to": "r5c1"}`` (any legal
way there: every chain that reaches a point leaves the same position) or ``{"path": ["r3c1", "r5c1",
…]}``, the move point by point (a step, or a jump chain landing by landing). A side with no legal move
sends ``pass``, and only then. Verdicts come at a round's end (``ending.py``). The whole state is the
record of moves (each as the path taken; a pass as an empty one), the standing draw offer, the time
warnings and the result: every refused action leaves it as it was.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, NamedTuple

from ...errors import DeckhandError
from ..common.board import END, GameBoard
from ..common.head_to_head import resign_or_draw, scores_and_points
from ..contract import Action, Board, Rejected, Timing
from . import RULESET, SEATS
from .ending import Verdict, round_end
from .options import WARNINGS_LOSE, Options
from .pieces import Pieces, chain, destinations, path_fault, reach
from .star import SIDES, name, parse_point

PLAY = "play"
MOVE, PASS, RESIGN, OFFER, ACCEPT, WARNING = "move", "pass", "resign", "offer", "accept", "warning"
KINDS = (MOVE, PASS, RESIGN, OFFER, ACCEPT, WARNING)
RESIGNED, TIME, AGREED = "resign", "time", "agreed"
NOBODY = -1

Path = tuple[str, ...]  # a move as the points it passes, start first; () for a pass


def move(seat: int, start: str, end: str) -> Action:
    """The action that moves ``seat``'s piece from ``start`` to ``end`` (by any legal way)."""
    return Action(seat, MOVE, data={"from": start, "to": end})


def path_move(seat: int, points: list[str]) -> Action:
    """The action that moves ``seat``'s piece along ``points`` (a step, or a chain landing by landing)."""
    return Action(seat, MOVE, data={"path": list(points)})


def ends_of(data: Any) -> tuple[Any, Any] | None:
    """A move's start and end as sent, whichever form it took; None when it is neither form."""
    if isinstance(data, dict) and set(data) == {"from", "to"}:
        return data["from"], data["to"]
    if isinstance(data, dict) and set(data) == {"path"} and isinstance(data["path"], list) and data["path"]:
        return data["path"][0], data["path"][-1]
    return None


def decision_key(action: Action) -> Hashable:
    """A move is its start and end points, however it was given (the position after it is the same);
    every other action is its kind."""
    ends = ends_of(action.data) if action.kind == MOVE else None
    where = repr(action.data) if ends is None else (str(ends[0]), str(ends[1]))
    return (action.seat, action.kind, where, action.value, action.timeout, bool(action.cards))


def replay(moves: tuple[Path, ...] | list[Path]) -> Pieces:
    """The pieces after a record of moves (Red first, then alternately; a pass moves nothing)."""
    pieces = Pieces.start()
    for path in moves:
        if path:
            pieces.move(parse_point(path[0]), parse_point(path[-1]))
    return pieces


class SeatView(NamedTuple):
    """What a seat knows: everything (Chinese checkers hides nothing)."""

    seat: int
    phase: str
    moves: tuple[Path, ...]
    offer: int  # the seat whose draw offer stands, NOBODY when none
    warnings: tuple[int, int]
    winner: int  # NOBODY while playing or when drawn
    why: str
    passive_after: int | None
    move_seconds: int

    @property
    def turn(self) -> int:
        return len(self.moves) % 2

    def pieces(self) -> Pieces:
        return replay(self.moves)

    def to_dict(self) -> dict[str, Any]:
        pieces = self.pieces()
        return {
            "seat": self.seat,
            "side": SIDES[self.seat],
            "phase": self.phase,
            "turn": self.turn if self.phase == PLAY else None,
            "red": [name(p) for p in pieces.of(0)],
            "blue": [name(p) for p in pieces.of(1)],
            "moves": [list(path) for path in self.moves],
            "offer": None if self.offer == NOBODY else self.offer,
            "warnings": list(self.warnings),
            "winner": None if self.winner == NOBODY else self.winner,
            "why": self.why or None,
            "options": {"passive_after": self.passive_after, "move_seconds": self.move_seconds},
        }

    @classmethod
    def from_dict(cls, view: dict[str, Any]) -> SeatView:
        """The view from its JSON form (what a device receives), e.g. for a bot on a device."""
        warnings, options = view["warnings"], view["options"]
        return cls(
            seat=view["seat"],
            phase=view["phase"],
            moves=tuple(tuple(path) for path in view["moves"]),
            offer=NOBODY if view["offer"] is None else view["offer"],
            warnings=(warnings[0], warnings[1]),
            winner=NOBODY if view["winner"] is None else view["winner"],
            why=view["why"] or "",
            passive_after=options["passive_after"],
            move_seconds=options["move_seconds"],
        )


class CheckersBoard(GameBoard):
    """One game of Chinese checkers for two."""

    ruleset = RULESET
    name = "Chinese checkers"
    seats = SEATS

    def __init__(self, options: Options | None = None) -> None:
        self.options = options or Options()
        self.pieces = Pieces.start()
        self.moves: list[Path] = []
        self.phase = PLAY
        self.offer = NOBODY
        self.warnings = [0, 0]
        self.winner = NOBODY
        self.why = ""

    @classmethod
    def from_order(cls, order: Any, carry: dict[str, Any] | None = None) -> CheckersBoard:
        """The spec's ``new_board``: nothing is dealt (``order`` is empty); the carry is None or
        ``{"options": …}``, the event's options for this game."""
        if order:
            raise DeckhandError("a checkers board is not dealt: its card order must be empty")
        if carry is not None and set(carry) - {"options"}:
            raise DeckhandError("a checkers game starts from its options alone: {'options': …}")
        return cls(Options.from_dict(None if carry is None else carry.get("options")))

    # -- queries ---------------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        return len(self.moves) % 2

    def pending(self) -> list[int]:
        return [] if self.phase == END else [self.turn]

    def hand(self, seat: int) -> list[int]:
        """No cards: a board game's seats hold none."""
        self._check_seat(seat)
        return []

    def seat_view(self, seat: int) -> SeatView:
        self._check_seat(seat)
        return SeatView(
            seat=seat,
            phase=self.phase,
            moves=tuple(self.moves),
            offer=self.offer,
            warnings=(self.warnings[0], self.warnings[1]),
            winner=self.winner,
            why=self.why,
            passive_after=self.options.passive_after,
            move_seconds=self.options.move_seconds,
        )

    def legal_actions(self, seat: int) -> list[Action]:
        self._check_seat(seat)
        if self.phase == END or seat != self.turn:
            return []
        found = destinations(self.pieces, seat)
        actions = [move(seat, name(a), name(b)) for a, b in found] or [Action(seat, PASS)]
        return actions + resign_or_draw(seat, self.offer)

    def default_action(self, seat: int) -> Action | None:
        """At the move's time limit the seat is warned (the third warning loses); the clock restarts."""
        self._check_seat(seat)
        return Action(seat, WARNING, timeout=True) if seat in self.pending() else None

    def timing(self, seat: int) -> Timing | None:
        default = self.default_action(seat)
        return None if default is None else Timing(self.options.move_seconds * 1000, default)

    def result(self) -> dict[str, Any]:
        """``scores`` +1/−1 (0 each when drawn), ``points`` the match's 1 / ½ / 0, the moves each side made."""
        self._check_ended()
        scores, points = scores_and_points(None if self.winner == NOBODY else self.winner, SEATS)
        return {
            "ruleset": RULESET,
            "winner": None if self.winner == NOBODY else SIDES[self.winner],
            "why": self.why,
            "moves": {"red": (len(self.moves) + 1) // 2, "blue": len(self.moves) // 2},
            "scores": scores,
            "points": points,
            "carry": None,
        }

    # -- actions ---------------------------------------------------------------------------------

    def check(self, action: Action) -> None:
        """Raise Rejected unless ``action`` may be applied now; never changes the board."""
        self._validate(action)

    def apply(self, action: Action) -> None:
        """Apply one action or raise Rejected; a rejected action leaves the board exactly as it was."""
        path = self._validate(action)
        seat, kind = action.seat, action.kind
        if kind in (MOVE, PASS):
            assert path is not None
            self._play(seat, path)
        elif kind == RESIGN:
            self._end(1 - seat, RESIGNED)
        elif kind == OFFER:
            self.offer = seat
        elif kind == ACCEPT:
            self._end(NOBODY, AGREED)
        else:
            self.warnings[seat] += 1
            if self.warnings[seat] >= WARNINGS_LOSE:
                self._end(1 - seat, TIME)

    def _validate(self, action: Action) -> list[int] | None:
        """The points a move or pass takes (empty for a pass; None for the other kinds), or Rejected."""
        self._check_action_seat(action.seat)
        self._check_open()
        seat, kind = action.seat, action.kind
        if kind not in KINDS:
            raise Rejected("bad_action", f"unknown action {kind!r} for Chinese checkers")
        if action.cards or action.value:
            raise Rejected("bad_action", f"a checkers {kind} carries no cards and no value")
        if kind == WARNING and not action.timeout:
            raise Rejected("platform_only", "only the platform's clock gives a warning")
        if kind != WARNING and action.timeout:
            raise Rejected("bad_action", "only a clock warning comes from the clock")
        if seat != self.turn:
            raise Rejected("not_your_turn", f"{SIDES[self.turn]} (seat {self.turn}) is to move")
        if kind != MOVE and action.data is not None:
            raise Rejected("bad_action", f"a checkers {kind} carries no data")
        if kind == MOVE:
            return self._check_move(seat, action.data)
        if kind == PASS:
            if destinations(self.pieces, seat):
                raise Rejected("must_move", f"{SIDES[seat]} has a legal move: a side passes only without one")
            return []
        if kind == OFFER and self.offer != NOBODY:
            raise Rejected("offer_standing", f"seat {self.offer}'s draw offer stands")
        if kind == ACCEPT and self.offer in (NOBODY, seat):
            raise Rejected("no_offer", "there is no draw offer from the other seat to accept")
        return None

    def _check_move(self, seat: int, data: Any) -> list[int]:
        if not (isinstance(data, dict) and (set(data) == {"from", "to"} or set(data) == {"path"})):
            raise Rejected(
                "bad_move", 'a move is {"from": "r3c1", "to": "r5c1"} or {"path": ["r3c1", "r5c1", …]}'
            )
        given = [data["from"], data["to"]] if "from" in data else data["path"]
        if not isinstance(given, list) or len(given) < 2:
            raise Rejected("bad_path", "a move's path names at least two points, its start first")
        try:
            points = [parse_point(p) for p in given]
        except DeckhandError as exc:
            raise Rejected("bad_move", str(exc)) from None
        if "path" in data:
            fault = path_fault(self.pieces, seat, points)
            if fault is not None:
                raise Rejected(*fault)
            return points
        start, end = points
        if self.pieces.cells[start] != seat:
            fault = path_fault(self.pieces, seat, points)  # says whose piece, if any, stands there
            assert fault is not None
            raise Rejected(*fault)
        came = reach(self.pieces.cells, start)
        if end not in came:
            raise Rejected("unreachable", f"no legal move takes the piece on {name(start)} to {name(end)}")
        return chain(came, start, end)

    def _play(self, seat: int, path: list[int]) -> None:
        if path:
            self.pieces.move(path[0], path[-1])
        self.moves.append(tuple(name(p) for p in path))
        if seat != self.offer:
            self.offer = NOBODY  # a move instead of accepting declines the offer
        if seat == 1:
            verdict = round_end(self.pieces, len(self.moves) // 2, self.options.passive_after)
            if verdict is not None:
                self._verdict(verdict)

    def _verdict(self, verdict: Verdict) -> None:
        self._end(NOBODY if verdict.winner is None else verdict.winner, verdict.why)

    def _ruled(self, winner: int | None, why: str) -> None:
        self._end(NOBODY if winner is None else winner, why)

    def _end(self, winner: int, why: str) -> None:
        self.phase = END
        self.winner = winner
        self.why = why
        self.offer = NOBODY

    # -- serialization ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "r": RULESET,
            "o": self.options.to_dict(),
            "m": [list(path) for path in self.moves],
            "p": self.phase,
            "f": self.offer,
            "w": self.warnings,
            "x": self.winner,
            "y": self.why,
        }

    @classmethod
    def _load(cls, data: dict[str, Any]) -> CheckersBoard:
        board = cls(Options.from_dict(data["o"]))
        board.moves = [tuple(path) for path in data["m"]]
        board.pieces = replay(board.moves)
        board.phase = data["p"]
        board.offer = data["f"]
        board.warnings = list(data["w"])
        board.winner = data["x"]
        board.why = data["y"]
        return board


# Checked by mypy: the checkers board offers the whole engine interface.
_ENGINE: type[Board] = CheckersBoard
