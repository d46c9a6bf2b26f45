"""The trick plumbing every climbing game shares: play or pass in turn, the trick cleared once everyone
else has passed, the end of the board, and a clock built from the board's default action.

A climbing board (each play must beat the last; a pass lets it stand) keeps its trick in the same
fields — ``last``, ``last_seat``, ``passes``, ``trick`` — so the handling of them lives here once and
each game's board keeps only its own rules: its combinations, who acts next, how a board ends.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..contract import Action, Rejected, Timing
from .board import END, GameBoard
from .cards import format_cards

PLAY = "play"
NO_SEAT = -1

Play = tuple[int, ...]


def trick_json(trick: Sequence[tuple[int, Play]]) -> list[dict[str, Any]]:
    """The trick so far in a seat's view: each play (a pass is no cards) with its seat."""
    return [{"seat": s, "cards": format_cards(p)} for s, p in trick]


def read_trick(
    items: list[dict[str, Any]], cards: Callable[[list[str]], Play]
) -> tuple[tuple[int, Play], ...]:
    """The trick from a view (``trick_json``), its cards read by the game's own reader."""
    return tuple((t["seat"], cards(t["cards"])) for t in items)


def last_json(last: Play, seat: int) -> dict[str, Any] | None:
    """The play to beat in a seat's view, with its seat; null when the next play leads."""
    return {"seat": seat, "cards": format_cards(last)} if last else None


def read_last(item: dict[str, Any] | None, cards: Callable[[list[str]], Play]) -> tuple[Play, int]:
    """The play to beat and its seat from a view (``last_json``)."""
    return (cards(item["cards"]), item["seat"]) if item else ((), NO_SEAT)


def seat_json(seat: int) -> int | None:
    """A seat in a view's JSON: null where there is none (``NO_SEAT``: no winner yet, no turn)."""
    return None if seat < 0 else seat


def read_seat(value: int | None) -> int:
    """A seat from a view (``seat_json``)."""
    return NO_SEAT if value is None else value


class TrickBoard(GameBoard):
    """A climbing board's trick state and the handling of it; a game's board sets these fields
    (``_clear_trick`` at the start) and supplies ``_validate`` and ``default_action``."""

    decision_ms: int  # the clock of a decision with a default (``timing``), unless a game times its own
    turn: int
    last: Play
    last_seat: int
    passes: int
    trick: list[tuple[int, Play]]
    winner: int  # in games won by the first seat out of cards (``_won_or_next``)

    # -- queries ---------------------------------------------------------------------------------

    def default_action(self, seat: int) -> Action | None:
        raise NotImplementedError

    def timing(self, seat: int) -> Timing | None:
        """A decision with a default is taken after ``decision_ms``; a decision without one has no clock."""
        default = self.default_action(seat)
        return Timing(self.decision_ms, default) if default else None

    def _with_pass(self, seat: int, plays: list[Action]) -> list[Action]:
        """A seat's legal actions in play: its plays, and a pass when following (a leader must play)."""
        if self.last:
            plays.append(Action(seat, "pass"))
        return plays

    # -- checks ----------------------------------------------------------------------------------

    def _validate(self, action: Action) -> Any:
        """The checked action (what applying it needs) or Rejected; never changes the board."""
        raise NotImplementedError

    def check(self, action: Action) -> None:
        """Raise Rejected if ``action`` is not allowed now; never changes the board."""
        self._validate(action)

    def _check_turn(self, seat: int) -> None:
        if seat != self.turn:
            raise Rejected("not_your_turn", f"it is seat {self.turn}'s turn, not seat {seat}'s")

    def _check_in_trick(self, action: Action, lead_pass: bool = False) -> None:
        """A play or a pass: only in the play phase, on the seat's turn, and a pass only when following
        (``lead_pass``: a pass that loses the lead, the platform's default on a clock)."""
        if self.phase != PLAY:
            raise Rejected("phase_closed", f"cards are not played in the {self.phase} phase")
        self._check_turn(action.seat)
        if action.kind == "pass" and not self.last and not lead_pass:
            raise Rejected("cannot_pass_lead", "the leader must play; passing is only allowed when following")

    def _not_a_combination(self, play: Play) -> Rejected:
        return Rejected(
            "not_a_combination", f"{' '.join(format_cards(play))} is not a {self.name} combination"
        )

    # -- the trick -------------------------------------------------------------------------------

    def _trick_state(self) -> dict[str, Any]:
        """The trick's fields in a stored state (``_load_trick`` reads them back)."""
        return {
            "l": list(self.last),
            "ls": self.last_seat,
            "n": self.passes,
            "k": [[s, list(p)] for s, p in self.trick],
        }

    def _load_trick(self, data: dict[str, Any]) -> None:
        self.last = tuple(data["l"])
        self.last_seat = data["ls"]
        self.passes = data["n"]
        self.trick = [(s, tuple(p)) for s, p in data["k"]]

    def _clear_trick(self) -> None:
        """No play to beat: the next play leads."""
        self.last = ()
        self.last_seat = NO_SEAT
        self.passes = 0
        self.trick = []

    def _record_play(self, seat: int, play: Play) -> None:
        """``play`` is the one to beat now."""
        self.last = play
        self.last_seat = seat
        self.passes = 0
        self.trick.append((seat, play))

    def _record_pass(self, seat: int, needed: int) -> int:
        """A pass; once ``needed`` seats have passed the last play the trick is cleared and its player
        returned (the one who leads next, as the game says), else NO_SEAT."""
        self.trick.append((seat, ()))
        self.passes += 1
        if self.passes < needed:
            return NO_SEAT
        won = self.last_seat
        self._clear_trick()
        return won

    def _pass(self, seat: int) -> bool:
        """Seats act in turn; when everyone else has passed, the last play's player leads a new trick.
        True when this pass ended the trick."""
        won = self._record_pass(seat, self.seats - 1)
        self.turn = (seat + 1) % self.seats if won == NO_SEAT else won
        return won != NO_SEAT

    def _won_or_next(self, seat: int, hand_left: int) -> None:
        """After a play: the first seat out of cards wins the board; otherwise the next seat acts."""
        if not hand_left:
            self.phase = END
            self.winner = seat
            self.turn = NO_SEAT
        else:
            self.turn = (seat + 1) % self.seats
