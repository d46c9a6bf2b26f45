"""What a game tells the rest of the system: one ``GameSpec`` per rule set, exported by its engine.

Dealing, device messages, the API, the CLI, standings and the venue read everything game-specific
from here (seat counts, the deck, the actions and their values, timing, tie-breaks, the referee's
calculator, bots), so none of them names a game and a new game plugs in by adding its folder.
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .contract import Action, Board, Lang


class Competition(enum.Enum):
    """How the game's events are run: a duplicate field of individuals, or matches between sides."""

    DUPLICATE = "duplicate"  # the same boards at every table, matchpoints (RULES.md §1)
    MATCH = "match"  # a game of many boards at one table, levels carried (RULES.md §4.3)
    HEAD_TO_HEAD = "head_to_head"  # two players, a match of games scored 1 / ½ / 0 (RULES.md §6.5)


class BeatenCount(enum.Enum):
    """How the "beaten opponents" tie-break counts (RULES.md §1.3)."""

    BY_TABLE = "table"  # opponents beaten on round totals at the same table
    BY_BOARD = "board"  # opponents beaten board by board


class TieBreak(enum.Enum):
    """Steps of a duplicate event's tie-break chain, by the names the standings print."""

    BEATEN_OPPONENTS = "beaten_opponents"
    ROUND_PLACES = "round_places"
    BOARD_PLACES = "board_places"
    PLAY_TIME = "play_time"
    TRIMMED_PLAY_TIME = "trimmed_play_time"


ShowcaseScore = tuple[str, str, int, int]  # a showcase board's result: player, table, seat, game score


@dataclass(frozen=True)
class StandingsRule:
    """How a duplicate field of this game is ranked after the totals."""

    chain: tuple[TieBreak, ...]
    beaten: BeatenCount = BeatenCount.BY_BOARD


@dataclass(frozen=True)
class ActionRule:
    """One kind of action a seat may send: whether it carries cards, and the values it may carry."""

    kind: str
    cards: bool = False
    values: tuple[int, ...] = ()  # allowed values of ``v``; empty when the action carries none
    values_text: str = ""  # how a person reads the allowed values, for the error message
    data: bool = False  # may carry a declaration (a wild card's reading): the game's engine checks it
    help: str = ""  # one line for a terminal handset's help


class RuleOptions(Protocol):
    """A rule set's options an event chooses (end mode, return rule, …): typed, with the rules'
    defaults, read from and written to JSON (unknown keys and bad values are errors)."""

    def to_dict(self) -> dict[str, Any]: ...


class Referee(Protocol):
    """``deckhand rules --game …``: named operations over one JSON request each."""

    def ops(self) -> Mapping[str, Callable[[dict[str, Any]], dict[str, Any]]]: ...


BoardBot = Callable[[Board, int], Action | None]
ViewBot = Callable[[dict[str, Any]], Action | None]


@dataclass(frozen=True)
class Deck:
    """What a card game is played with: cards shuffled and dealt, one to each seat in turn.

    A board's card order is its ``deals_per_board`` shuffles one after another (redeals when all
    pass), each of ``decks`` decks (with the two jokers or not), dealt ``hand_size`` cards a seat, the
    last ``kitty`` cards to the kitty. Dealing, commitments, dealing tables and hand records read it."""

    decks: int
    jokers: bool
    hand_size: int
    kitty: int = 0
    deals_per_board: int = 1

    @property
    def size(self) -> int:
        """The cards of one deal."""
        return (54 if self.jokers else 52) * self.decks


class FirstMove(enum.Enum):
    """Who moves first in each game of a match (RULES.md §6.5): seat 0 of a game is the side that
    moves first; the service draws the lots from the round's committed secret."""

    DRAW_THEN_TOSS = "draw_then_toss"  # game 1 the lower draw number, game 2 swapped, game 3 a coin toss
    DRAW = "draw"  # game 1 the lower draw number, then the colours alternate
    LOT = "lot"  # game 1 by lot (猜先), then the colours alternate


GameOptions = Callable[[dict[str, Any] | None, int], dict[str, Any] | None]
# A finished game's record (engines/common/game_record.py): from the carry it started from, its play
# record's steps, the players seat by seat and the tags a text record names (Event, Round…).
GameRecord = Callable[
    [dict[str, Any] | None, Sequence[Mapping[str, Any]], Sequence[str], Mapping[str, str]], dict[str, Any]
]


