"""A deterministic Guandan bot: AI seats, players-vs-AI games and simulated handsets.

Its decision is a function of the seat's view alone (RULES.md §1: the same view gives the same
decision). It plays like a sensible club player, not a solver: it goes out when it can, leads its
lowest combinations without breaking bombs or spending wild cards, never beats its partner, feeds a
partner who is close to going out, keeps bombs for when an opponent is close or they finish its
hand, and pays tributes and returns by the rules (the cheapest allowed card, singletons first).
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from ..common.bot_style import style_of
from ..common.cards import BLACK_JOKER
from ..contract import Action
from .board import LEAD, PLAY, RETURN, TRIBUTE, SeatView, reading_to_data
from .combos import BOMB_TYPES, Combo, Reading, bomb_power
from .levels import ReturnRule, partner_of
from .tribute import is_wild, return_cards, strength, tribute_cards


class Style(NamedTuple):
    bomb_when_opponent_at: int  # bomb an opponent's play once some opponent holds this many cards or fewer
    feed_partner_at: int  # lead low singles to a partner holding this many cards or fewer


STYLES = {
    "steady": Style(bomb_when_opponent_at=6, feed_partner_at=4),
    "bold": Style(bomb_when_opponent_at=10, feed_partner_at=6),
    "careful": Style(bomb_when_opponent_at=3, feed_partner_at=2),
}


class GuandanBot:
    def __init__(self, style: str = "steady") -> None:
        self.style_name = style
        self.style = style_of(STYLES, style)

    def decide(self, view: SeatView) -> Action | None:
        """The action for ``view.seat`` now, or None when the board is not waiting for it."""
        seat = view.seat
        if seat not in view.pending:
            return None
        if view.phase == TRIBUTE:
            return Action(seat, "tribute", (self._tribute(view),))
        if view.phase == RETURN:
            return Action(seat, "return", (self._return(view),))
        if view.phase == LEAD:
            return Action(seat, "lead", value=seat)
        if view.phase == PLAY and view.turn == seat:
            return self._play(view)
        return None

    # -- tribute and return ----------------------------------------------------------------------

    @staticmethod
    def _tribute(view: SeatView) -> int:
        """The highest card (the rule); of several suits, the one least useful in a straight flush."""
        allowed = tribute_cards(view.hand, view.level)
        suits = Counter(c & 3 for c in view.hand if c < BLACK_JOKER)
        return min(allowed, key=lambda c: (suits[c & 3] if c < BLACK_JOKER else 0, c))

    @staticmethod
    def _return(view: SeatView) -> int:
        """The cheapest allowed card, a singleton before a card that breaks a pair or more."""
        giver = next(g for g, r, _ in view.transfers if r == view.seat)
        allowed = return_cards(
            view.hand, view.level, giver == partner_of(view.seat), ReturnRule(view.return_rule)
        )
        ranks = Counter(c >> 2 for c in view.hand if c < BLACK_JOKER)
        return min(allowed, key=lambda c: (c < BLACK_JOKER and ranks[c >> 2] > 1, strength(c, view.level), c))

    # -- play ------------------------------------------------------------------------------------

    def _play(self, view: SeatView) -> Action:
        seat = view.seat
        plays = view.legal_plays()
        hand = view.hand
        whole = [p for p in plays if len(p[0]) == len(hand)]
        if whole:
            return _play_action(seat, min(whole, key=lambda p: (bomb_power(p[1]), p[1].rank)))  # goes out now
        ranks = Counter(c >> 2 for c in hand if c < BLACK_JOKER and not is_wild(c, view.level))
        partner = partner_of(seat)
        partner_in = partner not in view.out and view.counts[partner] > 0
        opponents = [s for s in range(4) if s % 2 != seat % 2 and view.counts[s] > 0]
        danger = min((view.counts[s] for s in opponents), default=99) <= self.style.bomb_when_opponent_at

        def clean(p: tuple[tuple[int, ...], Reading]) -> bool:
            cards, r = p
            if r.type in BOMB_TYPES:
                return False
            return not any(is_wild(c, view.level) or (c < BLACK_JOKER and ranks[c >> 2] >= 4) for c in cards)

        normal = [p for p in plays if p[1].type not in BOMB_TYPES]
        bombs = [p for p in plays if p[1].type in BOMB_TYPES]
        if view.leading:
            if partner_in and view.counts[partner] <= self.style.feed_partner_at:
                singles = [p for p in normal if p[1].type == Combo.SINGLE and clean(p)]
                if singles:
                    return _play_action(seat, min(singles, key=lambda p: (p[1].rank, p[0])))
            pool = [p for p in normal if clean(p)] or normal or bombs
            return _play_action(seat, min(pool, key=lambda p: (_low(p[1]), -p[1].size, p[0])))
        if view.last_seat == partner:
            return Action(seat, "pass")  # never beat the partner
        cheap = [p for p in normal if clean(p)]
        if cheap:
            best = min(cheap, key=lambda p: (p[1].rank, p[0]))
            if best[1].rank < 100 or danger or len(hand) <= 10:
                return _play_action(seat, best)
        if normal and danger:
            return _play_action(seat, min(normal, key=lambda p: (p[1].rank, p[0])))
        if bombs and (danger or len(hand) <= 8):
            return _play_action(seat, min(bombs, key=lambda p: (bomb_power(p[1]), p[0])))
        return Action(seat, "pass")


def _low(r: Reading) -> int:
    """How high a lead is: its rank on one scale (level cards and jokers last)."""
    return r.rank


def _play_action(seat: int, p: tuple[tuple[int, ...], Reading]) -> Action:
    """A play with its reading declared (a play with a wild may read several ways, §4.2)."""
    cards, r = p
    return Action(seat, "play", cards, data=reading_to_data(r))
