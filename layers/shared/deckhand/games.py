"""The registry of game engines: lifecycle code asks here and never names a game.

A new game plugs in by adding one ``Game`` entry: its rule set, seats, deck and how to make a board
and a bot. Dealing, play, scoring and pairing then work for it unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .bigtwo import RULESET as BIGTWO
from .bigtwo.board import BigTwoBoard
from .bigtwo.board import SeatView as BigTwoView
from .bigtwo.bot import BigTwoBot
from .doudizhu import DEALS_PER_BOARD
from .doudizhu import RULESET as DOUDIZHU
from .doudizhu.board import DouDizhuBoard
from .doudizhu.board import SeatView as DouDizhuView
from .doudizhu.bot import DouDizhuBot
from .engine import Action, Board
from .errors import DeckhandError


class Game(NamedTuple):
    ruleset: str
    name: str
    seats: int
    decks: int
    jokers: bool
    new_board: Callable[[Sequence[int]], Board]  # from a shuffled card order
    load_board: Callable[[str], Board]  # from state JSON
    bot: Callable[[], Callable[[Board, int], Action | None]]  # a deterministic decider
    decision_ms: int  # time allowed for a decision that has a timeout default
    deals_per_board: int = 1  # pre-generated deals a board carries (Dou Dizhu redeals when all pass)
    kitty: int = 0  # cards dealt last, to the kitty (Dou Dizhu: 3)
    # A bot that decides from a device's view (JSON), as a simulated handset does: style → decide(view).
    view_bot: Callable[[str], Callable[[dict[str, Any]], Action | None]] = lambda style: lambda view: None

    @property
    def deal_size(self) -> int:
        return (54 if self.jokers else 52) * self.decks


def _board_bot(
    make: Callable[[str], Any], board_type: type
) -> Callable[[], Callable[[Board, int], Action | None]]:
    """The AI seats' decider: the game's bot (steady style) on the seat's view of the board."""

    def factory() -> Callable[[Board, int], Action | None]:
        bot = make("steady")

        def decide(board: Board, seat: int) -> Action | None:
            assert isinstance(board, board_type)
            engine: Any = board  # the board type above offers seat_view
            result: Action | None = bot.decide(engine.seat_view(seat))
            return result

        return decide

    return factory


def _view_bot(
    make: Callable[[str], Any], view_type: Any
) -> Callable[[str], Callable[[dict[str, Any]], Action | None]]:
    """A simulated handset's decider: the game's bot on a device's view (JSON)."""

    def factory(style: str) -> Callable[[dict[str, Any]], Action | None]:
        bot = make(style)
        return lambda view: bot.decide(view_type.from_dict(view))

    return factory


GAMES: dict[str, Game] = {
    BIGTWO: Game(
        ruleset=BIGTWO,
        name="Big Two",
        seats=4,
        decks=1,
        jokers=False,
        new_board=BigTwoBoard.from_order,
        load_board=BigTwoBoard.from_json,
        bot=_board_bot(BigTwoBot, BigTwoBoard),
        decision_ms=10_000,
        view_bot=_view_bot(BigTwoBot, BigTwoView),
    ),
    DOUDIZHU: Game(
        ruleset=DOUDIZHU,
        name="Dou Dizhu",
        seats=3,
        decks=1,
        jokers=True,
        new_board=DouDizhuBoard.from_order,
        load_board=DouDizhuBoard.from_json,
        bot=_board_bot(DouDizhuBot, DouDizhuBoard),
        decision_ms=10_000,  # RULES.md §3: 10 s per doubling choice
        deals_per_board=DEALS_PER_BOARD,
        kitty=3,
        view_bot=_view_bot(DouDizhuBot, DouDizhuView),
    ),
}


def game(ruleset: str) -> Game:
    try:
        return GAMES[ruleset]
    except KeyError:
        raise DeckhandError(f"unknown rule set {ruleset!r}; available: {', '.join(sorted(GAMES))}") from None


def describe() -> list[dict[str, Any]]:
    return [{"ruleset": g.ruleset, "name": g.name, "seats": g.seats} for g in GAMES.values()]
