"""Gomoku's spec: what the platform needs to run ``gomoku-renju`` games (RULES.md §6.2)."""

from __future__ import annotations

from ..common.game_spec import RESIGN_OR_DRAW, game_spec
from ..spec import ActionRule, Competition, Position, lazily
from .board import COLOURS, GomokuBoard, SeatView, decision_key
from .bot import GomokuBot
from .options import Options
from .stones import POINTS, SIZE, name

EMPTY_BOARD = "/".join("." * SIZE for _ in range(SIZE))  # the referee's rows, row 15 first, joined

SPEC = game_spec(
    __package__,
    board=GomokuBoard,
    bot=GomokuBot,
    view=SeatView.from_dict,
    referee="GomokuReferee",
    layout=lazily(__package__, ".layout", "board_layout"),
    name="Gomoku",
    alias="gomoku",
    plays_with=Position(
        EMPTY_BOARD,
        tuple(name(i) for i in POINTS),
        (COLOURS[0], COLOURS[1]),
        ("point",),
        record=lazily(__package__, ".record", "record"),
    ),
    new_board=GomokuBoard.from_order,
    actions=(
        ActionRule("move", data=True, help="place a stone on a point (H8)"),
        ActionRule("claim", help="White: point out Black's last stone as forbidden"),
        *RESIGN_OR_DRAW,
    ),
    competition=Competition.HEAD_TO_HEAD,
    options=Options.from_dict,
    decision_key=decision_key,
)
