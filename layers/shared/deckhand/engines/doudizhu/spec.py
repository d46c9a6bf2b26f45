"""Dou Dizhu's spec: what the platform needs to run ``doudizhu-2016`` events (RULES.md §3)."""

from __future__ import annotations

from collections.abc import Hashable

from ..common.cards import rank_of
from ..common.game_spec import PLAY_OR_PASS, game_spec
from ..contract import Action
from ..spec import ActionRule, BeatenCount, Deck, StandingsRule, TieBreak
from . import DEALS_PER_BOARD, HAND_SIZE
from .board import DouDizhuBoard, SeatView
from .bot import DouDizhuBot


def _decision(action: Action) -> Hashable:
    """Suits never matter in Dou Dizhu: a play is its ranks (RULES.md §3)."""
    return (action.seat, action.kind, tuple(sorted(rank_of(c) for c in action.cards)), action.value)


SPEC = game_spec(
    __package__,
    board=DouDizhuBoard,
    bot=DouDizhuBot,
    view=SeatView.from_dict,
    referee="DouDizhuReferee",
    name="Dou Dizhu",
    alias="doudizhu",
    plays_with=Deck(decks=1, jokers=True, hand_size=HAND_SIZE, kitty=3, deals_per_board=DEALS_PER_BOARD),
    new_board=DouDizhuBoard.from_order,
    actions=(
        *PLAY_OR_PASS,
        ActionRule(
            "bid",
            values=(0, 1, 2, 3),
            values_text="a bid 1, 2 or 3, or 0 to pass",
            help="bid 1, 2 or 3, or pass",
        ),
        ActionRule("double", values=(0, 1), values_text="0 or 1", help="double, or redouble as the landlord"),
    ),
    standings=StandingsRule(
        chain=(
            TieBreak.PLAY_TIME,
            TieBreak.TRIMMED_PLAY_TIME,
            TieBreak.BEATEN_OPPONENTS,
            TieBreak.BOARD_PLACES,
        ),
        beaten=BeatenCount.BY_BOARD,
    ),
    decision_key=_decision,
)
