"""Whole boards played by the AI seats, for the screen tests: every game's boards (a game that carries
plays a few boards in a row, so the end of a game, the tribute and the level changes come up), and at
every step each seat's board, drawn by the tests in each language."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from deckhand.engines.common.cards import make_deck
from deckhand.engines.common.shuffle import seeded_shuffle
from deckhand.engines.contract import Action, Board
from deckhand.engines.registry import RULESETS, game

SEEDS = ("screens-1", "screens-2", "screens-3")
BOARDS_IN_A_ROW = 3  # a carrying game's boards played one after another from one seed


def played(ruleset: str) -> Iterator[tuple[Board, Action | None]]:
    """Each step of every board: the board, and the action its next seat takes (None at the end). The
    board changes after it is yielded: the consumer draws it before asking for the next step."""
    spec = game(ruleset)
    for seed in SEEDS:
        carry: dict[str, Any] | None = None
        for number in range(BOARDS_IN_A_ROW if spec.carries else 1):
            deck = make_deck(decks=spec.decks, jokers=spec.jokers)
            order = seeded_shuffle(deck, f"{seed}-{number}") * spec.deals_per_board
            board = spec.new_board(order, carry)
            bot = spec.bot()
            while not board.finished:
                seat = board.pending()[0]
                action = bot(board, seat)
                assert action is not None
                yield board, action
                board.apply(action)
            yield board, None
            carry = board.result().get("carry")
            if carry is None or carry.get("game"):
                break  # a game over: the next board would start another


__all__ = ["RULESETS", "played"]