@dataclass(frozen=True)
class Position:
    """What a board game is played with: a board of pieces from a start position, nothing dealt.

    Two seats, one a side (seat i plays ``sides[i]``, seat 0 moves first); an action is a move with
    data (``move_data``'s keys, each a square: ``{"from": square, "to": square}`` moves a piece,
    ``{"point": square}`` places a stone) or a word (resign, offer or accept a draw…); a game ends
    1 / ½ / 0 (the result's ``points``). ``new_board`` takes no card order (an empty one)."""

    start: str  # the start position in the game's own notation (a FEN; the empty board)
    squares: tuple[str, ...]  # every point of the board by the name moves use
    sides: tuple[str, str]  # the sides' names, seat by seat
    move_data: tuple[str, ...] = ("from", "to")  # the keys of a move's data, each a square
    first_move: FirstMove = FirstMove.LOT  # who moves first in each game of a match
    # The options of game n (1, 2, …) of a match from the event's options, where the rules make the games
    # differ (Xiangqi: games 1–2 slow, later games rapid); None: every game is played with the event's.
    game_options: GameOptions | None = None
    # The carry takes the game's ``seed`` (derived from the round's secret and the game: a timed-out
    # seat's random choice is then checkable), and ``last``: each seat's player's kept choice, which
    # the result's ``keep`` gives seat by seat (a Junqi setup, reused across games).
    seeded: bool = False
    keeps: bool = False
    # Some pieces are hidden from a side (the seats see different boards): no device at the table may be
    # told the position, so an electronic board cannot be used (service/device_io/eboard_reports.py).
    hidden: bool = False
    record: GameRecord | None = None  # the results' record of a finished game (moves, pictures, text)


