"""Turning a shuffled card order into hands the way a dealer (or an automatic dealing table) does."""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import CardError


def deal_round_robin(order: Sequence[int], seats: int, hand_size: int) -> tuple[list[list[int]], list[int]]:
    """One card to each seat in turn, starting with seat 0; what is left over is the kitty.

    The physical dealing table deals in exactly this order, so hands and card order agree.
    """
    needed = seats * hand_size
    if len(order) < needed:
        raise CardError(f"a deal of {seats}×{hand_size} needs {needed} cards, got {len(order)}")
    hands: list[list[int]] = [sorted(order[s:needed:seats]) for s in range(seats)]
    return hands, list(order[needed:])
