"""The Gomoku (renju) board (RULES.md §6.2): Black's first stone on H8, then one stone a move.

Seat 0 plays Black, seat 1 White. A move is ``Action(seat, "move", data={"point": "H8"})``. Black's
forbidden moves are not refused: under the ``claim`` option the stone stands and White may point it
out before placing its next stone (a correct claim wins, a wrong one is refused ``no_forbidden_move``);
under ``automatic`` the move loses at once. An exact five wins for Black even when it also makes a
forbidden shape; five or more wins for White. The whole state is the record of moves, the standing
draw offer, the time warnings and the result: every refused action leaves it as it was.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, NamedTuple

from ...errors import DeckhandError
from ..common.board import END, GameBoard
from ..common.head_to_head import resign_or_draw, scores_and_points
from ..contract import Action, Board, Rejected, Timing
from . import RULESET, SEATS
from .forbidden import Verdict, verdict
from .options import WARNINGS_LOSE, ForbiddenRule, Options
from .stones import CENTRE, B, E, Stones, W, name, parse_point

PLAY = "play"
BLACK_SEAT, WHITE_SEAT = 0, 1
NOBODY = -1
MOVE, CLAIM, RESIGN, OFFER, ACCEPT, WARNING = "move", "claim", "resign", "offer", "accept", "warning"
KINDS = (MOVE, CLAIM, RESIGN, OFFER, ACCEPT, WARNING)
# How a game ends (``why`` in the result).
FIVE, CLAIMED, FORBIDDEN, RESIGNED, TIME, FULL, AGREED = (
    "five",
    "claim",
    "forbidden",
    "resign",
    "time",
    "full",
    "agreed",
)
COLOURS = ("black", "white")


def move(seat: int, point: str) -> Action:
    """The action that places ``seat``'s stone on ``point``."""
    return Action(seat, MOVE, data={"point": point})


def decision_key(action: Action) -> Hashable:
    """Two actions are the same decision when they are the same kind at the same point: a move's
    point is in its data, which the card games' key leaves out; it is named as the board reads it."""
    data = action.data
    point = data.get("point") if isinstance(data, dict) else data
    try:
        where = name(parse_point(point))  # "h8" and "H8" are one point, as the board reads them
    except DeckhandError:
        where = repr(point)
    return (action.seat, action.kind, where, action.timeout)


def stones_of(moves: tuple[int, ...] | list[int]) -> Stones:
    """The stones after a record of moves (Black first, then alternately)."""
    stones = Stones()
    for n, i in enumerate(moves):
        stones.put(i, B if n % 2 == 0 else W)
    return stones


class SeatView(NamedTuple):
    """What a seat knows: everything (Gomoku hides nothing), from the seat's side of the table."""

    seat: int
    phase: str
    moves: tuple[str, ...]  # the record, Black's first stone first
    offer: int  # the seat whose draw offer stands, NOBODY when none
    warnings: tuple[int, int]
    winner: int  # NOBODY while playing or when drawn
    why: str  # how the game ended ("" while playing)
    forbidden_rule: str
    move_seconds: int

    @property
    def turn(self) -> int:
        return len(self.moves) % 2

    @property
    def colour(self) -> str:
        return COLOURS[self.seat]

    def stones(self) -> Stones:
        return stones_of([parse_point(p) for p in self.moves])

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "colour": self.colour,
            "phase": self.phase,
            "turn": self.turn if self.phase == PLAY else None,
            "board": self.stones().rows(),
            "moves": list(self.moves),
            "last": self.moves[-1] if self.moves else None,
            "offer": None if self.offer == NOBODY else self.offer,
            "warnings": list(self.warnings),
            "winner": None if self.winner == NOBODY else self.winner,
            "why": self.why or None,
            "options": {"forbidden": self.forbidden_rule, "move_seconds": self.move_seconds},
        }

    @classmethod
    def from_dict(cls, view: dict[str, Any]) -> SeatView:
        """The view from its JSON form (what a device receives), e.g. for a bot on a device."""
        warnings = view["warnings"]
        return cls(
            seat=view["seat"],
            phase=view["phase"],
            moves=tuple(view["moves"]),
            offer=NOBODY if view["offer"] is None else view["offer"],
            warnings=(warnings[0], warnings[1]),
            winner=NOBODY if view["winner"] is None else view["winner"],
            why=view["why"] or "",
            forbidden_rule=view["options"]["forbidden"],
            move_seconds=view["options"]["move_seconds"],
        )