@dataclass(frozen=True)
class GameSpec:
    """Everything the platform needs to know about one rule set; engines export one each."""

    ruleset: str
    name: str  # for people: "Big Two"
    alias: str  # for the command line: "bigtwo"
    seats: int
    plays_with: Deck | Position  # a deck dealt to the seats, or a board of pieces
    # From a shuffled card order (all of the board's deals; empty for a board game) and the carry of
    # the board before (or None).
    new_board: Callable[[Sequence[int], dict[str, Any] | None], Board]
    load_board: Callable[[str], Board]  # from state JSON
    bot: Callable[[], BoardBot]  # the AI seats' decider
    view_bot: Callable[[str], ViewBot]  # a simulated handset's decider, by style, from a device view
    referee: Callable[[], Referee]
    actions: tuple[ActionRule, ...]
    competition: Competition = Competition.DUPLICATE
    standings: StandingsRule | None = None  # a duplicate field's tie-break chain (duplicate games)
    sides: tuple[tuple[int, ...], ...] = ()  # partnerships; empty when everyone plays for themselves
    carries: bool = False  # a board starts from the previous board's outcome (levels, dealer, tribute)
    # The rule set's options (typed, with the rules' defaults) from an event's JSON; None when it has none.
    options: Callable[[dict[str, Any] | None], RuleOptions] | None = None
    # ``deckhand engine-demo``: boards, seed, out → each board's scores (player, table, seat, game score);
    # the caller ranks them (engines know no standings).
    showcase: Callable[[int, str, Any], list[tuple[ShowcaseScore, ...]]] | None = None
    # How a seat's handset screen is drawn (device protocol v2): board, seat, language (common/words.py's
    # ``Lang``, English when not given) → hand in display order, status lines and the ask (a prompt with
    # options, each an action), the words in that language; a board game's ``legend``, the index of the
    # line that explains the grid's letters, which a page drawing the board from its layout leaves out.
    # The firmware knows no game.
    screen: Callable[[Board, int, Lang], dict[str, Any]] | None = None
    # A board game's layout for the browser (common/layout.py; docs/protocol.md, "Board layouts"): board,
    # seat, language and the grid its screen drew → the lines, marks and piece names a page that knows no
    # game draws the board with; sent to clients only (never to a handset). None: a game without a grid.
    layout: Callable[[Board, int, Lang, dict[str, Any]], dict[str, Any]] | None = None
    # A refused action that needs a choice the player did not make (a play with several readings): the
    # ask that resolves it (board, action, reason code, language → an ask, or None), sent with the refusal.
    offer: Callable[[Board, Action, str, Lang], dict[str, Any] | None] | None = None
    # Two actions the rules treat as one decision have the same key (Dou Dizhu: suits never matter), so
    # "generated ⇔ accepted" compares decisions, not the particular cards a generator picked.
    decision_key: Callable[[Action], Hashable] = lambda a: (a.seat, a.kind, tuple(sorted(a.cards)), a.value)
    # Match games with a clock (an end mode by time): the minutes after a match's start when no new board
    # may begin under these options (None: no clock), and the action kind the platform applies to the
    # board in play then (it finishes that board and deals no other).
    match_clock: Callable[[Any], int | None] | None = None
    time_up: str = ""
    # A forfeited game's level points under these options (winner, loser): a bye, and a disqualified
    # pair's later games of a best of three, score so.
    forfeit_points: Callable[[Any], tuple[int, int]] | None = None
    # The options as JSON with drawn games ruled out (a knockout: a game level at its end plays on).
    no_draws: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    # The options as JSON for one extra board that decides a knockout match level on summed level
    # points (RULES.md §4.3 Draws): a game of one board, played on until a side wins it.
    decider: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    # Games whose seats act during the deal (contract.DealtInSteps): a board from its deal and carry with
    # no card given out yet; the platform gives them out with ``deal_step``. None: dealt all at once.
    new_board_in_steps: Callable[[Sequence[int], dict[str, Any] | None], Board] | None = None
    # Match games: the options of a short match (the local venue's demo) ended by ``boards`` boards or
    # ``minutes`` minutes, whichever first, as far as the rules have such ends (boards, minutes → JSON).
    short_match: Callable[[int, int], dict[str, Any]] | None = None
    # Board games: the electronic boards the local venue's demo registers at its first tables unless told
    # otherwise (a game whose seats see one board: never with ``Position.hidden``).
    demo_electronic_boards: int = 0
    action_index: dict[str, ActionRule] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "action_index", {a.kind: a for a in self.actions})

    @property
    def match_sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side of a match: the partnerships, or a seat a side (a board game)."""
        return self.sides or tuple((seat,) for seat in range(self.seats))

    @property
    def deck(self) -> Deck | None:
        """The deck a card game deals; None for a board game."""
        return self.plays_with if isinstance(self.plays_with, Deck) else None

    @property
    def position(self) -> Position | None:
        """The board and start position of a board game; None for a card game."""
        return self.plays_with if isinstance(self.plays_with, Position) else None

    # The deal, as the platform reads it: nothing to deal in a board game (no cards, no deals).
    @property
    def decks(self) -> int:
        return self.deck.decks if self.deck else 0

    @property
    def jokers(self) -> bool:
        return self.deck.jokers if self.deck else False

    @property
    def hand_size(self) -> int:
        return self.deck.hand_size if self.deck else 0

    @property
    def kitty(self) -> int:
        return self.deck.kitty if self.deck else 0

    @property
    def deals_per_board(self) -> int:
        """Pre-generated deals a board carries (redeals when all pass)."""
        return self.deck.deals_per_board if self.deck else 0

    @property
    def deal_size(self) -> int:
        return self.deck.size if self.deck else 0

    def action(self, kind: str) -> ActionRule | None:
        return self.action_index.get(kind)


def board_bot(make: Callable[[str], Any]) -> Callable[[], BoardBot]:
    """The AI seats' decider: the game's bot (steady style) on the seat's view of the board."""

    def factory() -> BoardBot:
        bot = make("steady")

        def decide(board: Board, seat: int) -> Action | None:
            result: Action | None = bot.decide(board.seat_view(seat))
            return result

        return decide

    return factory


def view_bot(
    make: Callable[[str], Any], from_dict: Callable[[dict[str, Any]], Any]
) -> Callable[[str], ViewBot]:
    """A simulated handset's decider: the game's bot on a device's view (JSON)."""

    def factory(style: str) -> ViewBot:
        bot = make(style)
        return lambda view: bot.decide(from_dict(view))

    return factory


def lazily(package: str | None, module: str, name: str) -> Callable[..., Any]:
    """``name`` from one of a game's modules (``".screen"``, ``".referee"``), imported on the first
    call: a spec loads its board and bot only, and the handler that draws screens or answers the
    referee's calculator pays for those modules alone (the registry stays lazy)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module, package), name)(*args, **kwargs)

    return call
