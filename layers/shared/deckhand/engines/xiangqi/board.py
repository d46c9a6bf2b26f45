"""A game of Xiangqi on the engine contract (RULES.md §6.1): one board is one game of a match.

Seat 0 plays Red, seat 1 Black. The state is the start position, the moves in ICCS, the clock warnings
and a standing draw offer; everything else (the position, how often each position has occurred, the
plies without a capture) follows from replaying the moves, so a stored game loads back exactly.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, NamedTuple

from ...errors import DeckhandError
from ..common.board import END, GameBoard
from ..contract import Action, Rejected, Timing
from .chinese import chinese
from .position import START, NotationError, Position, iccs, parse_square
from .tables import RED

PLAY = "play"
SIDES = ("red", "black")
QUIET_LIMIT = 120  # plies without a capture: 60 moves each, a draw
REPEAT_LIMIT = 3  # a move may not make a position occur for the third time
WARNINGS_LOSE = 3  # the third clock warning loses the game


class Clock(enum.Enum):
    """The per-move clock (RULES.md §6.1 Time): slow games 5 minutes a move, rapid games 20 s."""

    SLOW = "slow"
    RAPID = "rapid"

    @property
    def limit_ms(self) -> int:
        return 300_000 if self is Clock.SLOW else 20_000


@dataclass(frozen=True)
class Options:
    """What an event chooses for a game: its clock (games 1–2 of a match slow, later games rapid)."""

    clock: Clock = Clock.SLOW

    def to_dict(self) -> dict[str, Any]:
        return {"clock": self.clock.value}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Options:
        data = dict(data or {})
        unknown = set(data) - {"clock"}
        if unknown:
            raise DeckhandError(f"unknown Xiangqi options: {', '.join(sorted(unknown))}")
        try:
            return cls(Clock(data.get("clock", Clock.SLOW.value)))
        except ValueError:
            raise DeckhandError(f"clock must be 'slow' or 'rapid', got {data.get('clock')!r}") from None


SLOW_GAMES = 2  # games 1–2 of a match are slow, later games rapid (RULES.md §6.5)


def game_options(options: dict[str, Any] | None, game_no: int) -> dict[str, Any]:
    """Game ``game_no`` of a match: the event's options with the clock the rules give that game."""
    clock = Clock.SLOW if game_no <= SLOW_GAMES else Clock.RAPID
    return {**Options.from_dict(options).to_dict(), "clock": clock.value}


class SeatView(NamedTuple):
    """What a seat knows: everything (Xiangqi hides nothing), as its bot and its handset read it."""

    seat: int
    start: str
    moves: tuple[str, ...]
    fen: str
    to_move: int | None  # None once the game is over
    warnings: tuple[int, int]
    offer: int | None  # the seat whose draw offer stands
    winner: int | None
    why: str | None
    clock: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "side": SIDES[self.seat],
            "start": self.start,
            "moves": list(self.moves),
            "fen": self.fen,
            "to_move": self.to_move,
            "warnings": list(self.warnings),
            "offer": self.offer,
            "winner": self.winner,
            "why": self.why,
            "clock": self.clock,
        }

    @classmethod
    def from_dict(cls, view: dict[str, Any]) -> SeatView:
        w = view["warnings"]
        return cls(
            view["seat"],
            view["start"],
            tuple(view["moves"]),
            view["fen"],
            view["to_move"],
            (w[0], w[1]),
            view["offer"],
            view["winner"],
            view["why"],
            view["clock"],
        )


def move_action(seat: int, move: int) -> Action:
    text = iccs(move)
    return Action(seat, "move", data={"from": text[:2], "to": text[2:]})


