"""Tribute, resisting and the return of Guandan (RULES.md §4 "Tribute", §4.2; 002 第十条).

Before every board but a game's first, the previous board's last finisher pays its highest card (never
the heart level card) to the first finisher, who returns one card. At 双下 both losers pay (双贡).
A paying side holding both red jokers resists (抗贡). The functions here are pure: the board asks them
which cards are allowed and who leads; the referee calculator asks them directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ...errors import DeckhandError
from ..common.cards import BLACK_JOKER, RED_JOKER, rank_of, suit_of
from . import SEATS
from .levels import ReturnRule, check_order, is_double_down, partner_of

HEARTS = 2  # common.cards suit index of ♥
TEN = 7  # rank index of T (3…A,2 = 0…12)
NATURAL_TWO = 12


def strength(card: int, level_rank: int) -> int:
    """A card's single-card strength by the level order: RJ 15, BJ 14, level card 13, A 12 … 2 0."""
    if card == RED_JOKER:
        return 15
    if card == BLACK_JOKER:
        return 14
    rank = rank_of(card)
    if rank == level_rank:
        return 13
    return 0 if rank == NATURAL_TWO else rank + 1


def is_wild(card: int, level_rank: int) -> bool:
    """The heart level card (红心参谋), wild for any card but a joker (RULES.md §4, §4.2)."""
    return card < BLACK_JOKER and rank_of(card) == level_rank and suit_of(card) == HEARTS


def is_small(card: int, level_rank: int) -> bool:
    """ "10 or lower" (§4.2): a natural 2…T that is not of the level rank; jokers never qualify."""
    if card >= BLACK_JOKER:
        return False
    rank = rank_of(card)
    return rank != level_rank and (rank <= TEN or rank == NATURAL_TWO)


def tribute_cards(hand: Iterable[int], level_rank: int) -> list[int]:
    """The distinct cards a payer may give: its highest by the level order, not a heart level card, any suit."""
    eligible = sorted({c for c in hand if not is_wild(c, level_rank)})
    if not eligible:
        return []
    top = max(strength(c, level_rank) for c in eligible)
    return [c for c in eligible if strength(c, level_rank) == top]


def tribute_ok(card: int, hand: Sequence[int], level_rank: int) -> bool:
    return card in tribute_cards(hand, level_rank)


def return_cards(hand: Iterable[int], level_rank: int, to_partner: bool, rule: ReturnRule) -> list[int]:
    """The distinct cards the receiver may return (§4.2 "Return").

    To one's own partner (and always under the 2022 rule) a card of 10 or lower; with none, the lowest
    card(s) by the level order. To an opponent under the 2023 rule, any card.
    """
    cards = sorted(set(hand))
    if not to_partner and rule == ReturnRule.R2023:
        return cards
    small = [c for c in cards if is_small(c, level_rank)]
    if small:
        return small
    if not cards:
        return []
    low = min(strength(c, level_rank) for c in cards)
    return [c for c in cards if strength(c, level_rank) == low]


def return_ok(card: int, hand: Sequence[int], level_rank: int, to_partner: bool, rule: ReturnRule) -> bool:
    return card in return_cards(hand, level_rank, to_partner, rule)


class Plan(NamedTuple):
    """Who pays before a board: ``payers`` (one or two seats, none when resisted or no tribute)."""

    first: int  # the previous board's first finisher
    payers: tuple[int, ...]
    resisted: bool
    double: bool  # 双贡

    @property
    def leader_if_no_tribute(self) -> int:
        """抗贡: the first finisher leads (002 第十条三)."""
        return self.first


def last_finisher(order: Sequence[int]) -> int:
    seats = check_order(order)
    rest = [s for s in range(SEATS) if s not in seats[:3]]
    return seats[3] if len(seats) == 4 else rest[-1] if len(rest) == 1 else -1


def plan(order: Sequence[int], hands: Sequence[Sequence[int]]) -> Plan:
    """Who pays for the previous board's finishing ``order`` given the new hands (resisting needs them).

    Single tribute: the last finisher pays the first finisher, even when it is the first finisher's
    partner. 双下: both losers pay; both red jokers in the paying side (one each or one holding both)
    resist. A single payer resists only with both red jokers in its own hand.
    """
    seats = check_order(order)
    first = seats[0]
    if is_double_down(seats):
        payers: tuple[int, ...] = ((first + 1) % SEATS, (first + 3) % SEATS)
    else:
        payers = (last_finisher(seats),)
    reds = sum(1 for p in payers for c in hands[p] if c == RED_JOKER)
    if reds >= 2:
        return Plan(first, (), True, len(payers) == 2)
    return Plan(first, payers, False, len(payers) == 2)


class Transfer(NamedTuple):
    giver: int
    receiver: int
    card: int


def assign(plan_: Plan, cards: dict[int, int], level_rank: int) -> tuple[list[Transfer], int]:
    """Who receives each paid card and who leads (002 第十条一–二, RULES.md §4.2).

    Single: the payer pays the first finisher and leads. 双贡: the first finisher takes the higher card,
    the second finisher (its partner) the lower, and the payer of the higher card leads; ⚖ with equal
    cards each payer pays its 上家 (first+1 → first, first+3 → first+2) and first+1 leads.
    """
    if not plan_.payers:
        return [], plan_.first
    if set(cards) != set(plan_.payers):
        raise DeckhandError(f"tribute cards are needed from seats {list(plan_.payers)}")
    first = plan_.first
    if not plan_.double:
        payer = plan_.payers[0]
        return [Transfer(payer, first, cards[payer])], payer
    a, b = plan_.payers  # first+1, first+3
    second = partner_of(first)
    sa, sb = strength(cards[a], level_rank), strength(cards[b], level_rank)
    if sa == sb:
        return [Transfer(a, first, cards[a]), Transfer(b, second, cards[b])], a
    high, low = (a, b) if sa > sb else (b, a)
    return [Transfer(high, first, cards[high]), Transfer(low, second, cards[low])], high


def auto_tribute(
    order: Sequence[int], hands: Sequence[Sequence[int]], level_rank: int
) -> tuple[Plan, list[Transfer], int]:
    """The whole tribute with each payer giving its lowest-numbered allowed card (the referee calculator)."""
    p = plan(order, hands)
    if not p.payers:
        return p, [], p.first
    chosen = {}
    for payer in p.payers:
        allowed = tribute_cards(hands[payer], level_rank)
        if not allowed:
            raise DeckhandError(f"seat {payer} has no card to pay")
        chosen[payer] = allowed[0]
    transfers, leader = assign(p, chosen, level_rank)
    return p, transfers, leader