class GomokuBoard(GameBoard):
    """One game of Gomoku with renju restrictions."""

    ruleset = RULESET
    name = "Gomoku"
    seats = SEATS
    claims = (FORBIDDEN,)  # White's pointing out of a forbidden black stone, as the referee rules it

    def __init__(self, options: Options | None = None) -> None:
        self.options = options or Options()
        self.stones = Stones()
        self.moves: list[int] = []
        self.phase = PLAY
        self.offer = NOBODY
        self.warnings = [0, 0]
        self.claimable: Verdict | None = (
            None  # the last black stone's forbidden shape, while White may claim it
        )
        self.winner = NOBODY
        self.why = ""

    @classmethod
    def from_carry(cls, carry: dict[str, Any] | None = None) -> GomokuBoard:
        """A new game: ``carry`` is None or ``{"options": …}``, the event's options as JSON."""
        if carry is not None and set(carry) - {"options"}:
            raise DeckhandError("a gomoku game starts from its options alone")
        return cls(Options.from_dict(None if carry is None else carry.get("options")))

    @classmethod
    def from_order(cls, order: Any, carry: dict[str, Any] | None = None) -> GomokuBoard:
        """The spec's ``new_board``: nothing is dealt (``order`` is empty); the carry as ``from_carry``."""
        if order:
            raise DeckhandError("a gomoku board is not dealt: its card order must be empty")
        return cls.from_carry(carry)

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
            moves=tuple(name(i) for i in self.moves),
            offer=self.offer,
            warnings=(self.warnings[0], self.warnings[1]),
            winner=self.winner,
            why=self.why,
            forbidden_rule=self.options.forbidden.value,
            move_seconds=self.options.move_seconds,
        )

    def legal_actions(self, seat: int) -> list[Action]:
        self._check_seat(seat)
        if self.phase == END or seat != self.turn:
            return []
        points = list(self.stones.empty_points()) if self.moves else [CENTRE]
        actions = [move(seat, name(i)) for i in points]
        if self.claimable is not None and seat == WHITE_SEAT:
            actions.append(Action(seat, CLAIM))
        return actions + resign_or_draw(seat, self.offer)

    def default_action(self, seat: int) -> Action | None:
        """At the move's time limit the seat is warned (the third warning loses); the clock restarts."""
        self._check_seat(seat)
        return Action(seat, WARNING, timeout=True) if seat in self.pending() else None

    def timing(self, seat: int) -> Timing | None:
        default = self.default_action(seat)
        return None if default is None else Timing(self.options.move_seconds * 1000, default)

    def result(self) -> dict[str, Any]:
        """The game's result: ``scores`` +1/−1 (0 each when drawn), ``points`` the match's 1 / ½ / 0."""
        self._check_ended()
        scores, points = scores_and_points(None if self.winner == NOBODY else self.winner, SEATS)
        return {
            "ruleset": RULESET,
            "winner": None if self.winner == NOBODY else self.winner,
            "why": self.why,
            "moves": len(self.moves),
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
        point = self._validate(action)
        seat, kind = action.seat, action.kind
        if kind == MOVE:
            assert point is not None
            self._place(seat, point)
        elif kind == CLAIM:
            self._end(WHITE_SEAT, CLAIMED)
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

    def _validate(self, action: Action) -> int | None:
        """The point a move places a stone on (None for other actions), or Rejected."""
        self._check_action_seat(action.seat)
        self._check_open()
        seat, kind = action.seat, action.kind
        if kind not in KINDS:
            raise Rejected("bad_action", f"unknown action {kind!r} for Gomoku")
        if action.cards or action.value:
            raise Rejected("bad_action", f"a gomoku {kind} carries no cards and no value")
        if seat != self.turn:
            raise Rejected("not_your_turn", f"{COLOURS[self.turn]} (seat {self.turn}) is to move")
        if kind == WARNING and not action.timeout:
            raise Rejected("platform_only", "only the platform's clock gives a warning")
        if kind != MOVE:
            if action.data is not None:
                raise Rejected("bad_action", f"a gomoku {kind} carries no data")
            self._check_decision(seat, kind)
            return None
        return self._check_move(seat, action.data)

    def _check_decision(self, seat: int, kind: str) -> None:
        if kind == CLAIM and (seat != WHITE_SEAT or self.claimable is None):
            raise Rejected(
                "no_forbidden_move", "Black's last stone made no forbidden shape that can be claimed"
            )
        if kind == OFFER and self.offer != NOBODY:
            raise Rejected("offer_standing", f"seat {self.offer}'s draw offer stands")
        if kind == ACCEPT and self.offer in (NOBODY, seat):
            raise Rejected("no_offer", "there is no draw offer from the other seat to accept")

    def _check_move(self, seat: int, data: Any) -> int:
        token = data.get("point") if isinstance(data, dict) and set(data) == {"point"} else None
        try:
            point = parse_point(token)
        except DeckhandError as exc:
            raise Rejected("bad_point", f'a move\'s data is {{"point": "H8"}}: {exc}') from None
        if self.stones.cells[point] != E:
            raise Rejected("occupied", f"{name(point)} already holds a stone")
        if not self.moves and point != CENTRE:
            raise Rejected("first_on_centre", "Black's first stone is placed on H8")
        return point

    def _place(self, seat: int, point: int) -> None:
        colour = B if seat == BLACK_SEAT else W
        shape = verdict(self.stones, point) if colour == B else Verdict.LEGAL
        self.stones.put(point, colour)
        self.moves.append(point)
        if seat != self.offer:
            self.offer = NOBODY  # a stone placed instead of accepting declines the offer
        self.claimable = None
        if self.stones.five_at(point, colour):
            self._end(seat, FIVE)
        elif shape is not Verdict.LEGAL and self.options.forbidden is ForbiddenRule.AUTOMATIC:
            self._end(WHITE_SEAT, FORBIDDEN)
        elif shape is not Verdict.LEGAL:
            self.claimable = shape  # stands unless White points it out before its next stone
        elif self.stones.full:
            self._end(NOBODY, FULL)

    def _ruled(self, winner: int | None, why: str) -> None:
        if why == FORBIDDEN:
            # Upheld only as White's own claim would be: before White's next stone, for White (004);
            # once White has placed it the forbidden stone stands for good.
            if self.claimable is None:
                raise Rejected(
                    "claim_too_late",
                    "Black's last stone made no forbidden shape, or White has placed a stone since: "
                    "the move stands",
                )
            if winner != WHITE_SEAT:
                raise Rejected(
                    "bad_winner", f"an upheld forbidden-move claim wins for White (seat {WHITE_SEAT})"
                )
            why = CLAIMED
        self._end(NOBODY if winner is None else winner, why)

    def _end(self, winner: int, why: str) -> None:
        self.phase = END
        self.winner = winner
        self.why = why
        self.offer = NOBODY
        self.claimable = None

    # -- serialization ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "r": RULESET,
            "o": self.options.to_dict(),
            "m": [name(i) for i in self.moves],
            "p": self.phase,
            "f": self.offer,
            "w": self.warnings,
            "c": None if self.claimable is None else self.claimable.value,
            "x": self.winner,
            "y": self.why,
        }

    @classmethod
    def _load(cls, data: dict[str, Any]) -> GomokuBoard:
        board = cls(Options.from_dict(data["o"]))
        board.moves = [parse_point(p) for p in data["m"]]
        board.stones = stones_of(board.moves)
        board.phase = data["p"]
        board.offer = data["f"]
        board.warnings = list(data["w"])
        board.claimable = None if data["c"] is None else Verdict(data["c"])
        board.winner = data["x"]
        board.why = data["y"]
        return board


# Checked by mypy: the Gomoku board offers the whole engine interface.
_ENGINE: type[Board] = GomokuBoard