class Game:
    """A position with its history: the repetition counts and the legal moves under the game's rules."""

    def __init__(self, start: str) -> None:
        self.pos = Position.from_fen(start)
        self.seen: dict[int, int] = {self.pos.hash: 1}
        self._legal: list[int] | None = None
        self._all: list[int] | None = None

    def all_moves(self) -> list[int]:
        """Every move the pieces may make (the general left safe), before the repetition rule."""
        if self._all is None:
            self._all = self.pos.legal_moves()
        return self._all

    def legal(self) -> list[int]:
        """The moves the rules allow now: ``all_moves`` less those that repeat a position a third time."""
        if self._legal is None:
            pos, out = self.pos, []
            for m in self.all_moves():
                taken = pos.make(m)
                if self.seen.get(pos.hash, 0) < REPEAT_LIMIT - 1:
                    out.append(m)
                pos.unmake(m, taken)
            self._legal = out
        return self._legal

    def repeats(self, move: int) -> bool:
        return move in self.all_moves() and move not in self.legal()

    def play(self, move: int) -> None:
        taken = self.pos.make(move)
        self.pos.quiet = 0 if taken else self.pos.quiet + 1
        self.seen[self.pos.hash] = self.seen.get(self.pos.hash, 0) + 1
        self._legal = self._all = None

    def over(self) -> tuple[int | None, str] | None:
        """The game's end in this position, if it has one: (the winning side's sign or None, why)."""
        mover = self.pos.side
        if not self.all_moves():
            return -mover, "checkmate" if self.pos.in_check() else "stalemate"
        if not self.legal():
            return -mover, "repetition"  # every move refused: a loss as with no legal move
        if self.pos.quiet >= QUIET_LIMIT:
            return None, "no_capture"
        return None


