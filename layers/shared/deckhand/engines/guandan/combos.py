"""Guandan combinations (RULES.md §4, §4.2): every reading of a play, and whether one reading beats another.

Cards are the ints of :mod:`deckhand.engines.common.cards` (``rank*4+suit``, ranks 3…A,2 = 0…12,
suits D,C,H,S = 0…3, BJ 52, RJ 53); two decks, so a play is a multiset. ``level`` is the rank index
of the level card (level "2" → 12, "3" → 0 …, "A" → 11); the heart level card ``level*4+2`` is wild.

A :class:`Reading` is what a player declares a play to be (§4: "the handset proposes every legal
reading and the player picks one"). Its ``rank`` is one int, comparable within a type at one level:

- single, pair, triple, full house (by its triple) and bomb: the face value 2…14 (2 lowest, A 14);
  the level rank is lifted above A to ``100 + face`` (§4 "level cards rank above A"); BJ 200, RJ 201.
- straight, pair straight, triple straight and straight flush: the face of the top card at its natural
  rank (§4 "in straights and chains a level card stands at its natural rank"): A2345 → 5, TJQKA → 14,
  AA2233 → 3, AAA222 → 2.
- four jokers: 0 (there is only one).

The encoding carries the rank token without the level (``100 + face`` names the level card), so a
reading goes to JSON and back on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Any, NamedTuple

from ...errors import DeckhandError
from ..common.cards import BLACK_JOKER, RED_JOKER


class Combo(IntEnum):
    """The ten combination types of §4 (seed 002 第四条)."""

    SINGLE = 0
    PAIR = 1
    TRIPLE = 2
    FULL_HOUSE = 3
    STRAIGHT = 4
    PAIR_STRAIGHT = 5
    TRIPLE_STRAIGHT = 6
    BOMB = 7
    STRAIGHT_FLUSH = 8
    JOKER_BOMB = 9

    @property
    def json_name(self) -> str:
        return self.name.lower()


class Reading(NamedTuple):
    """One reading of a play: its type, deciding strength (module docstring), card count, and the cards
    as read (each wild replaced by the card it stands for, sorted) — two readings of the same physical
    cards differ in ``cards``."""

    type: Combo
    rank: int
    size: int
    cards: tuple[int, ...]


LEVEL_LIFT = 100  # a level card's strength is LEVEL_LIFT + face: above A (14), below the jokers
BLACK_JOKER_RANK = 200
RED_JOKER_RANK = 201
JOKER_BOMB_RANK = 0
MIN_BOMB = 4
MAX_BOMB = 10  # eight natural cards of a rank plus both wilds
MAX_PLAY = MAX_BOMB

# Face value of each rank index 0…12 (3…A, 2): 2 is the lowest natural card (§4 rank order).
FACE: tuple[int, ...] = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2)
_FACE_TOKEN = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9"} | {
    10: "T",
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}
RANK_TOKENS = "3456789TJQKA2"
ACE = 11
TWO = 12
HEART = 2
SPADE = 3
JSON_NAMES: dict[str, Combo] = {c.json_name: c for c in Combo}
# Card count of every type but the bomb (whose size is its own).
FIXED_SIZE: dict[Combo, int] = {
    Combo.SINGLE: 1,
    Combo.PAIR: 2,
    Combo.TRIPLE: 3,
    Combo.FULL_HOUSE: 5,
    Combo.STRAIGHT: 5,
    Combo.PAIR_STRAIGHT: 6,
    Combo.TRIPLE_STRAIGHT: 6,
    Combo.STRAIGHT_FLUSH: 5,
    Combo.JOKER_BOMB: 4,
}
BOMB_TYPES = frozenset({Combo.BOMB, Combo.STRAIGHT_FLUSH, Combo.JOKER_BOMB})
# Sort key of a type: readings are listed by type name (the order), then strength.
NAME_ORDER: dict[Combo, int] = {c: i for i, c in enumerate(sorted(Combo, key=lambda c: c.json_name))}


def power_table(level: int) -> tuple[int, ...]:
    """Strength of a single card of each rank index 0…14 (13 BJ, 14 RJ) at this level."""
    return (
        *(LEVEL_LIFT + FACE[r] if r == level else FACE[r] for r in range(13)),
        BLACK_JOKER_RANK,
        RED_JOKER_RANK,
    )


POWERS: tuple[tuple[int, ...], ...] = tuple(power_table(level) for level in range(13))


class Window(NamedTuple):
    """A run of consecutive ranks for a sequence: its top face, rank indices bottom→top, and a mask."""

    top: int
    ranks: tuple[int, ...]
    mask: int
    sorted_ranks: tuple[int, ...]  # the same ranks by rank index (so their cards come out sorted)


def _rank_of_face(face: int) -> int:
    return ACE if face in (1, 14) else (TWO if face == 2 else face - 3)


def _windows(length: int) -> tuple[Window, ...]:
    """Every run of ``length`` faces within A(1),2,…,K,A(14): A may be low or high, never both (no wrap:
    JQKA2 and KKAA22 are no plays, §4.2)."""
    out = []
    for top in range(length, 15):
        ranks = tuple(_rank_of_face(f) for f in range(top - length + 1, top + 1))
        mask = 0
        for r in ranks:
            mask |= 1 << r
        out.append(Window(top, ranks, mask, tuple(sorted(ranks))))
    return tuple(out)


STRAIGHT_WINDOWS = _windows(5)  # tops 5 (A2345) … 14 (TJQKA)
PAIR_WINDOWS = _windows(3)  # tops 3 (AA2233) … 14 (QQKKAA)
TRIPLE_WINDOWS = _windows(2)  # tops 2 (AAA222) … 14 (KKKAAA)


def wild_of(level: int) -> int:
    """The heart level card, wild for any non-joker card of any suit (§4.2)."""
    return level * 4 + HEART


def free_pair_rank(triple: int, level: int) -> int:
    """What two wilds stand for as the pair of a full house beside a natural triple (333 + ♥L♥L).

    The pair never decides anything (a full house is compared by its triple), so one canonical reading:
    the wilds stand for themselves (a pair of level cards), or — when the triple is the level rank
    itself and a pair of it would make a bomb — the lowest other rank, 2 (3 when 2 is that rank)."""
    if triple != level:
        return level
    return TWO if triple != TWO else 0


def bomb_power(r: Reading) -> int:
    """Order of bombs (§4): 4 < 5 < straight flush < 6 < … < 10 < four jokers, then rank; 0 for non-bombs."""
    t = r.type
    if t == Combo.BOMB:
        return (r.size * 2 + (r.size > 5)) * 1000 + r.rank
    if t == Combo.STRAIGHT_FLUSH:
        return 11 * 1000 + r.rank
    if t == Combo.JOKER_BOMB:
        return 30 * 1000
    return 0


def beats(play: Reading, prev: Reading) -> bool:
    """Whether ``play`` may be played on ``prev`` (§4, seed 第八条): any bomb beats any non-bomb, bombs by
    :func:`bomb_power`, other plays only the same type and size with a higher rank."""
    p = bomb_power(play)
    q = bomb_power(prev)
    if p or q:
        return p > q
    return play.type == prev.type and play.size == prev.size and play.rank > prev.rank


def sort_key(r: Reading) -> tuple[int, int, int, tuple[int, ...]]:
    """Type name, then strength (bombs by size first), then the cards as read."""
    return (NAME_ORDER[r.type], r.size, r.rank, r.cards)


def _same_suit(cards: Sequence[int]) -> int:
    """The one suit of these non-joker cards, or -1 when they mix suits."""
    suit = cards[0] & 3
    for c in cards:
        if c & 3 != suit:
            return -1
    return suit


def readings(cards: Sequence[int], level: int) -> list[Reading]:
    """Every distinct reading of exactly these cards at this level, sorted by type name then strength.

    Decisions (§4.2): a wild stands for any non-joker card of any suit, but only beside a natural card
    (♥L alone is a single level card, ♥L♥L a pair of them); five natural cards of one suit in a row are
    a straight flush only; five or more of a rank are a bomb, never a full house; a full house may
    carry a pair of identical jokers. Readings that differ only in cards that decide nothing (the suit
    a wild takes outside a straight flush, the rank of a free pair) are one reading.
    """
    n = len(cards)
    if n == 0 or n > MAX_PLAY:
        return []
    wild = level * 4 + HEART
    power = POWERS[level]
    nat = sorted(c for c in cards if c != wild)
    w = n - len(nat)
    if not nat:
        if n == 1:
            return [Reading(Combo.SINGLE, power[level], 1, (wild,))]
        if n == 2:
            return [Reading(Combo.PAIR, power[level], 2, (wild, wild))]
        return []
    # Rank counts of the natural cards (13 BJ, 14 RJ).
    counts = [0] * 15
    mask = 0
    for c in nat:
        r = c >> 2 if c < BLACK_JOKER else c - 39
        counts[r] += 1
        mask |= 1 << r
    jokers = mask >> 13
    single_rank = mask & (mask - 1) == 0
    out: list[Reading] = []
    top_rank = nat[0] >> 2 if nat[0] < BLACK_JOKER else nat[0] - 39
    if n == 1:
        out.append(Reading(Combo.SINGLE, power[top_rank], 1, (nat[0],)))
    elif n <= 3:
        if single_rank and (not jokers or (n == 2 and w == 0)):
            kind = Combo.PAIR if n == 2 else Combo.TRIPLE
            out.append(Reading(kind, power[top_rank], n, _fill(nat, w, top_rank)))
    else:
        if n == 4 and w == 0 and nat == [BLACK_JOKER, BLACK_JOKER, RED_JOKER, RED_JOKER]:
            out.append(Reading(Combo.JOKER_BOMB, JOKER_BOMB_RANK, 4, tuple(nat)))
        if single_rank and not jokers:
            out.append(Reading(Combo.BOMB, power[top_rank], n, _fill(nat, w, top_rank)))
        if n == 5:
            _full_houses(nat, w, counts, mask, level, power, out)
            if not jokers and max(counts) == 1:
                _straights(nat, w, mask, out)
        elif n == 6 and not jokers:
            _chains(counts, w, mask, 2, PAIR_WINDOWS, Combo.PAIR_STRAIGHT, nat, out)
            _chains(counts, w, mask, 3, TRIPLE_WINDOWS, Combo.TRIPLE_STRAIGHT, nat, out)
    if len(out) > 1:
        out.sort(key=sort_key)
    return out


def _fill(nat: Sequence[int], w: int, rank: int) -> tuple[int, ...]:
    """The natural cards plus ``w`` wilds read as hearts of ``rank`` (suit decides nothing here)."""
    if not w:
        return tuple(nat)
    return tuple(sorted([*nat, *([rank * 4 + HEART] * w)]))


def _full_houses(
    nat: list[int],
    w: int,
    counts: list[int],
    mask: int,
    level: int,
    power: tuple[int, ...],
    out: list[Reading],
) -> None:
    """Triple + pair, compared by the triple (§4); a pair of identical jokers allowed, wilds never jokers."""
    ranks = [r for r in range(15) if mask >> r & 1]
    if len(ranks) == 1:
        t = ranks[0]
        if counts[t] == 3 and t < 13:  # ttt + two wilds: the free pair (free_pair_rank)
            p = free_pair_rank(t, level)
            out.append(Reading(Combo.FULL_HOUSE, power[t], 5, _fill2(nat, t, 0, p, 2)))
        return
    if len(ranks) != 2:
        return
    for t, p in ((ranks[0], ranks[1]), (ranks[1], ranks[0])):
        kt, kp = counts[t], counts[p]
        if t >= 13 or kt > 3 or kp > 2 or (p >= 13 and kp != 2):
            continue
        out.append(Reading(Combo.FULL_HOUSE, power[t], 5, _fill2(nat, t, 3 - kt, p, 2 - kp)))


def _fill2(nat: Sequence[int], t: int, wt: int, p: int, wp: int) -> tuple[int, ...]:
    return tuple(sorted([*nat, *([t * 4 + HEART] * wt), *([p * 4 + HEART] * wp)]))


def _straights(nat: list[int], w: int, mask: int, out: list[Reading]) -> None:
    """Exactly five in a row (§4): a straight, and a straight flush when the natural cards share a suit;
    without a wild a one-suit run is the straight flush only (§4.2)."""
    suit = _same_suit(nat)
    for win in STRAIGHT_WINDOWS:
        if mask & ~win.mask:
            continue
        gaps = [r for r in win.ranks if not mask >> r & 1]
        if suit >= 0:
            out.append(
                Reading(
                    Combo.STRAIGHT_FLUSH, win.top, 5, tuple(sorted([*nat, *(r * 4 + suit for r in gaps)]))
                )
            )
        if w or suit < 0:
            # A wild read as a heart, or as a spade when every natural card is a heart (else a flush).
            fill = SPADE if suit == HEART else HEART
            out.append(
                Reading(Combo.STRAIGHT, win.top, 5, tuple(sorted([*nat, *(r * 4 + fill for r in gaps)])))
            )


def _chains(
    counts: list[int],
    w: int,
    mask: int,
    width: int,
    windows: tuple[Window, ...],
    kind: Combo,
    nat: list[int],
    out: list[Reading],
) -> None:
    """Three consecutive pairs or two consecutive triples, exactly (§4), wilds filling the gaps."""
    if max(counts) > width:
        return
    for win in windows:
        if mask & ~win.mask:
            continue
        fill = [r * 4 + HEART for r in win.ranks for _ in range(width - counts[r])]
        out.append(Reading(kind, win.top, 6, tuple(sorted([*nat, *fill])) if fill else tuple(nat)))


# --------------------------------------------------------------------------------------------- JSON


def rank_token(r: Reading) -> str | None:
    """The issue's rank token: "9", "T", "A" …, "BJ"/"RJ" for single jokers, None for four jokers."""
    if r.type == Combo.JOKER_BOMB:
        return None
    if r.rank >= BLACK_JOKER_RANK:
        return "BJ" if r.rank == BLACK_JOKER_RANK else "RJ"
    return _FACE_TOKEN[r.rank - LEVEL_LIFT if r.rank > LEVEL_LIFT else r.rank]


