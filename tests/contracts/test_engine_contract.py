"""The engine contract, checked for every registered game: a new game gets all of it by registering.

- every generated legal action is accepted, and every accepted action was generated (as a decision:
  the spec's ``decision_key`` says which actions are the same decision);
- a refused action leaves the state byte-identical;
- the state's JSON round trip is exact at every point, and so is every seat's view;
- the bots finish every board; results sum to zero per seat, or per side in partnership games;
- a board replayed from its deal and its log of actions reaches the same state.
"""

from __future__ import annotations

import json
import random
from collections.abc import Hashable
from itertools import combinations
from typing import Any

import pytest
from deckhand.engines.common.cards import make_deck
from deckhand.engines.common.shuffle import seeded_shuffle
from deckhand.engines.contract import Action, Board, Rejected
from deckhand.engines.registry import RULESETS, game
from deckhand.engines.spec import GameSpec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large],
)
MAX_STEPS = 1_000

rulesets = pytest.mark.parametrize("ruleset", RULESETS)


def deal(spec: GameSpec, seed: str) -> list[int]:
    """A board's card order: each of its deals, shuffled from the seed (as the platform does)."""
    deck = make_deck(decks=spec.decks, jokers=spec.jokers)
    order: list[int] = []
    for n in range(spec.deals_per_board):
        order += seeded_shuffle(deck, f"{seed}/deal/{n}")
    return order


def accepted(board: Board, action: Action) -> bool:
    try:
        board.check(action)
    except Rejected:
        return False
    return True


def candidates(spec: GameSpec, board: Board, seat: int, rng: random.Random) -> list[Action]:
    """Actions a seat might send now: every kind with each of its values, and card sets from the hand."""
    out: list[Action] = []
    for rule in spec.actions:
        if rule.cards:
            hand = board.hand(seat)
            sets = {tuple(sorted(c)) for n in (1, 2, 3) for c in combinations(hand, n)}
            for size in (4, 5, 6):
                for _ in range(60 if len(hand) >= size else 0):
                    sets.add(tuple(sorted(rng.sample(hand, size))))
            out += [Action(seat, rule.kind, cards) for cards in sorted(sets)]
        else:
            out += [Action(seat, rule.kind, value=v) for v in rule.values or (0,)]
    return out


def play_out(spec: GameSpec, seed: str, choose: Any) -> tuple[Board, list[Action]]:
    board = spec.new_board(deal(spec, seed))
    log: list[Action] = []
    for _ in range(MAX_STEPS):
        if board.finished:
            return board, log
        seat = board.pending()[0]
        action = choose(board, seat)
        board.apply(action)
        log.append(action)
    raise AssertionError(f"{spec.ruleset}: the board did not finish in {MAX_STEPS} actions")


@rulesets
@SETTINGS
@given(seed=st.text(min_size=1, max_size=10), data=st.data())
def test_generated_actions_are_exactly_the_accepted_ones(ruleset: str, seed: str, data: Any) -> None:
    spec = game(ruleset)
    key = spec.decision_key
    rng = random.Random(seed)

    def choose(board: Board, seat: int) -> Action:
        actions = board.legal_actions(seat)
        assert actions, "a seat to act always has a legal action"
        keys = [key(a) for a in actions]
        assert len(keys) == len(set(keys)), "each decision is generated once"
        for action in actions:
            assert accepted(board, action), action
        if data.draw(st.integers(0, 4)) == 0:
            generated: set[Hashable] = set(keys)
            for candidate in candidates(spec, board, seat, rng):
                before = board.to_json()
                assert accepted(board, candidate) == (key(candidate) in generated), candidate
                assert board.to_json() == before
        return rng.choice(actions)

    play_out(spec, seed, choose)


