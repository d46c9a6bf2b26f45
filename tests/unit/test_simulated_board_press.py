"""A simulated handset's bot enters a board game's decision as a person would on the real firmware: a
move square by square through the grid's chooser (what goes up is the engine's move), a setup as one
of the setups the handset offers when the bot's own is not among them; a choice the screen names (a
card game's reading of a play) is never replaced by another."""

from __future__ import annotations

from typing import Any

import pytest
from deckhand.engines.contract import Action
from deckhand.engines.registry import ENTRIES, game
from deckhand.service.infra import outgoing
from deckhand_local.venue.simulated import _offered_instead, firmware_on_path, press

BOARD_GAMES = [e.ruleset for e in ENTRIES if not e.dealt]
PLIES = 4


class Sent:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.messages.append(message)


class Ids:
    n = 0

    def next(self) -> str:
        self.n += 1
        return f"hs-{self.n}"


def handset_showing(ruleset: str, board: Any, seat: int, version: int) -> tuple[Any, Sent]:
    firmware_on_path()
    from deckhand_fw.hal.host import HostHal
    from deckhand_fw.handset import Handset

    message = outgoing.view(
        ruleset=ruleset,
        board="1",
        round_no=1,
        version=version,
        seat=seat,
        status="playing",
        left_ms=60_000,
        screen=game(ruleset).screen(board, seat, "en"),  # type: ignore[misc]
    )
    handset, sent = Handset(HostHal(), Ids()), Sent()
    handset.attach(sent)
    handset.on_message(message)
    return handset, sent


@pytest.mark.parametrize("ruleset", BOARD_GAMES)
def test_the_bots_decisions_go_up_through_the_firmwares_chooser(ruleset: str) -> None:
    spec = game(ruleset)
    board = spec.new_board([], None)
    bot = spec.bot()
    moves = 0
    for version in range(1, PLIES + 1):
        seat = board.pending()[0]
        action = bot(board, seat)
        handset, sent = handset_showing(ruleset, board, seat, version)
        assert press(handset, action) and len(sent.messages) == 1
        up = sent.messages[0]["a"]
        if action.kind == "move":
            assert up == {"k": "move", "d": action.data}  # the squares' names, as the engine's move
            moves += 1
        else:  # the bot's own setup is not offered: the handset's first offered one goes up
            assert up == {"k": action.kind, "d": handset.options()[0]["a"]["d"]}
        board.apply(Action(seat, up["k"], data=up["d"]))
    assert moves > 0


def test_a_choice_the_screen_names_is_never_replaced_by_another() -> None:
    reading = {"type": "straight", "as": ["H7", "H8", "S9", "ST", "SJ"]}
    options = [{"l": "straight 7–J", "a": {"k": "play", "c": True, "d": reading}}]
    other = Action(0, "play", data={"type": "pair", "as": ["H7", "S7"]})
    assert _offered_instead(options, other) is None
    assert _offered_instead(options, Action(0, "play")) is None
    named = [{"l": "Random setup", "a": {"k": "setup", "d": {"offered": 2}}}]
    assert _offered_instead(named, Action(0, "setup", data={"a1": "flag"})) == 0
    assert _offered_instead(named, Action(0, "move", data={"a1": "flag"})) is None
