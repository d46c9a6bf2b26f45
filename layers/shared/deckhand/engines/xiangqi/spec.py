"""Xiangqi's spec: what the platform needs to run ``xiangqi-2004`` games (RULES.md §6.1)."""

from __future__ import annotations

import json
from collections.abc import Hashable

from ..common.game_spec import RESIGN_OR_DRAW, game_spec
from ..contract import Action
from ..spec import ActionRule, Competition, FirstMove, Position, lazily
from .board import SIDES, Options, SeatView, XiangqiBoard, game_options
from .bot import XiangqiBot
from .position import START, square_name
from .tables import POINTS


def _decision(action: Action) -> Hashable:
    """A move is its from and to points; every other action is its kind."""
    data = None if action.data is None else json.dumps(action.data, sort_keys=True)
    return (action.seat, action.kind, action.value, data)


SPEC = game_spec(
    __package__,
    board=XiangqiBoard,
    bot=XiangqiBot,
    view=SeatView.from_dict,
    referee="XiangqiReferee",
    layout=lazily(__package__, ".layout", "board_layout"),
    name="Xiangqi",
    alias="xiangqi",
    plays_with=Position(
        START,
        tuple(square_name(sq) for sq in range(POINTS)),
        SIDES,
        first_move=FirstMove.DRAW_THEN_TOSS,
        game_options=game_options,
        record=lazily(__package__, ".record", "record"),
    ),
    new_board=XiangqiBoard.from_order,
    actions=(
        ActionRule("move", data=True, help="move a piece: from a point to a point (h2 e2)"),
        *RESIGN_OR_DRAW,
    ),
    competition=Competition.HEAD_TO_HEAD,
    options=Options.from_dict,
    decision_key=_decision,
    demo_electronic_boards=1,  # the demo shows one: the players at its table move on it
)
