"""Following a lead, longest run first (RULES.md §5.1 "following", issue 34), checked by brute force.

The checker below knows only the rules: the trump order and the tractor chain written out per preset
as lists of slots, every run of pairs found by trying every sequence of pairs, and every play of a small
hand tried. A follow is legal when it keeps to the led suit as far as the hand allows and, holding more
of the suit than the lead's count, its matching (the run lengths given to the led tractors in order,
compared lexicographically, then the pairs) is the best of all the plays of the hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import pytest
from deckhand.engines.common.cards import BLACK_JOKER, RED_JOKER, parse_cards, suit_of
from deckhand.engines.shengji.cards import natural, trump
from deckhand.engines.shengji.combos import (
    FollowError,
    Kind,
    decompose,
    follow_error,
    kitty_multiplier,
    throw_failures,
    trick_winner,
)
from deckhand.engines.shengji.legal import follows
from deckhand.engines.shengji.options import LevelChain

S, H, C, D = 3, 2, 1, 0


def cs(text: str) -> list[int]:
    return parse_cards(text.split(), decks=2, jokers=True)


# --- the brute-force checker -------------------------------------------------------------------


def chains(level: int, suit: int | None, chain: LevelChain) -> dict[int, list[list[int]]]:
    """Per effective suit (0…3, 4 = trump) the chains of slots, lowest first; a slot is the cards of one
    strength (the off-suit level cards share one)."""

    def plain(s: int) -> list[list[int]]:
        return [
            [c] for n in range(2, 15) if n != level for c in range(52) if suit_of(c) == s and natural(c) == n
        ]

    off = [c for c in range(52) if natural(c) == level and suit_of(c) != suit]
    top = [[c for c in range(52) if natural(c) == level and suit_of(c) == suit]] if suit is not None else []
    levels = [off, *top, [BLACK_JOKER], [RED_JOKER]]
    out = {s: [plain(s)] for s in range(4) if s != suit}
    if suit is None:
        out[4] = [levels]
    elif chain is LevelChain.THROUGH_TRUMP and level != 2:
        out[4] = [plain(suit) + levels]  # trump A → off-suit level → trump level → BJ → RJ
    else:  # 004: level cards never chain with plain trump; 003 playing 2: AA22 never
        out[4] = [plain(suit), levels]  # level cards never chain with plain trump
    return out


def eff_suit(card: int, level: int, suit: int | None) -> int:
    if card >= BLACK_JOKER or natural(card) == level or suit_of(card) == suit:
        return 4
    return suit_of(card)


def all_runs(pairs: Sequence[int], slots: list[list[list[int]]]) -> list[tuple[int, ...]]:
    """Every run of two or more pairs: distinct pair cards in consecutive slots of one chain."""
    where = {c: (i, j) for i, ch in enumerate(slots) for j, slot in enumerate(ch) for c in slot}
    runs: list[tuple[int, ...]] = []

    def grow(run: tuple[int, ...]) -> None:
        if len(run) >= 2:
            runs.append(run)
        i, j = where[run[-1]]
        for c in pairs:
            if c not in run and where[c] == (i, j + 1):
                grow((*run, c))

    for c in pairs:
        grow((c,))
    return runs


def profile(cards: Sequence[int], demands: Sequence[int], slots: list[list[list[int]]]) -> tuple[int, ...]:
    """The best run lengths the cards give the led tractors (each in order, runs one after another)."""
    pairs = [c for c, n in Counter(cards).items() if n >= 2]
    runs = all_runs(pairs, slots)

    def go(used: frozenset[int], i: int, left: int) -> tuple[int, ...]:
        if i >= len(demands):
            return ()
        best = go(used, i + 1, demands[i + 1]) if i + 1 < len(demands) else ()
        for run in runs:
            if len(run) <= left and not used & set(run):
                rest = used | set(run)
                tail = (
                    go(rest, i, left - len(run))
                    if left - len(run) >= 2
                    else (go(rest, i + 1, demands[i + 1]) if i + 1 < len(demands) else ())
                )
                best = max(best, (len(run), *tail))
        return best

    return go(frozenset(), 0, demands[0]) if demands else ()


def brute_follows(
    lead: Sequence[int], hand: Sequence[int], level: int, suit: int | None, chain: LevelChain
) -> set[tuple[int, ...]]:
    n = len(lead)
    led = eff_suit(lead[0], level, suit)
    slots = chains(level, suit, chain)[led]
    comps = decompose(lead, trump(level, suit, chain))
    demands = sorted((c.pairs for c in comps if c.kind is Kind.TRACTOR), reverse=True)
    led_pairs = sum(c.pairs if c.kind is Kind.TRACTOR else 1 for c in comps if c.kind is not Kind.SINGLE)
    held = sum(1 for c in hand if eff_suit(c, level, suit) == led)
    plays = {tuple(sorted(p)) for p in combinations(sorted(hand), n)}
    valid = [p for p in plays if sum(1 for c in p if eff_suit(c, level, suit) == led) == min(n, held)]
    if held <= n:
        return set(valid)

    def rank(p: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
        pairs = sum(1 for c, k in Counter(p).items() if k >= 2)
        return profile(p, demands, slots), min(pairs, led_pairs)

    best = max(rank(p) for p in valid)
    return {p for p in valid if rank(p) == best}


# --- random small hands --------------------------------------------------------------------------


def random_case(rng: random.Random, chain: LevelChain) -> tuple[list[int], list[int], int, int | None]:
    level = rng.choice([2, 5, 8, 14])
    suit = rng.choice([S, H, C, D, None])
    led = rng.choice([4, 4, 4] + [s for s in range(4) if s != suit])
    pool = [c for c in range(54) if eff_suit(c, level, suit) == led]
    other = [c for c in range(54) if eff_suit(c, level, suit) != led]
    order = [c for ch in chains(level, suit, chain)[led] for slot in ch for c in slot]
    start = rng.randrange(max(1, len(order) - 8))
    window = order[start : start + 8]  # pairs near each other make runs
    hand: list[int] = []
    for c in rng.sample(window, min(len(window), rng.randint(3, 6))):
        hand += [c, c]
    singles = [c for c in pool if c not in hand]
    hand += rng.sample(singles, min(2, len(singles)))
    hand += rng.sample(other, rng.randint(0, 2))
    hand = hand[:12]
    lead: list[int] = []
    first = rng.randrange(max(1, len(order) - 4))
    for c in order[first : first + rng.randint(1, 4)]:
        lead += [c, c] if rng.random() < 0.85 else [c]
    return sorted(lead), sorted(hand), level, suit


@pytest.mark.parametrize("chain", list(LevelChain))
def test_follows_and_follow_ok_agree_with_the_brute_force_checker(chain: LevelChain) -> None:
    rng = random.Random(34)
    for _ in range(150):
        lead, hand, level, suit = random_case(rng, chain)
        ctx = trump(level, suit, chain)
        if len({ctx.eff[c] for c in lead}) != 1 or len(lead) > len(hand):
            continue
        legal = brute_follows(lead, hand, level, suit, chain)
        assert set(follows(lead, hand, ctx)) == legal, (lead, hand, level, suit)
        for play in {tuple(sorted(p)) for p in combinations(hand, len(lead))}:
            assert (follow_error(lead, hand, list(play), ctx) is None) == (play in legal)


# --- the cases issue 34 names --------------------------------------------------------------------

Y8H = trump(8, H, LevelChain.THROUGH_TRUMP)


def test_a_six_pair_run_follows_a_four_pair_tractor_with_four_consecutive_pairs() -> None:
    lead = cs("S3 S3 S4 S4 S5 S5 S6 S6")
    hand = cs("S9 S9 ST ST SJ SJ SQ SQ SK SK SA SA")
    assert follow_error(lead, hand, cs("S9 S9 ST ST SQ SQ SK SK"), Y8H) == FollowError.TRACTOR
    assert follow_error(lead, hand, cs("S9 S9 ST ST SJ SJ SA SA"), Y8H) == FollowError.TRACTOR
    assert follow_error(lead, hand, cs("ST ST SJ SJ SQ SQ SK SK"), Y8H) is None


def test_a_run_of_three_and_a_pair_ranks_above_two_runs_of_two() -> None:
    lead = cs("S3 S3 S4 S4 S5 S5 S6 S6")
    hand = cs("S9 S9 ST ST SJ SJ SK SK SA SA S2 S2")  # runs 9-T-J (three) and K-A (two); S2 S2 a pair
    assert follow_error(lead, hand, cs("S9 S9 ST ST SK SK SA SA"), Y8H) == FollowError.TRACTOR
    assert follow_error(lead, hand, cs("S9 S9 ST ST SJ SJ S2 S2"), Y8H) is None
    assert follow_error(lead, hand, cs("S9 S9 ST ST SJ SJ SK SK"), Y8H) is None


def test_playing_3_trump_spades_the_three_pair_tractor_must_follow_a_led_three() -> None:
    """003 playing 3, trump ♠: SA SA D3 D3 S3 S3 is a run of three; it must follow a led trump three."""
    ctx = trump(3, S, LevelChain.THROUGH_TRUMP)
    lead, hand = cs("S5 S5 S6 S6 S7 S7"), cs("SA SA D3 D3 S3 S3 S9 S9")
    assert follow_error(lead, hand, cs("D3 D3 S3 S3 S9 S9"), ctx) == FollowError.TRACTOR
    assert follow_error(lead, hand, cs("SA SA D3 D3 S3 S3"), ctx) is None


def test_playing_3_the_three_pair_tractor_trumps_a_led_three_wins_and_beats_a_thrown_three() -> None:
    """The same tractor decides trick winners, throws and the kitty multiplier (003)."""
    ctx = trump(3, S, LevelChain.THROUGH_TRUMP)
    led = cs("HK HK HQ HQ HJ HJ")
    assert (
        trick_winner([led, cs("SA SA D3 D3 S3 S3"), cs("H4 H4 H5 H5 H6 H6"), cs("C4 C4 C5 C5 C6 C6")], ctx)
        == 1
    )
    failures = throw_failures(cs("S5 S5 S6 S6 S7 S7 SK"), [cs("SA SA D3 D3 S3 S3"), cs("C4"), cs("C5")], ctx)
    assert [(c.kind, c.pairs) for c in failures] == [(Kind.TRACTOR, 3), (Kind.SINGLE, 0)]
    assert kitty_multiplier(decompose(cs("SA SA D3 D3 S3 S3"), ctx), 3) == 16


def test_playing_2_aa22_is_never_a_tractor() -> None:
    """003 "AA22在任何情况下不构成拖拉机": playing 2 the trump A pair never chains to an off-suit 2 pair."""
    ctx = trump(2, S, LevelChain.THROUGH_TRUMP)
    assert [(c.kind, c.pairs) for c in decompose(cs("SA SA D2 D2 S2 S2"), ctx)] == [
        (Kind.TRACTOR, 2),
        (Kind.PAIR, 1),
    ]
    lead, hand = cs("S5 S5 S6 S6 S7 S7"), cs("SA SA D2 D2 S2 S2 S9 S9")
    assert follow_error(lead, hand, cs("D2 D2 S2 S2 S9 S9"), ctx) is None
    led = cs("HK HK HQ HQ HJ HJ")
    plays = [led, cs("SA SA D2 D2 S2 S2"), cs("H4 H4 H5 H5 H6 H6"), cs("C4 C4 C5 C5 C6 C6")]
    assert trick_winner(plays, ctx) == 0
