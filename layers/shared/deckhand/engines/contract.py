"""What every game engine offers the rest of the system, so lifecycle code never names a game.

An engine keeps the whole state of one board, validates every action against it and either applies
it or raises :class:`Rejected` with a stable reason code, leaving the state untouched.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple, Protocol, get_args, runtime_checkable

from ..errors import DeckhandError

# The languages a seat's screen is drawn in (a device says which in its hello: docs/protocol.md).
Lang = Literal["en", "zh-CN"]
LANGS: tuple[Lang, ...] = get_args(Lang)
ENGLISH: Lang = "en"


class Rejected(DeckhandError):
    """An action the rules do not allow now. ``code`` is stable and documented; the text is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class Action(NamedTuple):
    """One decision by one seat. ``kind`` is game-specific (play, pass, show, double, bid …)."""

    seat: int
    kind: str
    cards: tuple[int, ...] = ()
    value: int = 0
    timeout: bool = False
    # What the seat declares with it, when the cards alone do not say (a wild card's reading, a trump
    # declaration): JSON-like, validated by the game's own action schema. None for most actions.
    data: Any = None


class Timing(NamedTuple):
    """A decision's clock (the platform runs it): when a warning comes, when the default is taken, and
    what the default is (an action with ``timeout`` set). ``warning``: the action the platform applies
    at ``warn_ms`` (a penalty the game records, ``timeout`` set), None when the warning is words only."""

    limit_ms: int
    default: Action
    warn_ms: int | None = None
    warning: Action | None = None


class Board(Protocol):
    """The engine interface. A board is made from its deal and the carry of the board before it
    (``GameSpec.new_board(order, carry)``: for the first board of a game, None or ``{"options": …}``,
    the event's rule options as JSON; None always for games whose boards stand alone); its
    ``result()`` holds per-seat ``scores`` and, in games that carry, ``sides`` (the partnerships),
    ``carry`` (what the next board starts from), ``game`` (None, or the match points and level points
    of the game the board ended, side by side: ``{"mp": [a, b], "lp": [a, b]}``) and ``summary`` (what
    a match's score card shows of the board; ``level_side`` and ``levels_*`` index the sides)."""

    ruleset: str

    @property
    def finished(self) -> bool: ...

    @property
    def deal_index(self) -> int:
        """Which of the board's pre-generated deals is in play (0 unless the game redeals)."""
        ...

    def check(self, action: Action) -> None: ...

    def apply(self, action: Action) -> None: ...

    def pending(self) -> list[int]: ...

    def legal_actions(self, seat: int) -> list[Action]: ...

    def default_action(self, seat: int) -> Action | None: ...

    def timing(self, seat: int) -> Timing | None:
        """The clock of the seat's pending decision; None when it has no time limit."""
        ...

    def hand(self, seat: int) -> list[int]:
        """The cards the seat holds now (a multiset in two-deck games)."""
        ...

    def seat_view(self, seat: int) -> Any:
        """What the seat may know, as the game's own view type (its bot decides from it)."""
        ...

    def view(self, seat: int) -> dict[str, Any]: ...

    def result(self) -> dict[str, Any]: ...

    def to_json(self) -> str: ...


@runtime_checkable
class DealtInSteps(Protocol):
    """A board whose seats may act while the cards are still being dealt (a trump declared as the
    cards arrive). ``GameSpec.new_board_in_steps`` makes one with no card given out; the platform
    calls ``deal_step(upto)`` as the cards reach the seats (the first ``upto`` cards of the deal order
    given out, one to each seat in turn) and checks and applies the seats' actions between steps
    like any other. Until the deal is complete ``pending()`` may be empty (nobody has to act) while
    ``legal_actions(seat)`` lists what a seat may do now; ``hand(seat)`` is what it has received.
    Once ``dealt == deal_total`` with no action taken, it equals the board ``new_board`` makes."""

    @property
    def dealt(self) -> int:
        """Cards given out so far."""
        ...

    @property
    def deal_total(self) -> int:
        """Cards the seats receive in all (the kitty stays out)."""
        ...

    def deal_step(self, upto: int) -> None:
        """Give out cards up to ``upto`` (never back: a smaller ``upto`` is refused)."""
        ...


class GameOver(NamedTuple):
    """A game (局) of a match ended with this board: match points and level points per side."""

    mp: tuple[int, int]
    lp: tuple[int, int]


class Outcome(NamedTuple):
    """A finished board as the platform reads it: scores per seat, the sides, the carry, the game.
    A board game's board is one game of a match: ``points`` is its score per seat, 1 / ½ / 0."""

    scores: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]
    carry: dict[str, Any] | None
    game: GameOver | None = None
    summary: dict[str, Any] | None = None
    points: tuple[float, float] | None = None


def outcome_of(result: dict[str, Any]) -> Outcome:
    """The contract's part of a board's ``result()`` (the rest is the game's own detail)."""
    game, points = result.get("game"), result.get("points")
    return Outcome(
        tuple(result["scores"]),
        tuple(tuple(side) for side in result.get("sides", ())),
        result.get("carry"),
        None if game is None else GameOver(tuple(game["mp"]), tuple(game["lp"])),
        result.get("summary"),
        None if points is None else (float(points[0]), float(points[1])),
    )