class XiangqiBoard(GameBoard):
    ruleset = "xiangqi-2004"
    name = "Xiangqi"
    seats = 2
    claims = ("perpetual_check", "perpetual_chase")  # 长将, 长捉: the referee rules who loses

    def __init__(
        self,
        start: str = START,
        options: Options | None = None,
        moves: list[str] | None = None,
        warnings: tuple[int, int] = (0, 0),
        offer: int | None = None,
        end: tuple[int | None, str] | None = None,
    ) -> None:
        self.start = start
        self.options = options or Options()
        self.game = Game(start)
        self.moves: list[str] = []
        for text in moves or []:
            move = self._parse(text)
            if move not in self.game.legal():
                raise DeckhandError(f"move {len(self.moves) + 1} ({text}) is not legal there")
            self.game.play(move)
            self.moves.append(text)
        self.warnings = list(warnings)
        self.offer = offer
        self.end = end  # (winning seat or None, why)
        self.phase = END if end is not None else PLAY
        if end is None:
            self._judge()

    @staticmethod
    def _parse(text: object) -> int:
        if not isinstance(text, str) or len(text) != 4:
            raise DeckhandError(f"not an ICCS move: {text!r}")
        return parse_square(text[:2]) << 8 | parse_square(text[2:])

    @classmethod
    def from_order(cls, order: Any, carry: dict[str, Any] | None = None) -> XiangqiBoard:
        """A game from the start position: nothing is dealt (``order`` is empty); the carry is None or
        ``{"options": …}``, the event's options for this game."""
        if order:
            raise DeckhandError("a Xiangqi board is not dealt: its card order must be empty")
        if carry is not None and set(carry) != {"options"}:
            raise DeckhandError("a Xiangqi game starts from its options alone: {'options': …}")
        return cls(options=Options.from_dict((carry or {}).get("options")))

    # --- who acts --------------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        return 0 if self.game.pos.side == RED else 1

    def pending(self) -> list[int]:
        return [] if self.phase == END else [self.turn]

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == END or seat != self.turn:
            return []
        out = [move_action(seat, m) for m in sorted(self.game.legal(), key=iccs)]
        out.append(Action(seat, "resign"))
        if self.offer is None:
            out.append(Action(seat, "offer"))
        elif self.offer != seat:
            out.append(Action(seat, "accept"))
        return out

    def default_action(self, seat: int) -> Action | None:
        return Action(seat, "overtime", timeout=True) if seat in self.pending() else None

    def timing(self, seat: int) -> Timing | None:
        default = self.default_action(seat)
        return None if default is None else Timing(self.options.clock.limit_ms, default)

    def hand(self, seat: int) -> list[int]:
        self._check_seat(seat)
        return []  # nothing is dealt

    # --- checking and applying -------------------------------------------------------------------

    def check(self, action: Action) -> None:
        self._checked(action)

    def _checked(self, action: Action) -> int | None:
        """The move the action makes (None for the other kinds), or Rejected."""
        self._check_action_seat(action.seat)
        self._check_open()
        if action.cards or action.value:
            raise Rejected("bad_action", "a Xiangqi action carries no cards and no value")
        seat, kind = action.seat, action.kind
        if kind == "overtime":
            if not action.timeout:
                raise Rejected("bad_action", "a clock warning is the platform's, at the move's time limit")
        elif action.timeout:
            raise Rejected("bad_action", "only a clock warning comes from the clock")
        if seat != self.turn:
            raise Rejected("not_your_turn", f"seat {self.turn} ({SIDES[self.turn]}) is to move")
        if kind in ("resign", "overtime"):
            return None
        if kind == "offer":
            if self.offer is not None:
                raise Rejected("draw_offered", "a draw offer already stands")
            return None
        if kind == "accept":
            if self.offer is None or self.offer == seat:
                raise Rejected("no_offer", "no draw offer of the other side stands")
            return None
        if kind != "move":
            raise Rejected("bad_action", f"unknown action {kind!r} for Xiangqi")
        data = action.data
        if not isinstance(data, dict) or set(data) != {"from", "to"}:
            raise Rejected(
                "bad_move", 'a move carries {"from": point, "to": point}, like {"from": "h2", "to": "e2"}'
            )
        try:
            move = parse_square(data["from"]) << 8 | parse_square(data["to"])
        except NotationError as exc:
            raise Rejected("bad_move", str(exc)) from None
        if move not in self.game.all_moves():
            raise Rejected("illegal_move", f"{iccs(move)} is not a legal move here")
        if move not in self.game.legal():
            raise Rejected("repetition", f"{iccs(move)} would make this position occur a third time")
        return move

    def apply(self, action: Action) -> None:
        move = self._checked(action)
        seat, kind = action.seat, action.kind
        if move is not None:
            self.game.play(move)
            self.moves.append(iccs(move))
            if self.offer is not None and self.offer != seat:
                self.offer = None  # a move instead of accepting declines the offer
            self._judge()
        elif kind == "resign":
            self._finish(1 - seat, "resignation")
        elif kind == "offer":
            self.offer = seat
        elif kind == "accept":
            self._finish(None, "agreement")
        else:  # a clock warning; the move's clock starts again
            self.warnings[seat] += 1
            if self.warnings[seat] >= WARNINGS_LOSE:
                self._finish(1 - seat, "time")

    def _judge(self) -> None:
        over = self.game.over()
        if over is not None:
            side, why = over
            self._finish(None if side is None else 0 if side == RED else 1, why)

    def _ruled(self, winner: int | None, why: str) -> None:
        self._finish(winner, why)

    def _finish(self, winner: int | None, why: str) -> None:
        self.end = (winner, why)
        self.phase = END
        self.offer = None

    # --- what is read --------------------------------------------------------------------------

    def seat_view(self, seat: int) -> SeatView:
        self._check_seat(seat)
        winner, why = self.end if self.end is not None else (None, None)
        return SeatView(
            seat,
            self.start,
            tuple(self.moves),
            self.game.pos.fen(len(self.moves) // 2 + 1),
            None if self.phase == END else self.turn,
            (self.warnings[0], self.warnings[1]),
            self.offer,
            winner,
            why,
            self.options.clock.value,
        )

    def record(self) -> list[str]:
        """The moves in Chinese notation, for the results pages."""
        pos, out = Position.from_fen(self.start), []
        for text in self.moves:
            move = self._parse(text)
            out.append(chinese(pos, move))
            pos.make(move)
        return out

    def result(self) -> dict[str, Any]:
        self._check_ended()
        assert self.end is not None
        winner, why = self.end
        points = [0.5, 0.5] if winner is None else [1.0 if s == winner else 0.0 for s in (0, 1)]
        return {
            "scores": [0, 0] if winner is None else [1 if s == winner else -1 for s in (0, 1)],
            "points": points,
            "winner": None if winner is None else SIDES[winner],
            "why": why,
            "carry": None,
            "moves": list(self.moves),
            "chinese": self.record(),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "r": self.ruleset,
            "start": self.start,
            "options": self.options.to_dict(),
            "moves": list(self.moves),
            "warnings": list(self.warnings),
            "offer": self.offer,
            "end": None if self.end is None else list(self.end),
        }

    @classmethod
    def _load(cls, data: dict[str, Any]) -> XiangqiBoard:
        end = data["end"]
        return cls(
            data["start"],
            Options.from_dict(data["options"]),
            list(data["moves"]),
            (int(data["warnings"][0]), int(data["warnings"][1])),
            data["offer"],
            None if end is None else (end[0], end[1]),
        )
