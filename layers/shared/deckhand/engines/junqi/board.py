"""The Junqi board in umpire form (RULES.md §6.3): the server holds both setups and settles every
attack; each seat sees its own pieces by rank and the other side's only as squares (D12).

Seat 0 plays Red and moves first, seat 1 Blue. First both seats send a setup, ``Action(seat, "setup",
data={square: token})`` or ``data={"offered": n}``, the n-th setup offered (in either order, each hidden from the other; a timed-out seat gets the seeded
random setup), then the seat to move sends ``Action(seat, "move", data={"from": "a6", "to": "a7"})``.
The platform's clock sends ``timeout`` (the turn passes, no ply; the fifth loses). The game's seed for
the random setups comes in the carry, ``{"seed": …, "options": …, "last": [setup | None, …]}``, with
each seat's player's last accepted setup (from any game, as either side: offered first, turned to
the seat's side); the result's ``keep`` gives each seat's setup it sent, for its player's next game.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any, NamedTuple

from ...errors import DeckhandError
from ..common.board import END, GameBoard
from ..common.head_to_head import scores_and_points
from ..contract import Action, Board, Rejected, Timing
from . import RULESET, SEATS
from .geometry import INDEX, NAMES, SIDES, SQUARES, parse
from .moves import (
    DRAW,
    NO_MOVES,
    Cell,
    Played,
    destinations,
    ending,
    flag_square,
    has_marshal,
    has_move,
    legal_moves,
    move_text,
    play,
)
from .options import TIMEOUTS_LOSE, Options
from .pieces import TOKENS
from .setup import Placement, for_side, random_setup, reason, sound_setup

SETUP, PLAY = "setup", "play"
STANDARD, RANDOM = "standard", "random"  # the setups a setup action may name (``named_setup``)
# A setup's data may name one the seat is offered, ``{"offered": n}`` (1 first): a handset's ask stays
# well within a message's 1 KiB, where three setups of 25 squares would not.
OFFERED = "offered"
SET_UP, MOVE, TIMEOUT = "setup", "move", "timeout"
KINDS = (SET_UP, MOVE, TIMEOUT)
NOBODY = DRAW  # no winner (playing, or drawn)
TIME = "time"


def move(seat: int, frm: str, to: str) -> Action:
    return Action(seat, MOVE, data={"from": frm, "to": to})


def set_up(seat: int, placement: Placement, timeout: bool = False) -> Action:
    return Action(seat, SET_UP, data=dict(placement), timeout=timeout)


def decision_key(action: Action) -> Hashable:
    """A move is its squares, a setup its placement: the data's items in order (canonical JSON for
    data of any other shape)."""
    data: Hashable = action.data
    if isinstance(data, dict) and all(isinstance(v, str) for v in data.values()):
        data = tuple(sorted(data.items()))
    elif data is not None:
        data = json.dumps(data, sort_keys=True, default=repr)
    return (action.seat, action.kind, action.value, data, action.timeout)


def log_entry(frm: int, to: int, outcome: str | None) -> str:
    """One ply as every seat learns it (D12): ``a6-a7``, or ``a6-a7:both`` after an attack."""
    text = move_text((frm, to))
    return text if outcome is None else f"{text}:{outcome}"


class SeatView(NamedTuple):
    """What a seat knows: its own setup and pieces, the squares of the other side's pieces, every ply's
    squares and battle outcome, the flags shown (D8) and the counters. Never an enemy piece's rank."""

    seat: int
    phase: str
    turn: int
    ready: tuple[bool, bool]  # which seats have sent their setup
    setup: tuple[tuple[str, str], ...]  # the seat's own setup as sent, by square
    pieces: tuple[tuple[str, str], ...]  # the seat's pieces now, by square
    enemy: tuple[str, ...]  # the squares of the other side's pieces
    log: tuple[str, ...]  # every ply (Red's first), ``timeout`` for a timed-out turn
    quiet: int
    timeouts: tuple[int, int]
    flag_shown: tuple[str | None, str | None]  # each side's flag square once shown (D8)
    winner: int
    why: str
    show_flag: bool
    move_seconds: int

    @property
    def side(self) -> str:
        return SIDES[self.seat]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "side": self.side,
            "phase": self.phase,
            "turn": self.turn if self.phase == PLAY else None,
            "ready": list(self.ready),
            "setup": dict(self.setup),
            "pieces": dict(self.pieces),
            "enemy": list(self.enemy),
            "log": list(self.log),
            "last": self.log[-1] if self.log else None,
            "quiet": self.quiet,
            "timeouts": list(self.timeouts),
            "flag_shown": dict(zip(SIDES, self.flag_shown, strict=True)),
            "winner": None if self.winner == NOBODY else self.winner,
            "why": self.why or None,
            "options": {"show_flag_on_marshal_loss": self.show_flag, "move_seconds": self.move_seconds},
        }

    @classmethod
    def from_dict(cls, view: dict[str, Any]) -> SeatView:
        """The view from its JSON form (what a device receives), e.g. for a bot on a device."""
        ready, timeouts, shown = view["ready"], view["timeouts"], view["flag_shown"]
        return cls(
            seat=view["seat"],
            phase=view["phase"],
            turn=0 if view["turn"] is None else view["turn"],
            ready=(ready[0], ready[1]),
            setup=tuple(sorted(view["setup"].items())),
            pieces=tuple(sorted(view["pieces"].items())),
            enemy=tuple(view["enemy"]),
            log=tuple(view["log"]),
            quiet=view["quiet"],
            timeouts=(timeouts[0], timeouts[1]),
            flag_shown=(shown[SIDES[0]], shown[SIDES[1]]),
            winner=NOBODY if view["winner"] is None else view["winner"],
            why=view["why"] or "",
            show_flag=view["options"]["show_flag_on_marshal_loss"],
            move_seconds=view["options"]["move_seconds"],
        )


