"""Properties of Shengji's rules core over random deals (hypothesis), in both presets."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from deckhand.engines.common.cards import make_deck
from deckhand.engines.shengji.cards import TRUMP, trump
from deckhand.engines.shengji.combos import (
    Kind,
    decompose,
    follow_error,
    forced_component,
    throw_failures,
    trick_winner,
)
from deckhand.engines.shengji.legal import follows, leads
from deckhand.engines.shengji.options import LevelChain
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

contexts = st.builds(
    trump,
    st.integers(2, 14),
    st.one_of(st.none(), st.integers(0, 3)),
    st.sampled_from(list(LevelChain)),
)
seeds = st.integers(0, 2**32)


def hands(seed: int, n: int = 4, size: int = 25) -> list[list[int]]:
    deck = make_deck(decks=2, jokers=True)
    random.Random(seed).shuffle(deck)
    return [sorted(deck[i * size : (i + 1) * size]) for i in range(n)]


@settings(max_examples=examples(150), deadline=None)
@given(ctx=contexts, seed=seeds)
def test_components_partition_the_cards_and_tractors_follow_the_chain(ctx, seed) -> None:
    hand = hands(seed)[0]
    for suit in {ctx.eff[c] for c in hand}:
        cards = [c for c in hand if ctx.eff[c] == suit]
        comps = decompose(cards, ctx)
        assert Counter(c for comp in comps for c in comp.cards) == Counter(cards)
        for comp in comps:
            if comp.kind is Kind.TRACTOR:
                strengths = [ctx.strength[c] for c in comp.cards[::2]]
                for high, low in zip(strengths, strengths[1:], strict=False):
                    assert ctx.up[suit][low] == high
        sizes = [c.pairs for c in comps if c.kind is Kind.TRACTOR]
        assert sizes == sorted(sizes, reverse=True)


@settings(max_examples=examples(100), deadline=None)
@given(ctx=contexts, seed=seeds)
def test_generated_follows_are_exactly_the_legal_ones(ctx, seed) -> None:
    rng = random.Random(seed)
    leader, follower = hands(seed, 2, 12)
    suit_cards = {s: [c for c in leader if ctx.eff[c] == s] for s in {ctx.eff[c] for c in leader}}
    cards = max(suit_cards.values(), key=len)
    lead = sorted(rng.sample(cards, min(len(cards), rng.randint(1, 4))))
    generated = set(follows(lead, follower, ctx))
    assert generated and len(generated) == len(follows(lead, follower, ctx))
    for play in generated:
        assert follow_error(lead, follower, play, ctx) is None
    for play in {tuple(sorted(p)) for p in combinations(follower, len(lead))}:
        assert (follow_error(lead, follower, play, ctx) is None) == (play in generated)


@settings(max_examples=examples(100), deadline=None)
@given(ctx=contexts, seed=seeds)
def test_every_lead_is_one_suit_and_each_multiset_once(ctx, seed) -> None:
    hand = hands(seed, 1, 10)[0]
    got = leads(hand, ctx)
    assert len(got) == len(set(got))
    expected = 0
    for suit in {ctx.eff[c] for c in hand}:
        counts = Counter(c for c in hand if ctx.eff[c] == suit)
        n = 1
        for k in counts.values():
            n *= k + 1
        expected += n - 1
    assert len(got) == expected
    assert all(len({ctx.eff[c] for c in play}) == 1 for play in got)


@settings(max_examples=examples(150), deadline=None)
@given(ctx=contexts, seed=seeds)
def test_the_trick_goes_to_the_led_suit_or_trump_and_singles_to_the_highest(ctx, seed) -> None:
    rng = random.Random(seed)
    four = hands(seed)
    lead = [four[0][0]]
    suit = ctx.eff[lead[0]]
    plays = [lead] + [[rng.choice(h)] for h in four[1:]]
    winner = trick_winner(plays, ctx)
    card = plays[winner][0]
    assert ctx.eff[card] in (suit, TRUMP)
    contenders = [
        p[0] for p in plays if ctx.eff[p[0]] == (TRUMP if any(ctx.is_trump(q[0]) for q in plays) else suit)
    ]
    best = max(ctx.strength[c] for c in contenders)
    assert ctx.strength[card] == best
    assert winner == next(i for i, p in enumerate(plays) if p[0] in contenders and ctx.strength[p[0]] == best)


@settings(max_examples=examples(150), deadline=None)
@given(ctx=contexts, seed=seeds)
def test_a_throw_stands_exactly_when_no_other_hand_beats_a_component(ctx, seed) -> None:
    rng = random.Random(seed)
    thrower, *others = hands(seed, 4, 12)
    suit = ctx.eff[thrower[0]]
    cards = [c for c in thrower if ctx.eff[c] == suit]
    throw = rng.sample(cards, min(len(cards), rng.randint(2, 5)))
    failures = throw_failures(throw, others, ctx)
    comps = decompose(throw, ctx)
    if len(comps) < 2:
        assert failures == []
        return
    singles_beaten = any(
        ctx.eff[c] == suit and ctx.strength[c] > comp.top
        for comp in comps
        if comp.kind is Kind.SINGLE
        for h in others
        for c in h
    )
    assert singles_beaten <= bool(failures)
    if failures:
        forced = forced_component(failures)
        assert forced in failures and all(forced.size <= f.size for f in failures)
