"""The Big Two board state machine (RULES.md §2): deal → show → double → play → end.

Every action is checked against the state and either applied whole or rejected with a reason code
and no change at all. Hands are 52-bit masks: membership and removal are single integer operations.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ...errors import DeckhandError
from ..common.board import END as END
from ..common.cards import cards_of, check_cards, check_count, format_cards, mask_of, parse_cards
from ..common.deal import deal_round_robin
from ..common.one_deck import MaskBoard
from ..common.trick import NO_SEAT, last_json, read_last, read_seat, read_trick, seat_json, trick_json
from ..common.trick import PLAY as PLAY
from ..contract import Action, Board, Rejected
from . import D3, DECISION_MS, HAND_SIZE, RULESET, SEATS
from .combos import Combo, beats, classify
from .legal import Play, legal_plays
from .scoring import penalty, scores

SHOW, DOUBLE = "show", "double"
UNDECIDED = NO_SEAT


_LAST: list[tuple[Play, Combo | None]] = [((), None)]


def classify_last(last: Play) -> Combo | None:
    """``classify`` of the play to beat, remembered for the last one asked: the bot, the view and the
    board all classify the same last play of a trick again and again."""
    seen, combo = _LAST[0]
    if last != seen:
        combo = classify(last)
        _LAST[0] = (last, combo)
    return combo


class SeatView(NamedTuple):
    """What one seat may know: its own hand, shown hands, everyone's card counts, the trick so far."""

    seat: int
    phase: str
    turn: int
    first: int
    hand: tuple[int, ...]
    counts: tuple[int, ...]
    shown: tuple[int, ...]
    doubled: tuple[int, ...]
    shown_hands: tuple[tuple[int, ...] | None, ...]
    last: Play
    last_seat: int
    opened: bool
    trick: tuple[tuple[int, Play], ...]
    winner: int

    @property
    def leading(self) -> bool:
        return not self.last

    def legal_plays(self) -> list[tuple[Play, Any]]:
        """Legal plays for this seat when it is its turn in the play phase (else none)."""
        if self.phase != PLAY or self.turn != self.seat:
            return []
        return legal_plays(
            self.hand,
            classify_last(self.last) if self.last else None,
            must_contain=None if self.opened else D3,
            highest_single_only=self.counts[(self.seat + 1) % SEATS] == 1,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "phase": self.phase,
            "turn": self.turn,
            "first": self.first,
            "hand": format_cards(self.hand),
            "counts": list(self.counts),
            "shown": [None if v == UNDECIDED else bool(v) for v in self.shown],
            "doubled": [None if v == UNDECIDED else bool(v) for v in self.doubled],
            "shown_hands": {str(s): format_cards(h) for s, h in enumerate(self.shown_hands) if h is not None},
            "last": last_json(self.last, self.last_seat),
            "trick": trick_json(self.trick),
            "one_card": [s for s, n in enumerate(self.counts) if n == 1],
            "opened": self.opened,
            "winner": seat_json(self.winner),
        }

    @classmethod
    def from_dict(cls, view: dict[str, Any]) -> SeatView:
        """Rebuild a view from its JSON form (what a device receives), e.g. for a bot on a device."""

        def cards(tokens: list[str]) -> tuple[int, ...]:
            return tuple(sorted(parse_cards(tokens)))

        flag = {None: UNDECIDED, False: 0, True: 1}
        shown_hands = view["shown_hands"]
        last, last_seat = read_last(view["last"], cards)
        return cls(
            seat=view["seat"],
            phase=view["phase"],
            turn=view["turn"],
            first=view["first"],
            hand=cards(view["hand"]),
            counts=tuple(view["counts"]),
            shown=tuple(flag[v] for v in view["shown"]),
            doubled=tuple(flag[v] for v in view["doubled"]),
            shown_hands=tuple(
                cards(shown_hands[str(s)]) if str(s) in shown_hands else None
                for s in range(len(view["counts"]))
            ),
            last=last,
            last_seat=last_seat,
            opened=view["opened"],
            trick=read_trick(view["trick"], cards),
            winner=read_seat(view["winner"]),
        )


