"""Cards under a trump (RULES.md §0, §5): effective suit, strength and the tractor chain.

A context (:class:`Trump`) is the level, the trump suit (None for no trump) and the preset's
:class:`~.options.LevelChain`. Every card gets an *effective suit* (its suit, or :data:`TRUMP`) and a
*strength* within it, precomputed per context, so the play rules never re-derive the trump order:

- plain cards (neither jokers nor level cards), trump or side: 0…11, the level rank skipped (the
  "level gap closes": playing 8, 7 and 9 are adjacent);
- off-suit level cards 12 (equal to each other: "平等级牌" never pair up or chain together), the
  trump-suit level card 13, BJ 14, RJ 15.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from ..common.cards import BLACK_JOKER, RED_JOKER, rank_of, suit_of
from .options import LevelChain

TRUMP = 4  # the effective suit of every trump card
SUIT_LETTERS = "DCHST"  # by effective suit index; "T" is trump
TIE_ORDER = {3: 0, 2: 1, 1: 2, 0: 3, -1: 0}  # equal strengths list S, H, C, D
OFF_LEVEL = 12
TRUMP_LEVEL = 13
BJ_STRENGTH = 14
RJ_STRENGTH = 15


def natural(card: int) -> int:
    """The natural rank 2…14 of a suited card (jokers: 15, 16)."""
    r = rank_of(card)
    if r == 12:
        return 2
    return r + 3 if r < 12 else r + 2


def points(cards: Iterable[int]) -> int:
    """Card points: 5 = 5, T and K = 10 (RULES.md §5)."""
    total = 0
    for c in cards:
        if c < BLACK_JOKER:
            n = natural(c)
            total += 5 if n == 5 else 10 if n in (10, 13) else 0
    return total


def parse_suit(token: object) -> int | None:
    """A trump token: a suit letter S, H, C, D, or None (no trump)."""
    if token is None:
        return None
    if isinstance(token, str) and token.strip().upper() in ("S", "H", "C", "D"):
        return "DCHS".index(token.strip().upper())
    raise ValueError(f"'trump' must be S, H, C, D or null, got {token!r}")


@dataclass(frozen=True)
class Trump:
    """A board's trump context; build it with :func:`trump` (cached)."""

    level: int  # natural rank 2…14
    suit: int | None  # 0…3 (D, C, H, S) or None for no trump
    chain: LevelChain
    eff: tuple[int, ...] = field(init=False, repr=False, compare=False)
    strength: tuple[int, ...] = field(init=False, repr=False, compare=False)
    up: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        eff: list[int] = []
        strength: list[int] = []
        for card in range(54):
            if card == BLACK_JOKER:
                eff.append(TRUMP)
                strength.append(BJ_STRENGTH)
            elif card == RED_JOKER:
                eff.append(TRUMP)
                strength.append(RJ_STRENGTH)
            else:
                n, s = natural(card), suit_of(card)
                if n == self.level:
                    eff.append(TRUMP)
                    strength.append(TRUMP_LEVEL if s == self.suit else OFF_LEVEL)
                else:
                    eff.append(TRUMP if s == self.suit else s)
                    strength.append(n - 2 - (1 if n > self.level else 0))
        object.__setattr__(self, "eff", tuple(eff))
        object.__setattr__(self, "strength", tuple(strength))
        # next strength up the chain, per effective suit (-1: none)
        side = tuple(v + 1 if v < 11 else -1 for v in range(16))
        trump_up = list(side)
        if self.chain is LevelChain.THROUGH_TRUMP and self.level != 2 and self.suit is not None:
            trump_up[11] = OFF_LEVEL  # top plain trump → off-suit level (AA22 never)
        trump_up[OFF_LEVEL] = TRUMP_LEVEL if self.suit is not None else BJ_STRENGTH
        trump_up[TRUMP_LEVEL] = BJ_STRENGTH
        trump_up[BJ_STRENGTH] = RJ_STRENGTH
        trump_up[RJ_STRENGTH] = -1
        object.__setattr__(self, "up", (side, side, side, side, tuple(trump_up)))

    def is_trump(self, card: int) -> bool:
        return self.eff[card] == TRUMP

    def order_key(self, card: int) -> tuple[int, int, int]:
        """Sort key, higher = stronger: trump above side suits, then strength, then S, H, C, D."""
        return (self.eff[card] == TRUMP, self.strength[card], -TIE_ORDER[suit_of(card)])

    def display_key(self, card: int) -> tuple[int, int, int]:
        """Sort key of the calculator's ``order`` and the handset (descending): the trump block first,
        strongest first (equal strengths S, H, C, D), then the side suits as blocks S, H, C, D, each
        from A down to 2 without the level rank — the way a handset shows a hand."""
        if self.eff[card] == TRUMP:
            return (1, self.strength[card], -TIE_ORDER[suit_of(card)])
        return (0, suit_of(card), self.strength[card])

    def ordered(self, cards: Iterable[int]) -> list[int]:
        """Cards in display order (:meth:`display_key`): trump highest first, then S, H, C, D blocks."""
        return sorted(cards, key=self.display_key, reverse=True)

    def suit_letter(self, card: int) -> str:
        return SUIT_LETTERS[self.eff[card]]


@lru_cache(maxsize=256)
def trump(level: int, suit: int | None, chain: LevelChain) -> Trump:
    """The (cached) trump context of a board."""
    return Trump(level, suit, chain)
