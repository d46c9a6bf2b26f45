"""Declaring trump during the deal (RULES.md §5 "Trump", §5.1 "overcalls", "board-1 dealer").

A declaration shows one or two identical cards: one level card names its suit; the declarer may
reinforce it with the identical second card; an overcall needs what the preset says; a pair of
identical jokers overcalls for no trump but never opens; nobody overcalls their own declaration.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..common.cards import BLACK_JOKER, suit_of
from .cards import natural
from .options import Board1Dealer, NoDeclaration, Options, Overcall


class DeclareError(StrEnum):
    """Why a declaration is refused (reason codes)."""

    CARDS = "bad_declaration"  # not one level card, a pair of them, or a pair of jokers
    JOKERS_OPEN = "jokers_cannot_open"
    TOO_WEAK = "overcall_too_weak"
    OWN = "own_declaration"
    SAME_SUIT = "overcall_same_suit"
    CLOSED = "declaring_closed"


@dataclass(frozen=True)
class Declaration:
    seat: int
    card: int  # the level card shown, or the joker
    count: int  # 1 or 2

    @property
    def joker(self) -> bool:
        return self.card >= BLACK_JOKER

    @property
    def suit(self) -> int | None:
        return None if self.joker else suit_of(self.card)


@dataclass(frozen=True)
class Declared:
    """The declarations so far: the first (for 004's board-1 dealer) and the standing one."""

    first: Declaration | None = None
    standing: Declaration | None = None

    def trump_suit(self) -> int | None:
        return None if self.standing is None else self.standing.suit


def read(seat: int, cards: Sequence[int], level: int) -> Declaration:
    """The declaration the cards make, or DeclareError.CARDS."""
    if len(cards) not in (1, 2) or len(set(cards)) != 1:
        raise ValueError(DeclareError.CARDS)
    card = cards[0]
    if card < BLACK_JOKER and natural(card) != level:
        raise ValueError(DeclareError.CARDS)
    if card >= BLACK_JOKER and len(cards) != 2:
        raise ValueError(DeclareError.CARDS)
    return Declaration(seat, card, len(cards))


def check(state: Declared, bid: Declaration, options: Options) -> Declared:
    """The declarations after ``bid``, or ValueError(code) when it is refused."""
    standing = state.standing
    if standing is None:
        if bid.joker:
            raise ValueError(DeclareError.JOKERS_OPEN)
        return Declared(bid, bid)
    if bid.seat == standing.seat:
        # reinforcing: the identical second card on one's own standing single
        if standing.count == 1 and bid.card == standing.card:
            return Declared(state.first, Declaration(bid.seat, bid.card, 2))
        raise ValueError(DeclareError.OWN)
    if options.overcall is Overcall.PAIR_THEN_JOKERS:
        if standing.joker or bid.count < 2:
            raise ValueError(DeclareError.TOO_WEAK)
        if not bid.joker and standing.count >= 2:
            raise ValueError(DeclareError.TOO_WEAK)
    elif bid.joker:
        # 004: a joker pair overcalls any level-card declaration, single or pair, reinforced or an
        # overcall itself (反主后还可用一对大(小)王反无主); nothing overcalls a joker pair.
        if standing.joker:
            raise ValueError(DeclareError.TOO_WEAK)
    else:
        if standing.joker or bid.count <= standing.count:
            raise ValueError(DeclareError.TOO_WEAK)
        if bid.suit == standing.suit:
            raise ValueError(DeclareError.SAME_SUIT)
    return Declared(state.first, bid)


def kitty_trump(kitty: Sequence[int]) -> int | None:
    """004: the kitty's first card that is not a joker names trump (§5.1 ⚖ jokers skipped)."""
    for card in kitty:
        if card < BLACK_JOKER:
            return suit_of(card)
    return None


def outcome(state: Declared, options: Options, kitty: Sequence[int]) -> tuple[int | None, int | None, int]:
    """(trump suit, declarer seat, board-1 dealer) once declaring has closed. Nobody declared: 003 no
    trump, 004 the kitty's first card; board 1 is then dealt by seat 0 (⚖ the seat that drew first)."""
    if state.standing is None:
        suit = kitty_trump(kitty) if options.no_declaration is NoDeclaration.KITTY_FIRST_CARD else None
        return suit, None, 0
    first = state.first
    assert first is not None
    dealer = state.standing.seat if options.board1_dealer is Board1Dealer.LAST_DECLARER else first.seat
    return state.standing.suit, state.standing.seat, dealer