def _cell_code(cell: Cell) -> int:
    return -1 if cell is None else cell[0] * len(TOKENS) + TOKENS.index(cell[1])


def _cell(code: int) -> Cell:
    return None if code < 0 else (code // len(TOKENS), TOKENS[code % len(TOKENS)])


class JunqiBoard(GameBoard):
    """One game of Junqi, the server as umpire."""

    ruleset = RULESET
    name = "Junqi"
    seats = SEATS

    def __init__(
        self, options: Options | None = None, seed: str = "", last: list[Placement | None] | None = None
    ) -> None:
        self.options = options or Options()
        self.seed = seed
        # Each seat's player's last setup, turned to the seat's side: offered first, to that seat alone.
        self.last: list[Placement | None] = [
            None if p is None else for_side(p, seat) for seat, p in enumerate(last or [None, None])
        ]
        self.setups: list[Placement | None] = [None, None]
        self.sent = [False, False]  # the seat sent its setup (not the timed-out one): kept for its player
        self.cells: list[Cell] = [None] * len(SQUARES)
        self.phase = SETUP
        self.turn = 0
        self.log: list[str] = []
        self.quiet = 0
        self.timeouts = [0, 0]
        self.marshal_lost = [False, False]
        self.winner = NOBODY
        self.why = ""

    @classmethod
    def from_order(cls, order: Any, carry: dict[str, Any] | None = None) -> JunqiBoard:
        """The spec's ``new_board``: nothing is dealt (``order`` is empty); the carry is None or
        ``{"options": …, "seed": …, "last": […]}`` (the seed draws a timed-out seat's setup; ``last``
        each seat's player's saved setup or None)."""
        if order:
            raise DeckhandError("a Junqi board is not dealt: its card order must be empty")
        carry = carry or {}
        if set(carry) - {"options", "seed", "last"} or not isinstance(carry.get("seed", ""), str):
            raise DeckhandError(
                "a Junqi game starts from its options, seed and saved setups: {'options', 'seed', 'last'}"
            )
        last = carry.get("last")
        if last is not None and (not isinstance(last, list) or len(last) != SEATS):
            raise DeckhandError("a Junqi carry's 'last' is one saved setup (or null) a seat")
        return cls(Options.from_dict(carry.get("options")), carry.get("seed", ""), last)

    # -- queries ---------------------------------------------------------------------------------

    def pending(self) -> list[int]:
        if self.phase == SETUP:
            return [s for s in range(SEATS) if self.setups[s] is None]
        return [] if self.phase == END else [self.turn]

    def hand(self, seat: int) -> list[int]:
        """No cards: a board game's seats hold none."""
        self._check_seat(seat)
        return []

    def flag_shown(self, side: int) -> int | None:
        """D8: a side's flag square once its marshal is gone (option on, flag still standing)."""
        if not (self.options.show_flag_on_marshal_loss and self.marshal_lost[side]):
            return None
        return flag_square(self.cells, side)

    def seat_view(self, seat: int) -> SeatView:
        self._check_seat(seat)
        own = self.setups[seat]
        shown = [self.flag_shown(s) for s in range(SEATS)]
        return SeatView(
            seat=seat,
            phase=self.phase,
            turn=self.turn if self.phase == PLAY else 0,
            ready=(self.setups[0] is not None, self.setups[1] is not None),
            setup=tuple(sorted(own.items())) if own else (),
            pieces=tuple(sorted((NAMES[sq], c[1]) for sq, c in enumerate(self.cells) if c and c[0] == seat)),
            enemy=()
            if self.phase == SETUP
            else tuple(sorted(NAMES[sq] for sq, c in enumerate(self.cells) if c and c[0] != seat)),
            log=tuple(self.log),
            quiet=self.quiet,
            timeouts=(self.timeouts[0], self.timeouts[1]),
            flag_shown=(
                None if shown[0] is None else NAMES[shown[0]],
                None if shown[1] is None else NAMES[shown[1]],
            ),
            winner=self.winner,
            why=self.why,
            show_flag=self.options.show_flag_on_marshal_loss,
            move_seconds=self.options.move_seconds,
        )

    def setup_choices(self, seat: int) -> list[Placement]:
        """The setups a seat is offered (its player's last one first when saved, then the seeded random
        one, then the bot's two): the legal setups are far too many to list, and any legal one sent
        is accepted."""
        out: list[Placement] = []
        saved = self.last[seat]
        offered = (random_setup(self.seed, seat), sound_setup(seat), sound_setup(seat, flipped=True))
        for placement in ([saved] if saved else []) + list(offered):
            if placement not in out:
                out.append(placement)
        return out

    def legal_actions(self, seat: int) -> list[Action]:
        self._check_seat(seat)
        if seat not in self.pending():
            return []
        if self.phase == SETUP:
            return [set_up(seat, p) for p in self.setup_choices(seat)]
        return [move(seat, NAMES[f], NAMES[t]) for f, t in sorted(legal_moves(self.cells, seat))]

    def default_action(self, seat: int) -> Action | None:
        """At the time limit: the seeded random setup, or the turn passed (a timeout; the fifth loses)."""
        self._check_seat(seat)
        if seat not in self.pending():
            return None
        if self.phase == SETUP:
            return set_up(seat, random_setup(self.seed, seat), timeout=True)
        return Action(seat, TIMEOUT, timeout=True)

    def timing(self, seat: int) -> Timing | None:
        default = self.default_action(seat)
        if default is None:
            return None
        seconds = self.options.setup_seconds if self.phase == SETUP else self.options.move_seconds
        return Timing(seconds * 1000, default)

    def result(self) -> dict[str, Any]:
        """The game's result: ``scores`` +1/−1 (0 each when drawn), ``points`` the match's 1 / ½ / 0."""
        self._check_ended()
        scores, points = scores_and_points(None if self.winner == NOBODY else self.winner, SEATS)
        return {
            "ruleset": RULESET,
            "winner": None if self.winner == NOBODY else self.winner,
            "why": self.why,
            "plies": len(self.log),
            "scores": scores,
            "points": points,
            "carry": None,
            # Each seat's setup as it sent it (None: timed out), for its player to reuse.
            "keep": [p if sent else None for p, sent in zip(self.setups, self.sent, strict=True)],
        }

    # -- actions ---------------------------------------------------------------------------------

    def check(self, action: Action) -> None:
        """Raise Rejected unless ``action`` may be applied now; never changes the board."""
        self._validate(action)

    def named_setup(self, seat: int, data: Any) -> Any:
        """A setup's data as sent, or the setup it names: ``"standard"`` the bot's sound setup,
        ``"random"`` the seat's seeded random one (a handset's options: a whole placement is too long
        for its 1 KiB messages)."""
        if data == STANDARD:
            return sound_setup(seat)
        if data == RANDOM:
            return random_setup(self.seed, seat)
        return data

    def apply(self, action: Action) -> None:
        """Apply one action or raise Rejected; a rejected action leaves the board exactly as it was."""
        squares = self._validate(action)
        if action.kind == SET_UP:
            self._place(action.seat, dict(sorted(self._setup_data(action.seat, action.data).items())))
            self.sent[action.seat] = not action.timeout
        elif action.kind == MOVE:
            assert squares is not None
            self._move(action.seat, *squares)
        else:
            self._time_out(action.seat)

    def _validate(self, action: Action) -> tuple[int, int] | None:
        """A move's squares (None for other actions), or Rejected."""
        self._check_action_seat(action.seat)
        self._check_open()
        seat, kind = action.seat, action.kind
        if kind not in KINDS:
            raise Rejected("bad_action", f"unknown action {kind!r} for Junqi")
        if action.cards or action.value:
            raise Rejected("bad_action", f"a junqi {kind} carries no cards and no value")
        if (kind == SET_UP) != (self.phase == SETUP):
            raise Rejected("phase_closed", f"the game is in its {self.phase} phase")
        if seat not in self.pending():
            if self.phase == SETUP:
                raise Rejected("already_decided", "this seat has sent its setup")
            raise Rejected("not_your_turn", f"{SIDES[self.turn]} (seat {self.turn}) is to move")
        if kind == SET_UP:
            why = reason(seat, self._setup_data(seat, action.data))
            if why is not None:
                raise Rejected(why, f"not a legal setup for {SIDES[seat]}: rule {why!r} (RULES §6.3 Setup)")
            return None
        if kind == TIMEOUT:
            if not action.timeout:
                raise Rejected("platform_only", "only the platform's clock times a turn out")
            return None
        return self._check_move(seat, action.data)

    def _setup_data(self, seat: int, data: Any) -> Any:
        """A setup's placement: as sent, the one it names (``named_setup``), or the offered one
        ``{"offered": n}`` names."""
        data = self.named_setup(seat, data)
        if not (isinstance(data, dict) and set(data) == {OFFERED}):
            return data
        n, choices = data[OFFERED], self.setup_choices(seat)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(choices):
            raise Rejected("bad_action", f"'offered' names one of the {len(choices)} setups offered, 1 first")
        return choices[n - 1]

    def _check_move(self, seat: int, data: Any) -> tuple[int, int]:
        if not isinstance(data, dict) or set(data) != {"from", "to"}:
            raise Rejected("bad_move", 'a move\'s data is {"from": square, "to": square}')
        try:
            frm, to = parse(data["from"]), parse(data["to"])
        except DeckhandError as exc:
            raise Rejected("bad_move", str(exc)) from None
        cell = self.cells[frm]
        if cell is None or cell[0] != seat:
            raise Rejected("not_your_piece", f"{NAMES[frm]} holds no piece of {SIDES[seat]}")
        if to not in destinations(self.cells, frm):
            raise Rejected("illegal_move", f"{NAMES[frm]}-{NAMES[to]} is not a legal move")
        return frm, to

    def _place(self, seat: int, placement: Placement) -> None:
        self.setups[seat] = placement
        for key, token in placement.items():
            self.cells[INDEX[key]] = (seat, token)
        if all(s is not None for s in self.setups):
            self.phase = PLAY

    def _move(self, seat: int, frm: int, to: int) -> None:
        played: Played = play(self.cells, frm, to)
        self.log.append(log_entry(frm, to, played.outcome))
        self.quiet = 0 if played.outcome is not None else self.quiet + 1
        for side in range(SEATS):
            self.marshal_lost[side] = self.marshal_lost[side] or not has_marshal(self.cells, side)
        self.turn = 1 - seat
        end = ending(self.cells, seat, played, self.quiet)
        if end is not None:
            self._end(end.winner, end.why)

    def _time_out(self, seat: int) -> None:
        """D10: the turn passes without a ply; the fifth timeout loses. The side now to move was not
        tested after its own last move: stuck, it loses (both stuck: a draw), as D7 has it."""
        self.timeouts[seat] += 1
        self.log.append(TIMEOUT)
        self.turn = 1 - seat
        if self.timeouts[seat] >= TIMEOUTS_LOSE:
            self._end(1 - seat, TIME)
        elif not has_move(self.cells, self.turn):
            self._end(seat if has_move(self.cells, seat) else NOBODY, NO_MOVES)

    def _ruled(self, winner: int | None, why: str) -> None:
        self._end(NOBODY if winner is None else winner, why)

    def _end(self, winner: int, why: str) -> None:
        self.phase = END
        self.winner = winner
        self.why = why

    # -- serialization ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "r": RULESET,
            "o": self.options.to_dict(),
            "s": self.seed,
            "v": self.last,
            "u": self.setups,
            "k": self.sent,
            "c": [_cell_code(c) for c in self.cells],
            "p": self.phase,
            "t": self.turn,
            "l": self.log,
            "q": self.quiet,
            "w": self.timeouts,
            "m": self.marshal_lost,
            "x": self.winner,
            "y": self.why,
        }

    @classmethod
    def _load(cls, data: dict[str, Any]) -> JunqiBoard:
        board = cls(Options.from_dict(data["o"]), data["s"])
        board.last = [None if s is None else dict(s) for s in data.get("v", [None, None])]
        board.setups = [None if s is None else dict(s) for s in data["u"]]
        board.sent = list(data.get("k", [s is not None for s in data["u"]]))
        board.cells = [_cell(c) for c in data["c"]]
        if len(board.cells) != len(SQUARES):
            raise DeckhandError("a junqi board has 60 squares")
        board.phase = data["p"]
        board.turn = data["t"]
        board.log = list(data["l"])
        board.quiet = data["q"]
        board.timeouts = list(data["w"])
        board.marshal_lost = list(data["m"])
        board.winner = data["x"]
        board.why = data["y"]
        return board


# Checked by mypy: the Junqi board offers the whole engine interface.
_ENGINE: type[Board] = JunqiBoard
