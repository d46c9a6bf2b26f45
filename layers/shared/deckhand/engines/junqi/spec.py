"""Junqi's spec: what the platform needs to run ``junqi-2004`` games (RULES.md §6.3)."""

from __future__ import annotations

from ..common.game_spec import game_spec
from ..spec import ActionRule, Competition, FirstMove, Position, lazily
from .board import JunqiBoard, SeatView, decision_key
from .bot import JunqiBot
from .geometry import NAMES, SIDES
from .options import Options

SPEC = game_spec(
    __package__,
    board=JunqiBoard,
    bot=JunqiBot,
    view=SeatView.from_dict,
    referee="JunqiReferee",
    layout=lazily(__package__, ".layout", "board_layout"),
    name="Junqi",
    alias="junqi",
    # RULES.md §6.5; the seed draws a timed-out setup, a player's last setup is offered again.
    plays_with=Position(
        "",
        NAMES,
        (SIDES[0], SIDES[1]),
        first_move=FirstMove.DRAW,
        seeded=True,
        keeps=True,
        hidden=True,
        record=lazily(__package__, ".record", "record"),
    ),
    new_board=JunqiBoard.from_order,
    actions=(
        ActionRule("setup", data=True, help="set up the 25 pieces: {square: piece} on your half"),
        ActionRule("move", data=True, help="move a piece: from a square to a square (a6 a7)"),
    ),
    competition=Competition.HEAD_TO_HEAD,
    options=Options.from_dict,
    decision_key=decision_key,
)
