"""Boards that carry: a table's next board is made when it starts, from the outcome of the one before.

Whichever registered game carries (levels, dealer, tribute) is used; its boards are played here by
its bot at a table of AI seats, through the same table-board code a venue runs.
"""

from __future__ import annotations

from typing import Any

import pytest
from backend import Backend, create_table
from deckhand.engines.common.cards import make_deck
from deckhand.engines.common.shuffle import seeded_shuffle
from deckhand.engines.contract import outcome_of
from deckhand.engines.registry import RULESETS, game
from deckhand.service.boards import log as board_log
from deckhand.service.boards import progress as board_progress
from deckhand.service.boards import store as board_store
from deckhand.service.storage.keys import board_pk, deal_sk, event_pk
from deckhand.service.storage.models import BoardStateItem, DealItem
from moto import mock_aws

CARRYING = [r for r in RULESETS if game(r).carries]
BOARDS = ["1", "2", "3"]


class TableOnly(Backend):
    """Scoring belongs to the event (not set up here): its invocations are recorded, not run."""

    def invoke(self, name: str, payload: dict[str, Any]) -> None:
        self.invocations.append((name, payload))


@pytest.fixture
def backend():
    with mock_aws():
        create_table()
        yield TableOnly()


def seed_table(ruleset: str) -> dict[str, list[int]]:
    """A round of three boards at one table of AI seats, stored as the deal handler stores them."""
    g = game(ruleset)
    deck = make_deck(decks=g.decks, jokers=g.jokers)
    orders = {}
    for position, b in enumerate(BOARDS):
        order = seeded_shuffle(deck, f"carry/{b}") * g.deals_per_board
        orders[b] = order
        DealItem(event_pk("e"), deal_sk(1, 1, b), order=order).save()
        BoardStateItem(
            board_pk("e", 1, "T1", b),
            "STATE",
            event_id="e",
            round=1,
            group="1",
            table="T1",
            board=b,
            position=position,
            ruleset=ruleset,
            players=[""] * g.seats,
            devices=[""] * g.seats,
            next_board=BOARDS[position + 1] if position + 1 < len(BOARDS) else "",
            previous_board=BOARDS[position - 1] if position else "",
            status="waiting",
            state="" if position else (g.new_board_in_steps or g.new_board)(order, None).to_json(),
            log=[],
            asked_at=[0] * g.seats,
            play_ms=[0] * g.seats,
        ).save()
    return orders


@pytest.mark.parametrize("ruleset", CARRYING)
def test_each_board_starts_from_the_outcome_of_the_one_before(backend: Backend, ruleset: str) -> None:
    g = game(ruleset)
    orders = seed_table(ruleset)
    before_start = board_store.load("e", 1, "T1", "2")
    assert before_start is not None and before_start.state == ""  # not made before its turn
    board_progress.start_board(backend.rt, "e", 1, "T1", "1")  # AI seats play it out; the next boards follow
    previous_carry = None
    for b in BOARDS:
        item = board_store.load("e", 1, "T1", b)
        assert item is not None and item.status == "ended", b
        assert item.carry == previous_carry
        # The stored board is exactly its deal, its carry and its log (the audit's replay).
        assert board_log.replay(item, orders[b]).to_json() == item.state
        outcome = outcome_of(board_store.result_of(item))
        assert outcome.sides == g.sides and outcome.carry is not None
        previous_carry = outcome.carry
    assert [name for name, _ in backend.invocations].count("score") == len(BOARDS)


@pytest.mark.parametrize("ruleset", CARRYING)
def test_a_board_does_not_start_before_the_one_it_carries_from_has_ended(
    backend: Backend, ruleset: str
) -> None:
    seed_table(ruleset)
    with pytest.raises(RuntimeError, match="before board 1 ended"):
        board_progress.start_board(backend.rt, "e", 1, "T1", "2")
    item = board_store.load("e", 1, "T1", "2")
    assert item is not None and item.status == "waiting" and item.state == ""


def test_every_registered_game_that_carries_is_tested() -> None:
    assert CARRYING, "no registered game carries: the carry path has nothing to run"