@rulesets
@SETTINGS
@given(seed=st.text(max_size=10), data=st.data())
def test_refused_actions_change_nothing(ruleset: str, seed: str, data: Any) -> None:
    spec = game(ruleset)
    rng = random.Random(seed)

    def choose(board: Board, seat: int) -> Action:
        other = (seat + 1 + data.draw(st.integers(0, spec.seats - 2))) % spec.seats
        for candidate in rng.sample(candidates(spec, board, other, rng), 5) + [Action(spec.seats, "pass")]:
            before = board.to_json()
            try:
                board.apply(candidate)
            except Rejected as exc:
                assert exc.code and board.to_json() == before
            else:
                raise AssertionError(f"{candidate} was applied for a seat not to act")
        return rng.choice(board.legal_actions(seat))

    play_out(spec, seed, choose)


@rulesets
@SETTINGS
@given(seed=st.text(max_size=10))
def test_json_round_trip_is_exact_at_every_point(ruleset: str, seed: str) -> None:
    spec = game(ruleset)
    rng = random.Random(seed)
    seat_view_type: Any = None

    def check(board: Board) -> None:
        nonlocal seat_view_type
        text = board.to_json()
        again = spec.load_board(text)
        assert again == board and again.to_json() == text
        for s in range(spec.seats):
            view = board.view(s)
            assert again.view(s) == view
            assert json.loads(json.dumps(view)) == view  # what a device receives is plain JSON
            seat_view_type = type(board.seat_view(s))
            assert seat_view_type.from_dict(json.loads(json.dumps(view))) == board.seat_view(s)

    def choose(board: Board, seat: int) -> Action:
        check(board)
        return rng.choice(board.legal_actions(seat))

    board, _ = play_out(spec, seed, choose)
    check(board)


def zero_sum(spec: GameSpec, result: dict[str, Any]) -> None:
    scores = result["scores"]
    assert len(scores) == spec.seats
    if spec.sides:
        assert sum(sum(scores[s] for s in side) for side in spec.sides) == 0
    else:
        assert sum(scores) == 0


@rulesets
@SETTINGS
@given(seed=st.text(max_size=10))
def test_bots_finish_every_board_and_results_are_zero_sum(ruleset: str, seed: str) -> None:
    spec = game(ruleset)
    decide = spec.bot()

    def choose(board: Board, seat: int) -> Action:
        action = decide(board, seat)
        assert action is not None, "a bot decides when asked"
        return action

    board, _ = play_out(spec, seed, choose)
    zero_sum(spec, board.result())


@rulesets
@SETTINGS
@given(seed=st.text(max_size=10), styles=st.randoms(use_true_random=False))
def test_view_bots_decide_legally_from_the_devices_view(
    ruleset: str, seed: str, styles: random.Random
) -> None:
    spec = game(ruleset)
    bots = [spec.view_bot(styles.choice(["steady", "bold", "careful"])) for _ in range(spec.seats)]

    def choose(board: Board, seat: int) -> Action:
        action = bots[seat](json.loads(json.dumps(board.view(seat))))
        assert action is not None
        assert spec.decision_key(action) in {spec.decision_key(a) for a in board.legal_actions(seat)}
        return action

    board, _ = play_out(spec, seed, choose)
    zero_sum(spec, board.result())


@rulesets
@SETTINGS
@given(seed=st.text(max_size=10))
def test_a_board_replayed_from_its_log_reaches_the_same_state(ruleset: str, seed: str) -> None:
    spec = game(ruleset)
    rng = random.Random(seed)

    def choose(board: Board, seat: int) -> Action:
        return rng.choice(board.legal_actions(seat))

    board, log = play_out(spec, seed, choose)
    replay = spec.new_board(deal(spec, seed))
    for action in log:
        replay.apply(action)
    assert replay == board and replay.to_json() == board.to_json()
    assert replay.result() == board.result()


@rulesets
def test_the_spec_describes_its_boards(ruleset: str) -> None:
    spec = game(ruleset)
    board = spec.new_board(deal(spec, "spec"))
    assert sum(len(board.hand(s)) for s in range(spec.seats)) == spec.seats * spec.hand_size
    kinds = {rule.kind for rule in spec.actions}
    assert {a.kind for s in board.pending() for a in board.legal_actions(s)} <= kinds
    assert spec.decision_ms > 0 and spec.standings.chain
    assert set(spec.referee().ops()) >= {"classify", "beats"}
