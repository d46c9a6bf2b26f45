"""A one-deck climbing board's hands as bit masks (a card is one bit, so a play is taken out of a hand
and checked against it in one integer operation): the hand's cards, the counts, a play checked and taken
out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from ..contract import Rejected
from .cards import cards_of, format_cards
from .trick import Play, TrickBoard

Combo = TypeVar("Combo")


class MaskBoard(TrickBoard):
    """A ``TrickBoard`` whose ``hands`` are one-deck bit masks, one a seat."""

    hands: list[int]

    def hand(self, seat: int) -> list[int]:
        return cards_of(self.hands[seat])

    def counts(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def _play_mask(self, seat: int, cards: Sequence[int], hand: int, deck: int) -> int:
        """The cards of a play from a one-deck hand (a bit mask): each a card of the deck, once, held."""
        play_mask = 0
        for c in cards:
            if not isinstance(c, int) or not 0 <= c < deck:
                raise Rejected("bad_card", f"not a {self.name} card: {c!r}")
            bit = 1 << c
            if play_mask & bit:
                raise Rejected("duplicate_card", f"{format_cards([c])[0]} is listed twice")
            play_mask |= bit
        if not play_mask:
            raise Rejected("not_a_combination", "a play needs at least one card; to pass, send pass")
        if play_mask & ~hand:
            missing = " ".join(format_cards(cards_of(play_mask & ~hand)))
            raise Rejected("not_in_hand", f"not in seat {seat}'s hand: {missing}")
        return play_mask

    def _classified_play(
        self, seat: int, cards: Sequence[int], deck: int, classify: Callable[[Play], Combo | None]
    ) -> tuple[Play, int, Combo]:
        """A play of cards the seat holds (``_play_mask``) that the game's ``classify`` reads as one of
        its combinations: the play in order, its mask and its combination."""
        play_mask = self._play_mask(seat, cards, self.hands[seat], deck)
        play = tuple(sorted(cards))
        combo = classify(play)
        if combo is None:
            raise self._not_a_combination(play)
        return play, play_mask, combo

    def _take_play(self, seat: int, play: Play, play_mask: int) -> int:
        """``play`` (checked: ``play_mask`` is in the hand) leaves the seat's hand and is the one to
        beat now; the hand left."""
        hand = self.hands[seat] & ~play_mask
        self.hands[seat] = hand
        self._record_play(seat, play)
        return hand
