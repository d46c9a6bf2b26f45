"""Brackets as the service plays them (service/matches/knockouts.py): waves of ready matches, the rounds a
field takes, eliminations and places (RULES.md §4.3 Single and Double elimination)."""

from __future__ import annotations

import random

from deckhand.competition.matchplay import knockout
from deckhand.competition.matchplay.knockout import FinalReset, ThirdPlace
from deckhand.service.matches.knockouts import BracketRun
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st


def bracket(
    n: int, double: bool = False, final: FinalReset = FinalReset.ONE_FINAL, third: bool = False
) -> BracketRun:
    plan = (
        knockout.double_elimination(n, final)
        if double
        else knockout.single_elimination(n, ThirdPlace.PLAY if third else ThirdPlace.NONE)
    )
    return BracketRun(plan, {i + 1: f"P{i + 1}" for i in range(n)}, double, final)


def play_out(b: BracketRun, rng: random.Random) -> dict[int, int]:
    """Every wave with random winners; the losses of each seed."""
    losses: dict[int, int] = {}
    wave = 0
    while ready := b.ready():
        wave += 1
        for m, x, y in ready:
            won, lost = (x, y) if rng.random() < 0.5 else (y, x)
            b.winners[m.id] = won
            b.wave_of[m.id] = wave
            losses[lost] = losses.get(lost, 0) + 1
    return losses


def test_rounds_a_field_takes():
    assert bracket(8).waves() == 3 and bracket(5).waves() == 3 and bracket(2).waves() == 1
    assert bracket(4, third=True).waves() == 2  # the 3rd-place match is played beside the final
    assert bracket(4, double=True).waves() == 4
    assert bracket(4, double=True, final=FinalReset.RESET).waves() == 5
    assert bracket(8, double=True).waves() == 6


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(2, 12), st.booleans(), st.integers(0, 10**6))
def test_double_elimination_knocks_out_after_two_losses(n, reset, seed):
    final = FinalReset.RESET if reset else FinalReset.ONE_FINAL
    b = bracket(n, double=True, final=final)
    losses = play_out(b, random.Random(seed))
    places = b.places()
    champion = [t for t, p in places.items() if p == 1]
    assert len(champion) == 1, places
    seed_of = b.seed_of
    assert losses.get(seed_of[champion[0]], 0) <= 1
    runner_up = [t for t, p in places.items() if p == 2]
    for team, place in places.items():
        if place > 2:  # everyone below the final's loser went out on a second loss
            assert losses[seed_of[team]] == 2, (team, place, losses)
    assert len(runner_up) == 1
    assert sorted(places.values())[0] == 1 and max(places.values()) <= n


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(2, 16), st.booleans(), st.integers(0, 10**6))
def test_single_elimination_places_by_the_round_a_pair_went_out(n, third, seed):
    b = bracket(n, third=third and n >= 4)
    losses = play_out(b, random.Random(seed))
    places = b.places()
    assert sorted(places.values())[:2] == [1, 2]
    if third and n >= 4:
        assert sorted(places.values())[:4] == [1, 2, 3, 4]
    for team, place in places.items():
        assert (place == 1) == (b.seed_of[team] not in losses)


def test_a_field_of_three_places_the_walkover_third_place_pair_third():
    b = bracket(3, third=True)
    play_out(b, random.Random(1))
    assert sorted(b.places().values()) == [1, 2, 3]
