"""The Dou Dizhu board state machine (RULES.md §3): bid → (redeal) → double → redouble → play → end.

Every action is checked against the state and either applied whole or rejected with a reason code
and no change. A board carries its pre-generated deals: when all three pass, the next one is dealt,
identical at every table of the duplicate comparison. Hands are 54-bit masks.
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
from . import DECISION_MS, DECK, HAND_SIZE, RULESET, SEATS
from .combos import BOMB, ROCKET, Combo, beats, classify
from .legal import Play, legal_plays
from .scoring import scores

BID, DOUBLE, REDOUBLE = "bid", "double", "redouble"
UNDECIDED = NO_SEAT
FIRST_BIDDER = 0  # RULES.md §3: seat 0 bids first on every board of a duplicate event


class SeatView(NamedTuple):
    """What one seat may know: its own hand, everyone's counts and bids, the kitty once shown, the trick."""

    seat: int
    phase: str
    turn: int
    hand: tuple[int, ...]
    counts: tuple[int, ...]
    bids: tuple[int, ...]
    bid: int
    landlord: int
    kitty: tuple[int, ...]
    doubled: tuple[int, ...]
    redoubled: int
    last: Play
    last_seat: int
    trick: tuple[tuple[int, Play], ...]
    bombs: int
    rockets: int
    deal: int
    winner: int

    @property
    def leading(self) -> bool:
        return not self.last

    def legal_plays(self) -> list[tuple[Play, Combo]]:
        """Legal plays for this seat when it is its turn in the play phase (else none)."""
        if self.phase != PLAY or self.turn != self.seat:
            return []
        return legal_plays(self.hand, classify(self.last) if self.last else None)

    def to_dict(self) -> dict[str, Any]:
        flag = {UNDECIDED: None, 0: False, 1: True}
        return {
            "seat": self.seat,
            "phase": self.phase,
            "turn": self.turn,
            "hand": format_cards(self.hand),
            "counts": list(self.counts),
            "bids": [None if b == UNDECIDED else b for b in self.bids],
            "bid": self.bid,
            "landlord": seat_json(self.landlord),
            "kitty": format_cards(self.kitty),
            "doubled": [flag[v] for v in self.doubled],
            "redoubled": flag[self.redoubled],
            "last": last_json(self.last, self.last_seat),
            "trick": trick_json(self.trick),
            "one_card": [s for s, n in enumerate(self.counts) if n == 1],
            "bombs": self.bombs,
            "rockets": self.rockets,
            "deal": self.deal,
            "winner": seat_json(self.winner),
        }

    @classmethod
    def from_dict(cls, view: dict[str, Any]) -> SeatView:
        """Rebuild a view from its JSON form (what a device receives), e.g. for a bot on a device."""

        def cards(tokens: list[str]) -> tuple[int, ...]:
            return tuple(sorted(parse_cards(tokens, jokers=True)))

        flag = {None: UNDECIDED, False: 0, True: 1}
        last, last_seat = read_last(view["last"], cards)
        return cls(
            seat=view["seat"],
            phase=view["phase"],
            turn=view["turn"],
            hand=cards(view["hand"]),
            counts=tuple(view["counts"]),
            bids=tuple(UNDECIDED if b is None else b for b in view["bids"]),
            bid=view["bid"],
            landlord=read_seat(view["landlord"]),
            kitty=cards(view["kitty"]),
            doubled=tuple(flag[v] for v in view["doubled"]),
            redoubled=flag[view["redoubled"]],
            last=last,
            last_seat=last_seat,
            trick=read_trick(view["trick"], cards),
            bombs=view["bombs"],
            rockets=view["rockets"],
            deal=view["deal"],
            winner=read_seat(view["winner"]),
        )


