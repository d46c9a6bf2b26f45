"""The registry of game engines: lifecycle code asks here and never names a game.

A new game plugs in by adding one ``Game`` entry: its rule set, seats, deck and how to make a board
and a bot. Dealing, play, scoring and pairing then work for it unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .bigtwo import RULESET as BIGTWO
from .bigtwo.board import BigTwoBoard
from .bigtwo.bot import BigTwoBot
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


def _bigtwo_bot() -> Callable[[Board, int], Action | None]:
    bot = BigTwoBot("steady")

    def decide(board: Board, seat: int) -> Action | None:
        assert isinstance(board, BigTwoBoard)
        return bot.decide(board.seat_view(seat))

    return decide


GAMES: dict[str, Game] = {
    BIGTWO: Game(
        ruleset=BIGTWO,
        name="Big Two",
        seats=4,
        decks=1,
        jokers=False,
        new_board=BigTwoBoard.from_order,
        load_board=BigTwoBoard.from_json,
        bot=_bigtwo_bot,
        decision_ms=10_000,
    ),
}


def game(ruleset: str) -> Game:
    try:
        return GAMES[ruleset]
    except KeyError:
        raise DeckhandError(f"unknown rule set {ruleset!r}; available: {', '.join(sorted(GAMES))}") from None


def describe() -> list[dict[str, Any]]:
    return [{"ruleset": g.ruleset, "name": g.name, "seats": g.seats} for g in GAMES.values()]
