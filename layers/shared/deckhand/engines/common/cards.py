"""Card tokens (RULES.md §0) and the compact integer form every engine works on.

A card is an int: ``rank * 4 + suit`` with ranks ordered 3,4,…,K,A,2 (index 0…12) and suits
D,C,H,S (0…3), so for Big Two the integer order *is* the single-card order and D3 is 0.
The black joker is 52 and the red joker 53. Two-deck games repeat ints: a hand is a multiset.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ...errors import CardError

RANKS = "3456789TJQKA2"
SUITS = "DCHS"
BLACK_JOKER = 52
RED_JOKER = 53
JOKERS = (BLACK_JOKER, RED_JOKER)

_SUIT_ALIASES = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}
TOKENS: tuple[str, ...] = tuple(s + r for r in RANKS for s in SUITS) + ("BJ", "RJ")
_BY_TOKEN: dict[str, int] = {tok: i for i, tok in enumerate(TOKENS)}


def rank_of(card: int) -> int:
    """Rank index 0…12 (3…2); jokers give 13 (BJ) and 14 (RJ) so they sort above every rank."""
    return card >> 2 if card < BLACK_JOKER else card - 39


def suit_of(card: int) -> int:
    """Suit index 0…3 (D, C, H, S); jokers have no suit and give -1."""
    return card & 3 if card < BLACK_JOKER else -1


def parse_card(token: object) -> int:
    """One token to its int; case-insensitive, ``10`` for ``T``, suit symbols allowed."""
    if not isinstance(token, str):
        raise CardError(f"card token must be a string, got {token!r}")
    text = token.strip().upper()
    if text and text[0] in _SUIT_ALIASES:
        text = _SUIT_ALIASES[text[0]] + text[1:]
    if len(text) == 3 and text[1:] == "10":
        text = text[0] + "T"
    card = _BY_TOKEN.get(text)
    if card is None:
        raise CardError(f"unknown card token {token!r}")
    return card


def format_card(card: int) -> str:
    """The canonical token of a card int."""
    if not 0 <= card < len(TOKENS):
        raise CardError(f"not a card: {card!r}")
    return TOKENS[card]


def parse_cards(tokens: object, *, decks: int = 1, jokers: bool = False) -> list[int]:
    """Tokens to ints, checking each card appears at most ``decks`` times and jokers are allowed."""
    if not isinstance(tokens, list | tuple):
        raise CardError(f"cards must be a list of tokens, got {tokens!r}")
    cards = [parse_card(t) for t in tokens]
    check_cards(cards, decks=decks, jokers=jokers)
    return cards


def format_cards(cards: Iterable[int]) -> list[str]:
    return [format_card(c) for c in cards]


def check_cards(cards: Iterable[int], *, decks: int = 1, jokers: bool = False) -> None:
    """Raise a CardError naming the first card that cannot be in one hand of this game."""
    counts = Counter(cards)
    for card, n in sorted(counts.items()):
        if not jokers and card >= BLACK_JOKER:
            raise CardError(f"{format_card(card)} is not used in this game")
        if n > decks:
            what = "once" if decks == 1 else f"{decks} times"
            deck_word = "one-deck" if decks == 1 else f"{decks}-deck"
            raise CardError(
                f"card {format_card(card)} appears {n} times; a {deck_word} game has it at most {what}"
            )


def check_count(cards: Sequence[int], expected: int, what: str = "hand") -> None:
    if len(cards) != expected:
        raise CardError(f"{what} must have {expected} cards, got {len(cards)}")


def make_deck(*, decks: int = 1, jokers: bool = False) -> list[int]:
    """Every card of the game in ascending order (each repeated ``decks`` times)."""
    one = list(range(54 if jokers else 52))
    return [c for c in one for _ in range(decks)]


def mask_of(cards: Iterable[int]) -> int:
    """A one-deck card set as a bit mask (bit i = card i): fast membership and removal."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


# _CHUNKS[k][b]: the cards of byte value ``b`` at byte ``k`` of a mask (bits 8k…8k+7), made once.
_CHUNKS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256)) for k in range(7)
)


_C0, _C1, _C2, _C3, _C4, _C5, _C6 = _CHUNKS


def cards_of(mask: int) -> list[int]:
    """The cards of a bit mask in ascending order, a byte at a time from a table: views and states
    turn masks into cards on every action."""
    if mask >> 56 == 0:
        return [
            *_C0[mask & 255],
            *_C1[mask >> 8 & 255],
            *_C2[mask >> 16 & 255],
            *_C3[mask >> 24 & 255],
            *_C4[mask >> 32 & 255],
            *_C5[mask >> 40 & 255],
            *_C6[mask >> 48],
        ]
    out = []  # beyond one deck's 54 bits: not a card, but listed as ever
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