def reading_to_json(r: Reading) -> dict[str, Any]:
    """``{"type": "straight", "rank": "9"}``; a bomb also has ``"size"`` (its order depends on it)."""
    out: dict[str, Any] = {"type": r.type.json_name, "rank": rank_token(r)}
    if r.type == Combo.BOMB:
        out["size"] = r.size
    return out


def _parse_rank_token(token: object, what: str) -> int:
    """A rank token to its rank index (13/14 for BJ/RJ)."""
    if not isinstance(token, str):
        raise DeckhandError(f"{what} must be a rank token such as '9' or 'BJ', got {token!r}")
    text = token.strip().upper()
    if text == "10":
        text = "T"
    if text in ("BJ", "RJ"):
        return 13 if text == "BJ" else 14
    if len(text) != 1 or text not in RANK_TOKENS:
        raise DeckhandError(f"{what} must be a rank token 2…9, T, J, Q, K, A, BJ or RJ, got {token!r}")
    return RANK_TOKENS.index(text)


def reading_from_json(d: object, level: int, field: str = "prev") -> Reading:
    """A reading declared in JSON (``prev`` of the ``beats`` op, a player's chosen reading) at this level.

    It has no cards (``cards == ()``); the error names ``field`` and the part that is wrong."""
    if not isinstance(d, dict):
        raise DeckhandError(f"{field!r} must be an object such as {{'type': 'pair', 'rank': '9'}}")
    name = d.get("type")
    kind = JSON_NAMES.get(name) if isinstance(name, str) else None
    if kind is None:
        raise DeckhandError(f"{field}.type must be one of {', '.join(sorted(JSON_NAMES))}, got {name!r}")
    size = d.get("size")
    if kind == Combo.BOMB:
        if not isinstance(size, int) or isinstance(size, bool) or not MIN_BOMB <= size <= MAX_BOMB:
            raise DeckhandError(f"{field}.size of a bomb must be an int {MIN_BOMB}…{MAX_BOMB}, got {size!r}")
    else:
        fixed = FIXED_SIZE[kind]
        if size is not None and size != fixed:
            raise DeckhandError(f"{field}.size of a {kind.json_name} must be {fixed}, got {size!r}")
        size = fixed
    token = d.get("rank")
    if kind == Combo.JOKER_BOMB:
        if token is not None:
            raise DeckhandError(f"{field}.rank of joker_bomb must be null, got {token!r}")
        return Reading(kind, JOKER_BOMB_RANK, 4, ())
    r = _parse_rank_token(token, f"{field}.rank")
    if r >= 13 and kind not in (Combo.SINGLE, Combo.PAIR):
        raise DeckhandError(f"{field}.rank {token!r}: only a single or a pair can be jokers")
    if kind in (Combo.STRAIGHT, Combo.STRAIGHT_FLUSH, Combo.PAIR_STRAIGHT, Combo.TRIPLE_STRAIGHT):
        lowest = {Combo.PAIR_STRAIGHT: 3, Combo.TRIPLE_STRAIGHT: 2}.get(kind, 5)
        face = FACE[r]
        if face < lowest:
            raise DeckhandError(f"{field}.rank {token!r}: no {kind.json_name} has that top card")
        return Reading(kind, face, size, ())
    return Reading(kind, POWERS[level][r], size, ())
