"""``deckhand demo --electronic-boards N``: refused, before anything starts, for a game an electronic
board cannot serve (cards; a board game whose seats see different boards) and for more boards than
tables."""

from __future__ import annotations

import io

import pytest
from deckhand.engines.registry import ENTRIES, game
from deckhand.errors import DeckhandError
from deckhand_local.venue.demo_event import DemoEvent


def _served(ruleset: str) -> bool:
    position = game(ruleset).position
    return position is not None and not position.hidden


@pytest.mark.parametrize("ruleset", [e.ruleset for e in ENTRIES if not _served(e.ruleset)])
def test_a_game_without_one_board_for_every_seat_has_no_electronic_board(tmp_path, ruleset):
    with pytest.raises(DeckhandError, match="no electronic board"):
        DemoEvent(seed="s", out=tmp_path, ruleset=ruleset, electronic_boards=1, log=io.StringIO())


@pytest.mark.parametrize("ruleset", [e.ruleset for e in ENTRIES if _served(e.ruleset)])
def test_no_more_electronic_boards_than_tables(tmp_path, ruleset):
    with pytest.raises(DeckhandError, match="3 electronic boards for 2 tables"):
        DemoEvent(seed="s", out=tmp_path, ruleset=ruleset, players=4, electronic_boards=3, log=io.StringIO())


def test_the_demos_electronic_boards_are_for_games_they_can_serve():
    """The spec's own default never asks for a board the demo would refuse."""
    assert all(_served(e.ruleset) for e in ENTRIES if game(e.ruleset).demo_electronic_boards)
    assert any(game(e.ruleset).demo_electronic_boards for e in ENTRIES)
