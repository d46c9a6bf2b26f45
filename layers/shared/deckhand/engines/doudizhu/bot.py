"""A deterministic Dou Dizhu bot: AI seats, players-vs-AI boards and simulated handsets.

Its decision is a function of the seat's view alone (RULES.md §1: the same board and history always
give the same decision). It bids and doubles by hand strength; it sheds its lowest combinations
first, long ones before short, never beats its partner, and keeps bombs and the rocket for when an
opponent is close to going out or it can finish with them.
"""

from __future__ import annotations

from ..common.cards import rank_of
from ..contract import Action
from .board import BID, DOUBLE, PLAY, REDOUBLE, SeatView
from .combos import BOMB, ROCKET, TWO, Combo, classify

STYLES = {"steady": (7.0, 5.0, 8.0), "bold": (6.0, 4.0, 7.0), "careful": (8.0, 6.0, 9.0)}


def hand_strength(hand: tuple[int, ...]) -> float:
    """Big cards and bombs: red joker 3, black joker 2, a 2 is 1.5, an ace 0.5, a bomb 3."""
    counts = [0] * 15
    for c in hand:
        counts[rank_of(c)] += 1
    value = 3.0 * counts[14] + 2.0 * counts[13] + 1.5 * counts[TWO] + 0.5 * counts[11]
    value += 3.0 * sum(1 for r in range(13) if counts[r] == 4)
    return value


class DouDizhuBot:
    def __init__(self, style: str = "steady") -> None:
        self.bid_three, self.double_at, self.redouble_at = STYLES.get(style, STYLES["steady"])

    def decide(self, view: SeatView) -> Action | None:
        """The action for ``view.seat`` now, or None when the board is not waiting for it."""
        seat = view.seat
        if view.phase == BID and view.turn == seat:
            return Action(seat, "bid", value=self._bid(view))
        if view.phase == DOUBLE and seat != view.landlord and view.doubled[seat] < 0:
            return Action(seat, "double", value=int(hand_strength(view.hand) >= self.double_at))
        if view.phase == REDOUBLE and view.turn == seat:
            return Action(seat, "double", value=int(hand_strength(view.hand) >= self.redouble_at))
        if view.phase == PLAY and view.turn == seat:
            return self._play(view)
        return None

    def _bid(self, view: SeatView) -> int:
        strength = hand_strength(view.hand)
        want = (
            3
            if strength >= self.bid_three
            else 2
            if strength >= self.bid_three - 2
            else 1
            if strength >= 3.5
            else 0
        )
        return want if want > view.bid else 0

    def _play(self, view: SeatView) -> Action:
        seat = view.seat
        plays = view.legal_plays()
        whole = [p for p, c in plays if c.size == len(view.hand)]
        if whole:
            return Action(seat, "play", whole[0])  # goes out now
        normal = [(p, c) for p, c in plays if c.type not in (BOMB, ROCKET)]
        big = [(p, c) for p, c in plays if c.type in (BOMB, ROCKET)]
        if view.leading:
            # Shed the lowest main rank first; at equal rank, the play that sheds the most cards.
            pool = normal or big
            play, _ = min(pool, key=lambda pc: (pc[1].rank, -pc[1].size, pc[0]))
            return Action(seat, "play", play)
        partner_led = view.landlord not in (seat, view.last_seat)
        if partner_led:
            return Action(seat, "pass")
        danger = min(n for s, n in enumerate(view.counts) if self._opponent(view, s)) <= 2
        if normal:
            prev = classify(view.last)
            assert prev is not None
            play, _ = min(normal, key=lambda pc: (pc[1].rank, pc[0]))
            if not _wastes_a_top_card(prev, play) or danger:
                return Action(seat, "play", play)
        if big and (danger or len(view.hand) <= 6):
            play, _ = min(big, key=lambda pc: (pc[1].type == ROCKET, pc[1].rank))
            return Action(seat, "play", play)
        return Action(seat, "pass")

    @staticmethod
    def _opponent(view: SeatView, seat: int) -> bool:
        if seat == view.seat:
            return False
        return view.landlord in (seat, view.seat)


def _wastes_a_top_card(prev: Combo, play: tuple[int, ...]) -> bool:
    """Beating a low single with a joker or a 2 is kept for when it matters."""
    return prev.size == 1 and prev.rank < 9 and rank_of(play[0]) >= TWO