class DouDizhuBoard(MaskBoard[Combo]):
    """One board of Dou Dizhu from its pre-generated deals (each a 54-card order), or :meth:`from_order`."""

    ruleset = RULESET
    name = "Dou Dizhu"
    seats = SEATS
    decision_ms = DECISION_MS

    def __init__(self, deals: Sequence[Sequence[int]]) -> None:
        if not deals:
            raise DeckhandError("a Dou Dizhu board needs at least one deal")
        for i, order in enumerate(deals):
            check_count(order, DECK, f"deal {i + 1}")
            check_cards(order, decks=1, jokers=True)
        self.deals = [list(order) for order in deals]
        self.redeals = 0
        self._deal(0)

    @classmethod
    def from_order(cls, order: Sequence[int], carry: dict[str, Any] | None = None) -> DouDizhuBoard:
        """A board's card order: its deals one after another (54 cards each). Boards stand alone."""
        cls._check_no_carry(carry)
        if not order or len(order) % DECK:
            raise DeckhandError(f"a Dou Dizhu board's order is a multiple of {DECK} cards, got {len(order)}")
        return cls([order[i : i + DECK] for i in range(0, len(order), DECK)])

    def _deal(self, number: int) -> None:
        """Deal number ``number`` (cycling through the board's deals): 17 each round robin, 3 in the kitty."""
        self.deal_no = number
        hands, kitty = deal_round_robin(self.deals[number % len(self.deals)], SEATS, HAND_SIZE)
        self.hands = [mask_of(h) for h in hands]
        self.kitty = sorted(kitty)
        self.phase = BID
        self.bids = [UNDECIDED] * SEATS
        self.high = 0
        self.turn = FIRST_BIDDER
        self.landlord = UNDECIDED
        self.doubled = [UNDECIDED] * SEATS
        self.redoubled = UNDECIDED
        self._clear_trick()
        self.played = [0] * SEATS  # plays (not passes) by seat: spring and anti-spring
        self.bombs = 0
        self.rockets = 0
        self.winner = UNDECIDED

    # -- queries ---------------------------------------------------------------------------------

    @property
    def deal_index(self) -> int:
        """The deal in play, as an index into the board's deals (they cycle after the last)."""
        return self.deal_no % len(self.deals)

    def defenders(self) -> list[int]:
        return [s for s in range(SEATS) if s != self.landlord]

    def pending(self) -> list[int]:
        """Seats whose decision the board is waiting for now (both defenders at once when doubling)."""
        if self.phase == DOUBLE:
            return [s for s in self.defenders() if self.doubled[s] == UNDECIDED]
        if self.phase in (BID, REDOUBLE, PLAY):
            return [self.turn]
        return []

    def seat_view(self, seat: int) -> SeatView:
        self._check_seat(seat)
        return SeatView(
            seat=seat,
            phase=self.phase,
            turn=self.turn,
            hand=tuple(cards_of(self.hands[seat])),
            counts=tuple(self.counts()),
            bids=tuple(self.bids),
            bid=self.high,
            landlord=self.landlord,
            kitty=tuple(self.kitty) if self.landlord >= 0 else (),
            doubled=tuple(self.doubled),
            redoubled=self.redoubled,
            last=self.last,
            last_seat=self.last_seat,
            trick=tuple(self.trick),
            bombs=self.bombs,
            rockets=self.rockets,
            deal=self.deal_no + 1,
            winner=self.winner,
        )

    def legal_actions(self, seat: int) -> list[Action]:
        self._check_seat(seat)
        if seat not in self.pending():
            return []
        if self.phase == BID:
            return [Action(seat, "bid", value=0)] + [
                Action(seat, "bid", value=v) for v in range(self.high + 1, 4)
            ]
        if self.phase in (DOUBLE, REDOUBLE):
            return [Action(seat, "double", value=0), Action(seat, "double", value=1)]
        return self._with_pass(seat, [Action(seat, "play", c) for c, _ in self.seat_view(seat).legal_plays()])

    def default_action(self, seat: int) -> Action | None:
        """What a timeout means: bidding passes, doubling and redoubling are "no"; play has no default."""
        self._check_seat(seat)
        if seat not in self.pending():
            return None
        if self.phase == BID:
            return Action(seat, "bid", value=0, timeout=True)
        if self.phase in (DOUBLE, REDOUBLE):
            return Action(seat, "double", value=0, timeout=True)
        return None

    def result(self) -> dict[str, Any]:
        self._check_ended()
        info = self.outcome()
        return {"ruleset": RULESET, **info, "scores": scores(**{k: info[k] for k in _SCORE_KEYS})}

    def outcome(self) -> dict[str, Any]:
        defenders_won = self.winner != self.landlord
        defenders = self.defenders()
        return {
            "landlord": self.landlord,
            "bid": self.high,
            "winner": self.winner,
            "defenders_won": defenders_won,
            "bombs": self.bombs,
            "rockets": self.rockets,
            "spring": not defenders_won and all(self.played[d] == 0 for d in defenders),
            "anti_spring": defenders_won and self.played[self.landlord] == 1,
            "doubled": [v == 1 for v in self.doubled],
            "redoubled": self.redoubled == 1,
            "deal": self.deal_no + 1,
            "redeals": self.redeals,
        }

    # -- actions ---------------------------------------------------------------------------------

    def _decide(self, action: Action) -> None:
        if action.kind == "bid":
            self._bid(action.seat, action.value)
        elif self.phase == DOUBLE:
            self._double(action.seat, action.value)
        else:
            self._redouble(action.value)

    def _check_decision(self, action: Action) -> None:
        seat, kind = action.seat, action.kind
        if kind == "bid":
            if self.phase != BID:
                raise Rejected("phase_closed", "bidding is over")
            self._check_turn(seat)
            if action.value not in (0, 1, 2, 3):
                raise Rejected("bad_bid", f"a bid is 1, 2 or 3 (0 passes), got {action.value!r}")
            if action.value and action.value <= self.high:
                raise Rejected("bid_too_low", f"a bid must be higher than {self.high}")
        elif kind == "double":
            if action.value not in (0, 1):
                raise Rejected("bad_action", f"double is 0 or 1, got {action.value!r}")
            if self.phase == DOUBLE:
                if seat == self.landlord:
                    raise Rejected(
                        "not_your_turn", "the defenders double now; the landlord may redouble after"
                    )
                if self.doubled[seat] != UNDECIDED:
                    raise Rejected("already_decided", f"seat {seat} has already chosen whether to double")
            elif self.phase == REDOUBLE:
                self._check_turn(seat)
            else:
                raise Rejected("phase_closed", f"there is no doubling in the {self.phase} phase")
        else:
            raise Rejected("bad_action", f"unknown action {kind!r} for Dou Dizhu")

    def _check_play(self, seat: int, cards: Sequence[int]) -> tuple[Play, int, Combo]:
        play, play_mask, combo = self._classified_play(seat, cards, DECK, classify)
        if self.last:
            prev = classify(self.last)
            assert prev is not None
            if not beats(prev, combo):
                if {combo.type, prev.type} & {BOMB, ROCKET}:
                    raise Rejected("does_not_beat", f"{combo.type} does not beat the last {prev.type}")
                if combo.type != prev.type:
                    raise Rejected("wrong_type", f"the trick is of {prev.type} plays, not {combo.type}")
                if combo.size != prev.size:
                    raise Rejected("wrong_size", f"the trick is of {prev.size}-card plays, not {combo.size}")
                raise Rejected("does_not_beat", f"{combo.type} does not beat the last {prev.type}")
        return play, play_mask, combo

    def _bid(self, seat: int, value: int) -> None:
        self.bids[seat] = value
        if value:
            self.high = value
        if value == 3 or UNDECIDED not in self.bids:
            if self.high == 0:
                # All passed: the board's next pre-generated deal, the same at every table.
                redeals = self.redeals + 1
                self._deal(self.deal_no + 1)
                self.redeals = redeals
                return
            self.landlord = self.bids.index(self.high)
            self.hands[self.landlord] |= mask_of(self.kitty)
            self.phase = DOUBLE
            self.turn = UNDECIDED
        else:
            self.turn = (seat + 1) % SEATS

    def _double(self, seat: int, value: int) -> None:
        self.doubled[seat] = 1 if value else 0
        if not self.pending():
            if any(self.doubled[d] == 1 for d in self.defenders()):
                self.phase = REDOUBLE
            else:
                self.phase = PLAY
            self.turn = self.landlord

    def _redouble(self, value: int) -> None:
        self.redoubled = 1 if value else 0
        self.phase = PLAY
        self.turn = self.landlord

    def _play(self, seat: int, play: Play, play_mask: int, combo: Combo) -> None:
        hand = self._take_play(seat, play, play_mask)
        self.played[seat] += 1
        if combo.type == BOMB:
            self.bombs += 1
        elif combo.type == ROCKET:
            self.rockets += 1
        self._won_or_next(seat, hand)

    # -- serialization ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "r": RULESET,
            "o": self.deals,
            "dn": self.deal_no,
            "rd": self.redeals,
            "h": [cards_of(m) for m in self.hands],
            "kt": self.kitty,
            "p": self.phase,
            "b": self.bids,
            "hb": self.high,
            "t": self.turn,
            "ll": self.landlord,
            "x": self.doubled,
            "xx": self.redoubled,
            **self._trick_state(),
            "pc": self.played,
            "bo": self.bombs,
            "ro": self.rockets,
            "w": self.winner,
        }

    @classmethod
    def _load(cls, data: dict[str, Any]) -> DouDizhuBoard:
        board = cls(data["o"])
        board.deal_no = data["dn"]
        board.redeals = data["rd"]
        board.hands = [mask_of(h) for h in data["h"]]
        board.kitty = list(data["kt"])
        board.phase = data["p"]
        board.bids = list(data["b"])
        board.high = data["hb"]
        board.turn = data["t"]
        board.landlord = data["ll"]
        board.doubled = list(data["x"])
        board.redoubled = data["xx"]
        board._load_trick(data)
        board.played = list(data["pc"])
        board.bombs = data["bo"]
        board.rockets = data["ro"]
        board.winner = data["w"]
        return board


_SCORE_KEYS = (
    "bid",
    "landlord",
    "defenders_won",
    "bombs",
    "rockets",
    "spring",
    "anti_spring",
    "doubled",
    "redoubled",
)


# Checked by mypy: the Dou Dizhu board offers the whole engine interface.
_ENGINE: type[Board] = DouDizhuBoard
