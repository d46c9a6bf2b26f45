"""Whole boards played by the AI seats, for the screen tests: every game's boards (a game that carries
plays a few boards in a row, so the end of a game, the tribute and the level changes come up), and at
every step each seat's board, drawn by the tests in each language."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from deckhand.engines.common.cards import make_deck
from deckhand.engines.common.shuffle import seeded_shuffle
from deckhand.engines.contract import Action, Board, Rejected
from deckhand.engines.registry import DEALT_RULESETS as RULESETS
from deckhand.engines.registry import game

SEEDS = ("screens-1", "screens-2", "screens-3")
BOARDS_IN_A_ROW = 3  # a carrying game's boards played one after another from one seed
# A referee's calls on the way (seed, board, step → kind, to seat step mod seats), so that penalties, a
# lost turn, a foul and the lead choice after it, and a game forfeited are drawn too; a game whose
# rules have no such call refuses it and plays on.
REFEREE = {
    ("screens-2", 0, 6): "warning",
    ("screens-2", 0, 13): "violation",
    ("screens-2", 0, 40): "foul",
    ("screens-3", 1, 30): "violation",
    ("screens-3", 1, 45): "forfeit",
}


def played(ruleset: str) -> Iterator[tuple[Board, Action | None]]:
    """Each step of every board: the board, and the action its next seat takes (None at the end, and
    after a referee's call). The board changes after it is yielded: the consumer draws it before asking
    for the next step."""
    spec = game(ruleset)
    for seed in SEEDS:
        carry: dict[str, Any] | None = None
        for number in range(BOARDS_IN_A_ROW if spec.carries else 1):
            deck = make_deck(decks=spec.decks, jokers=spec.jokers)
            order = seeded_shuffle(deck, f"{seed}-{number}") * spec.deals_per_board
            board = spec.new_board(order, carry)
            bot = spec.bot()
            step = 0
            while not board.finished:
                step += 1
                call = REFEREE.get((seed, number, step))
                if call is not None:
                    with contextlib.suppress(Rejected):
                        board.apply(Action(step % spec.seats, call))
                        yield board, None
                    if board.finished:
                        break
                seat = board.pending()[0]
                action = bot(board, seat)
                assert action is not None
                yield board, action
                board.apply(action)
            yield board, None
            result = board.result()
            carry = result.get("carry")
            if carry is None or carry.get("game") or result.get("game"):
                break  # a game over: the next board would start another


__all__ = ["RULESETS", "played"]
