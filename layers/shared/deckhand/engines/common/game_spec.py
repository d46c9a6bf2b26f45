"""The set-up every game's spec repeats, written once: a game's package keeps its board, bot, referee
and screen under the same names, so its spec names only what is its own (deck, actions, standings…)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..contract import Board
from ..spec import ActionRule, GameSpec, board_bot, lazily, view_bot

# A climbing game's play and pass, as a handset offers them (a game that takes more with a play says so).
PLAY_OR_PASS = (ActionRule("play", cards=True, help="play these cards"), ActionRule("pass", help="pass"))
# A board game's words besides its moves: resign, offer a draw, accept the draw the other side offered.
RESIGN_OR_DRAW = (
    ActionRule("resign", help="resign the game"),
    ActionRule("offer", help="offer a draw"),
    ActionRule("accept", help="accept the draw offered"),
)


class SpecBoard(Protocol):
    """What a spec reads from a game's board class: its rule set, its table and its loader."""

    ruleset: str
    seats: int

    @classmethod
    def from_json(cls, text: str) -> Board: ...


def game_spec(
    package: str | None,
    *,
    board: type[SpecBoard],
    bot: Callable[[str], Any],
    view: Callable[[dict[str, Any]], Any],
    referee: str,
    **rules: Any,
) -> GameSpec:
    """The spec of ``board``'s rule set: loaded by the board, played by ``bot`` (on a board's seat view
    or on a device's view read by ``view``), the referee's calculator class ``referee`` and ``screen``
    imported from the game's own modules on first use; ``rules`` are the rest of ``GameSpec``."""
    return GameSpec(
        ruleset=board.ruleset,
        seats=board.seats,
        load_board=board.from_json,
        bot=board_bot(bot),
        view_bot=view_bot(bot, view),
        referee=lazily(package, ".referee", referee),
        screen=lazily(package, ".screen", "screen"),
        **rules,
    )
