"""A deterministic Big Two bot: the same view always gives the same decision (RULES.md §1 ⚖).

It plays like a sensible club player, not a solver: it goes out when it can, leads low multi-card
combinations that do not split pairs or triples, follows with the cheapest play that beats, saves
its 2s while every opponent still has many cards, and doubles or shows only strong hands.
``style`` changes its appetite for risk so that a field of bots does not play identically.
"""

from __future__ import annotations

from typing import NamedTuple

from ..common.bot_style import style_of
from ..contract import Action
from .board import DOUBLE, PLAY, SHOW, UNDECIDED, SeatView
from .combos import Combo
from .legal import Play

TWO = 12
ACE = 11


_ACE_CARD = ACE * 4  # the lowest card of rank A or above
_NIBBLES = sum(1 << (4 * r) for r in range(13))


def _ranks_of(mask: int) -> int:
    """Bit 4r set when the card mask holds any card of rank r."""
    return (mask | mask >> 1 | mask >> 2 | mask >> 3) & _NIBBLES


class Style(NamedTuple):
    show_at: int
    double_at: int
    save_twos_while_opponents_over: int


STYLES = {
    "steady": Style(show_at=26, double_at=15, save_twos_while_opponents_over=4),
    "bold": Style(show_at=22, double_at=12, save_twos_while_opponents_over=7),
    "careful": Style(show_at=99, double_at=19, save_twos_while_opponents_over=2),
}


def hand_strength(hand: tuple[int, ...]) -> int:
    """High cards count: Q 1, K 2, A 3, 2 4 (an average hand scores about 10)."""
    return sum(max(0, (c >> 2) - 8) for c in hand)


class BigTwoBot:
    def __init__(self, style: str = "steady") -> None:
        self.style_name = style
        self.style = style_of(STYLES, style)

    def decide(self, view: SeatView) -> Action | None:
        """The action for ``view.seat`` now, or None when the board is not waiting for it."""
        seat = view.seat
        if view.phase == SHOW and view.shown[seat] == UNDECIDED:
            return Action(seat, "show", value=int(hand_strength(view.hand) >= self.style.show_at))
        if view.phase == DOUBLE and view.turn == seat:
            strength = hand_strength(view.hand) + (1 if view.first == seat else 0)
            return Action(seat, "double", value=int(strength >= self.style.double_at))
        if view.phase == PLAY and view.turn == seat:
            return self._play(view)
        return None

    def _play(self, view: SeatView) -> Action:
        seat = view.seat
        plays = view.legal_plays()
        if not plays:
            return Action(seat, "pass")
        for cards, _ in plays:
            if len(cards) == len(view.hand):
                return Action(seat, "play", cards)
        # Decided from rank counts and bit masks, not Counters of cards: scored for every legal play.
        held = [0] * 13
        hand_mask = 0
        for c in view.hand:
            held[c >> 2] += 1
            hand_mask |= 1 << c

        def breaks(cards: Play) -> int:
            """How many ranks of the hand this play splits (uses some but not all of their cards)."""
            if len(cards) == 1:
                return 1 if held[cards[0] >> 2] > 1 else 0
            mask = 0
            for c in cards:
                mask |= 1 << c
            return (_ranks_of(mask) & _ranks_of(hand_mask & ~mask)).bit_count()

        if view.leading:
            next_has_one = view.counts[(seat + 1) % 4] == 1

            def lead_key(item: tuple[Play, Combo]) -> tuple[int, ...]:
                cards, combo = item
                high = sum(1 for c in cards if c >= _ACE_CARD)
                return (
                    int(next_has_one and len(cards) == 1),
                    breaks(cards),
                    high,
                    -len(cards),
                    combo.strength,
                )

            return Action(seat, "play", min(plays, key=lead_key)[0])

        cards, _combo = min(plays, key=lambda item: (breaks(item[0]), item[1].strength))
        opponents_min = min(n for s, n in enumerate(view.counts) if s != seat)
        uses_two = any(c >> 2 == TWO for c in cards)
        if uses_two and len(view.hand) > 4 and opponents_min > self.style.save_twos_while_opponents_over:
            return Action(seat, "pass")
        return Action(seat, "play", cards)
