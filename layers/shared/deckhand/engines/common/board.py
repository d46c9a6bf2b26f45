"""The bookkeeping every game's board does alike, whatever its rules: a seat checked against the table,
a seat's view as JSON from the typed view its bot reads, a board over once its phase is ``end``."""

from __future__ import annotations

from typing import Any, Protocol

from ...errors import DeckhandError
from ..contract import Rejected
from .state import StoredBoard, check_seat

END = "end"

# The claims a referee may uphold on any two-player board game, besides a game's own ``claims``: a
# player who does not appear (``forfeit``) and a claim the rules leave to the referee (``other``).
COMMON_CLAIMS = ("forfeit", "other")


class SeatViewJson(Protocol):
    """A game's typed seat view: what its bot decides from, sent to the seat's device as JSON."""

    def to_dict(self) -> dict[str, Any]: ...


class GameBoard(StoredBoard):
    """A board of ``seats`` seats in a ``phase`` (``END`` once over); a game's board supplies
    ``seat_view`` and its own actions."""

    seats: int  # set by each game's board class
    phase: str
    claims: tuple[str, ...] = ()  # the game's own claims a referee may uphold (RULES.md), by name

    def adjudicate(self, claim: str, winner: int | None) -> None:
        """A referee upholds ``claim``: the game ends, won by seat ``winner`` (None: drawn), its
        ``why`` the claim. Rejected (nothing changed) for a claim the game does not know, a seat that
        is none, or a board that is over."""
        self._check_open()
        if claim not in (*COMMON_CLAIMS, *self.claims):
            known = ", ".join((*COMMON_CLAIMS, *self.claims))
            raise Rejected("unknown_claim", f"{self.name} knows the claims {known}; not {claim!r}")
        if winner is not None:
            self._check_action_seat(winner)
        self._ruled(winner, claim)

    def _ruled(self, winner: int | None, why: str) -> None:
        """End the game as a referee ruled: each game that takes rulings says how."""
        raise Rejected("no_rulings", f"a {self.name} board takes no referee's ruling")

    @property
    def finished(self) -> bool:
        return self.phase == END

    @property
    def deal_index(self) -> int:
        return 0  # no redeals, unless a game says otherwise

    def seat_view(self, seat: int) -> SeatViewJson:
        raise NotImplementedError

    def view(self, seat: int) -> dict[str, Any]:
        return self.seat_view(seat).to_dict()

    def _check_seat(self, seat: int) -> None:
        check_seat(seat, self.seats)

    def _check_action_seat(self, seat: Any) -> None:
        """An action's seat, as a device or a referee sent it: refused, not raised, when it is none."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.seats:
            raise Rejected("bad_seat", f"seat must be 0..{self.seats - 1}, got {seat!r}")

    def _check_open(self) -> None:
        """Once a board is over it takes no action, not even a referee's."""
        if self.phase == END:
            raise Rejected("phase_closed", "the board has ended")

    def _check_ended(self) -> None:
        """A result is read only from a board that is over."""
        if self.phase != END:
            raise DeckhandError("the board has not ended")

    @classmethod
    def _check_no_carry(cls, carry: dict[str, Any] | None) -> None:
        """A game whose boards stand alone (a duplicate field's) starts each from its deal only."""
        if carry is not None:
            raise DeckhandError(f"a {cls.name} board starts from its deal alone; it takes no carry")
