"""What every two-player board game says the same way, written once: the words besides a move
(resign, offer a draw, accept the other side's) and a game's scores and match points."""

from __future__ import annotations

from ..contract import Action


def resign_or_draw(seat: int, offered_by: int | None) -> list[Action]:
    """Resign, and offer a draw or accept the one the other side offered (``offered_by``: the seat
    that offered, None or negative when nobody has)."""
    words = [Action(seat, "resign")]
    if offered_by is None or offered_by < 0:
        words.append(Action(seat, "offer"))
    elif offered_by != seat:
        words.append(Action(seat, "accept"))
    return words


def scores_and_points(winner: int | None, seats: int = 2) -> tuple[list[int], list[float]]:
    """``scores`` +1/−1 (0 each when drawn) and ``points`` the match's 1 / ½ / 0 (``winner`` None or
    negative: drawn)."""
    if winner is None or winner < 0:
        return [0] * seats, [0.5] * seats
    return [1 if s == winner else -1 for s in range(seats)], [
        1.0 if s == winner else 0.0 for s in range(seats)
    ]
