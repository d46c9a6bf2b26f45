"""Shengji's specs: ``shengji-yaoji2010`` (003) and ``shengji-common`` (004), one engine (RULES.md §5)."""

from __future__ import annotations

from typing import Any

from ..common.game_spec import game_spec
from ..spec import ActionRule, Competition, Deck, GameSpec
from . import COMMON, HAND_SIZE, KITTY, YAOJI
from .board import SIDES, CommonBoard, SeatView, ShengjiBoard
from .bot import ShengjiBot
from .options import Options, Preset


def _clock(options: Any) -> int | None:
    """No new board after this many minutes (003: 50 of 60; 004: ⚖ the 90 minutes themselves)."""
    assert isinstance(options, Options)
    return options.last_board_minutes


ACTIONS = (
    ActionRule(
        "declare", cards=True, help="declare trump: a level card, a pair of them, or a pair of jokers"
    ),
    ActionRule("pass", help="declare nothing (now)"),
    ActionRule("bury", cards=True, help="bury one card in the kitty (eight in all)"),
    ActionRule("play", cards=True, help="play these cards (a lead of several components is a throw)"),
)


def _spec(board: type[ShengjiBoard], preset: Preset, name: str, alias: str) -> GameSpec:
    return game_spec(
        __package__,
        board=board,
        bot=ShengjiBot,
        view=SeatView.from_dict,
        referee="ShengjiReferee",
        name=name,
        alias=alias,
        plays_with=Deck(decks=2, jokers=True, hand_size=HAND_SIZE, kitty=KITTY),
        new_board=board.from_deal,
        new_board_in_steps=board.in_steps,
        actions=ACTIONS,
        competition=Competition.MATCH,
        sides=tuple(tuple(side) for side in SIDES),
        carries=True,
        options=lambda data: Options.from_dict(data, preset),
        match_clock=_clock,
        time_up="time_up",
        forfeit_points=lambda options: (13, -13),  # docs/competition.md ⚖ Shengji: +13:−13
        no_draws=lambda options: {**options, "draws": False},
        # §5 ends a game by level or time, never by a count of boards: a short match is a short clock.
        short_match=lambda boards, minutes: {"minutes": minutes, "last_board_minutes": minutes},
    )


SPEC = _spec(ShengjiBoard, Preset.YAOJI2010, "Shengji (Yaoji 2010)", "shengji")
COMMON_SPEC = _spec(CommonBoard, Preset.COMMON, "Shengji (common rules)", "shengji-common")
SPECS = {YAOJI: SPEC, COMMON: COMMON_SPEC}
