"""Guandan's spec: what the platform needs to run ``guandan-2023`` matches (RULES.md §4)."""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any

from ..common.game_spec import game_spec
from ..contract import Action
from ..spec import ActionRule, Competition, Deck, lazily
from . import HAND_SIZE
from .board import SIDES, GuandanBoard, SeatView
from .bot import GuandanBot
from .levels import EndMode, Options


def _clock(options: Any) -> int | None:
    """The platform's clock runs only in the end modes by time (RULES.md §4 "Game end")."""
    assert isinstance(options, Options)
    return options.minutes if options.end_mode in (EndMode.TIME, EndMode.TIME_OR_BOARDS) else None


def _forfeit(options: Any) -> tuple[int, int]:
    """The level table's forfeit points (RULES.md §4.1: 18:0 unless the event's table says otherwise)."""
    assert isinstance(options, Options)
    return options.table.forfeit


def _decision(action: Action) -> Hashable:
    """The cards and, for a play, the reading declared (two readings of the same cards differ)."""
    data = None if action.data is None else json.dumps(action.data, sort_keys=True)
    return (action.seat, action.kind, tuple(sorted(action.cards)), action.value, data)


SPEC = game_spec(
    __package__,
    board=GuandanBoard,
    bot=GuandanBot,
    view=SeatView.from_dict,
    referee="GuandanReferee",
    name="Guandan",
    alias="guandan",
    plays_with=Deck(decks=2, jokers=True, hand_size=HAND_SIZE),
    new_board=GuandanBoard.from_deal,
    offer=lazily(__package__, ".screen", "offer"),
    actions=(
        ActionRule("play", cards=True, data=True, help="play these cards (with the reading, when several)"),
        ActionRule("pass", help="pass"),
        ActionRule("tribute", cards=True, help="pay the tribute card"),
        ActionRule("return", cards=True, help="return a card for the tribute"),
        ActionRule("lead", values=(0, 1, 2, 3), values_text="a seat 0–3", help="choose who leads"),
    ),
    competition=Competition.MATCH,
    sides=tuple(tuple(side) for side in SIDES),
    carries=True,
    options=Options.from_dict,
    decision_key=_decision,
    match_clock=_clock,
    time_up="time_up",
    forfeit_points=_forfeit,
    no_draws=lambda options: {**options, "draws": False},  # RULES.md §4.3: an extra board decides
    decider=lambda options: {**options, "end_mode": "boards", "boards": 1, "draws": False},
    short_match=lambda boards, minutes: {"end_mode": "time_or_boards", "boards": boards, "minutes": minutes},
)
