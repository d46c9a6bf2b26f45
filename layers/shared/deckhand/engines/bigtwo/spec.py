"""Big Two's spec: what the platform needs to run ``bigtwo-2017`` events (RULES.md §2)."""

from __future__ import annotations

from typing import Any

from ..common.game_spec import PLAY_OR_PASS, game_spec
from ..spec import ActionRule, BeatenCount, Deck, ShowcaseScore, StandingsRule, TieBreak
from . import HAND_SIZE
from .board import BigTwoBoard, SeatView
from .bot import BigTwoBot


def _showcase(boards: int, seed: str, out: Any) -> list[tuple[ShowcaseScore, ...]]:
    from .showcase import run_demo

    return run_demo(boards=boards, seed=seed, out=out)


SPEC = game_spec(
    __package__,
    board=BigTwoBoard,
    bot=BigTwoBot,
    view=SeatView.from_dict,
    referee="BigTwoReferee",
    name="Big Two",
    alias="bigtwo",
    plays_with=Deck(decks=1, jokers=False, hand_size=HAND_SIZE),
    new_board=BigTwoBoard.from_order,
    actions=(
        *PLAY_OR_PASS,
        ActionRule("show", values=(0, 1), values_text="0 or 1", help="show your hand or not"),
        ActionRule("double", values=(0, 1), values_text="0 or 1", help="double or not"),
    ),
    standings=StandingsRule(
        chain=(
            TieBreak.BEATEN_OPPONENTS,
            TieBreak.ROUND_PLACES,
            TieBreak.PLAY_TIME,
            TieBreak.TRIMMED_PLAY_TIME,
        ),
        beaten=BeatenCount.BY_TABLE,
    ),
    showcase=_showcase,
)