class BigTwoBoard(MaskBoard[Combo]):
    """One board of Big Two. Construct from four 13-card hands (seat order) or with :meth:`from_order`."""

    ruleset = RULESET
    name = "Big Two"
    seats = SEATS
    decision_ms = DECISION_MS

    def __init__(self, hands: Sequence[Sequence[int]]) -> None:
        if len(hands) != SEATS:
            raise DeckhandError(f"Big Two needs {SEATS} hands, got {len(hands)}")
        for seat, hand in enumerate(hands):
            check_count(hand, HAND_SIZE, f"hand of seat {seat}")
        check_cards([c for hand in hands for c in hand], decks=1, jokers=False)
        self.dealt = [mask_of(h) for h in hands]
        self.hands = list(self.dealt)
        self.first = next(s for s in range(SEATS) if self.hands[s] >> D3 & 1)
        self.phase = SHOW
        self.shown = [UNDECIDED] * SEATS
        self.doubled = [UNDECIDED] * SEATS
        self.turn = UNDECIDED
        self._clear_trick()
        self.tricks_done = 0
        self.opened = False
        self.winner = UNDECIDED

    @classmethod
    def from_order(cls, order: Sequence[int], carry: dict[str, Any] | None = None) -> BigTwoBoard:
        """Deal a shuffled 52-card order one card at a time, seat 0 first. Boards stand alone: no carry."""
        cls._check_no_carry(carry)
        check_count(order, SEATS * HAND_SIZE, "deck")
        hands, _ = deal_round_robin(order, SEATS, HAND_SIZE)
        return cls(hands)

    # -- queries ---------------------------------------------------------------------------------

    def pending(self) -> list[int]:
        """Seats whose decision the board is waiting for now."""
        if self.phase == SHOW:
            return [s for s in range(SEATS) if self.shown[s] == UNDECIDED]
        if self.phase in (DOUBLE, PLAY):
            return [self.turn]
        return []

    def seat_view(self, seat: int) -> SeatView:
        self._check_seat(seat)
        hands = self.hands
        return SeatView(
            seat=seat,
            phase=self.phase,
            turn=self.turn,
            first=self.first,
            hand=tuple(cards_of(hands[seat])),
            counts=(hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count(), hands[3].bit_count()),
            shown=tuple(self.shown),
            doubled=tuple(self.doubled),
            shown_hands=tuple(
                tuple(cards_of(hands[s])) if self.shown[s] == 1 else None for s in range(SEATS)
            ),
            last=self.last,
            last_seat=self.last_seat,
            opened=self.opened,
            trick=tuple(self.trick),
            winner=self.winner,
        )

    def legal_actions(self, seat: int) -> list[Action]:
        self._check_seat(seat)
        if self.phase == SHOW and self.shown[seat] == UNDECIDED:
            return [Action(seat, "show", value=0), Action(seat, "show", value=1)]
        if self.phase == DOUBLE and self.turn == seat:
            return [Action(seat, "double", value=0), Action(seat, "double", value=1)]
        if self.phase == PLAY and self.turn == seat:
            return self._with_pass(
                seat, [Action(seat, "play", c) for c, _ in self.seat_view(seat).legal_plays()]
            )
        return []

    def default_action(self, seat: int) -> Action | None:
        """What a timeout means for ``seat`` now: show and double default to "no"; play has no default."""
        self._check_seat(seat)
        if self.phase == SHOW and self.shown[seat] == UNDECIDED:
            return Action(seat, "show", value=0, timeout=True)
        if self.phase == DOUBLE and self.turn == seat:
            return Action(seat, "double", value=0, timeout=True)
        return None

    def result(self) -> dict[str, Any]:
        self._check_ended()
        left = self.counts()
        shown = [v == 1 for v in self.shown]
        doubled = [v == 1 for v in self.doubled]
        return {
            "ruleset": RULESET,
            "winner": self.winner,
            "cards_left": left,
            "penalties": [penalty(n) for n in left],
            "shown": shown,
            "doubled": doubled,
            "scores": scores(left, shown, doubled),
        }

    # -- actions ---------------------------------------------------------------------------------

    def _decide(self, action: Action) -> None:
        if action.kind == "show":
            self._show(action.seat, action.value)
        else:
            self._double(action.seat, action.value)

    def _check_decision(self, action: Action) -> None:
        seat, kind = action.seat, action.kind
        if kind == "show":
            if self.phase != SHOW:
                raise Rejected("phase_closed", "the show phase is over")
            if self.shown[seat] != UNDECIDED:
                raise Rejected("already_decided", f"seat {seat} has already chosen whether to show")
        elif kind == "double":
            if self.phase != DOUBLE:
                raise Rejected("phase_closed", "the double phase is not open")
            if seat != self.turn:
                raise Rejected("not_your_turn", f"seat {self.turn} chooses to double now, not seat {seat}")
        else:
            raise Rejected("bad_action", f"unknown action {kind!r} for Big Two")

    def _check_play(self, seat: int, cards: Sequence[int]) -> tuple[Play, int, Combo]:
        play, play_mask, combo = self._classified_play(seat, cards, 52, classify)
        hand = self.hands[seat]
        if not self.opened and D3 not in play:
            raise Rejected("must_contain_d3", "the first lead must contain D3")
        if self.last:
            prev = classify_last(self.last)
            assert prev is not None
            if combo.size != prev.size:
                raise Rejected("wrong_size", f"the trick is of {prev.size}-card plays, not {combo.size}")
            if not beats(prev, combo):
                raise Rejected("does_not_beat", f"{combo.name} does not beat the last {prev.name}")
        nxt = (seat + 1) % SEATS
        if combo.size == 1 and self.hands[nxt].bit_count() == 1 and play_mask != 1 << (hand.bit_length() - 1):
            raise Rejected(
                "must_play_highest_single",
                f"seat {nxt} has one card left: a single must be your highest card",
            )
        return play, play_mask, combo

    def _show(self, seat: int, value: int) -> None:
        self.shown[seat] = 1 if value else 0
        if UNDECIDED not in self.shown:
            self.phase = DOUBLE
            self.turn = self.first

    def _double(self, seat: int, value: int) -> None:
        self.doubled[seat] = 1 if value else 0
        self.turn = (seat + 1) % SEATS
        if UNDECIDED not in self.doubled:
            self.phase = PLAY
            self.turn = self.first

    def _play(self, seat: int, play: Play, play_mask: int, combo: Combo) -> None:
        hand = self._take_play(seat, play, play_mask)
        self.opened = True
        self._won_or_next(seat, hand)

    def _pass(self, seat: int) -> bool:
        ended = super()._pass(seat)
        if ended:
            self.tricks_done += 1
        return ended

    # -- serialization ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "r": RULESET,
            "d": [cards_of(m) for m in self.dealt],
            "h": [cards_of(m) for m in self.hands],
            "p": self.phase,
            "s": self.shown,
            "x": self.doubled,
            "t": self.turn,
            **self._trick_state(),
            "kd": self.tricks_done,
            "o": self.opened,
            "w": self.winner,
        }

    @classmethod
    def _load(cls, data: dict[str, Any]) -> BigTwoBoard:
        board = cls(data["d"])
        board.hands = [mask_of(h) for h in data["h"]]
        board.phase = data["p"]
        board.shown = list(data["s"])
        board.doubled = list(data["x"])
        board.turn = data["t"]
        board._load_trick(data)
        board.tricks_done = data["kd"]
        board.opened = data["o"]
        board.winner = data["w"]
        return board


# Checked by mypy: the Big Two board offers the whole engine interface.
_ENGINE: type[Board] = BigTwoBoard
