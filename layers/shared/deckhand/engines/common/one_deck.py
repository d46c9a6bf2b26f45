"""A one-deck climbing board's hands as bit masks (a card is one bit, so a play is taken out of a hand
and checked against it in one integer operation): the hand's cards, the counts, a play checked and taken
out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from ..contract import Action, Rejected
from .cards import cards_of, format_cards
from .trick import Play, TrickBoard

Combo = TypeVar("Combo")


class MaskBoard(TrickBoard, Generic[Combo]):
    """A ``TrickBoard`` whose ``hands`` are one-deck bit masks, one a seat. A play or a pass goes through
    the trick; every other action is a decision of the game's own (``_check_decision``, ``_decide``)."""

    hands: list[int]

    def apply(self, action: Action) -> None:
        """Apply one action or raise Rejected; a rejected action leaves the board exactly as it was."""
        checked = self._validate(action)
        if action.kind == "play":
            assert checked is not None
            self._play(action.seat, *checked)
        elif action.kind == "pass":
            self._pass(action.seat)
        else:
            self._decide(action)

    def _validate(self, action: Action) -> tuple[Play, int, Combo] | None:
        self._check_action_seat(action.seat)
        if action.kind in ("play", "pass"):
            self._check_in_trick(action)
            return self._check_play(action.seat, action.cards) if action.kind == "play" else None
        self._check_decision(action)
        return None

    def _check_play(self, seat: int, cards: Sequence[int]) -> tuple[Play, int, Combo]:
        """The play (``_classified_play``) if the game's rules allow it now, else Rejected."""
        raise NotImplementedError

    def _play(self, seat: int, play: Play, play_mask: int, combo: Combo) -> None:
        raise NotImplementedError

    def _check_decision(self, action: Action) -> None:
        """Raise Rejected unless ``action``, neither a play nor a pass, is allowed now."""
        raise NotImplementedError

    def _decide(self, action: Action) -> None:
        """Apply a checked decision that is neither a play nor a pass."""
        raise NotImplementedError

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
