"""Chinese checkers' spec: what the platform needs to run ``checkers-2004`` games (RULES.md §6.4)."""

from __future__ import annotations

import json

from ..common.game_spec import RESIGN_OR_DRAW, game_spec
from ..spec import ActionRule, Competition, Position, lazily
from .board import CheckersBoard, SeatView, decision_key
from .bot import CheckersBot
from .options import Options
from .star import HOMES, NAMES, POINTS, SIDES

# The start as the calculator writes a position: each side's ten points.
START = json.dumps({side: [NAMES[p] for p in sorted(HOMES[n])] for n, side in enumerate(SIDES)})

SPEC = game_spec(
    __package__,
    board=CheckersBoard,
    bot=CheckersBot,
    view=SeatView.from_dict,
    referee="CheckersReferee",
    layout=lazily(__package__, ".layout", "board_layout"),
    name="Chinese checkers",
    alias="checkers",
    plays_with=Position(
        START,
        tuple(NAMES[p] for p in POINTS),
        (SIDES[0], SIDES[1]),
        record=lazily(__package__, ".record", "record"),
    ),
    new_board=CheckersBoard.from_order,
    actions=(
        ActionRule("move", data=True, help="move a piece: from a point to a point (r3c1 r5c1)"),
        ActionRule("pass", help="pass, when no piece can move"),
        *RESIGN_OR_DRAW,
    ),
    competition=Competition.HEAD_TO_HEAD,
    options=Options.from_dict,
    decision_key=decision_key,
)
