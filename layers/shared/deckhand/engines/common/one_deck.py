"""A one-deck climbing board's hands as bit masks (a card is one bit, so a play is taken out of a hand
and checked against it in one integer operation): the hand's cards, the counts, a play taken out."""

from __future__ import annotations

from .cards import cards_of
from .trick import Play, TrickBoard


class MaskBoard(TrickBoard):
    """A ``TrickBoard`` whose ``hands`` are one-deck bit masks, one a seat."""

    hands: list[int]

    def hand(self, seat: int) -> list[int]:
        return cards_of(self.hands[seat])

    def counts(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def _take_play(self, seat: int, play: Play, play_mask: int) -> int:
        """``play`` (checked: ``play_mask`` is in the hand) leaves the seat's hand and is the one to
        beat now; the hand left."""
        hand = self.hands[seat] & ~play_mask
        self.hands[seat] = hand
        self._record_play(seat, play)
        return hand
