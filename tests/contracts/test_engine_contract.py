"""The engine contract, checked for every registered game: a new game gets all of it by registering.

- every generated legal action is accepted, and every accepted action was generated (as a decision:
  the spec's ``decision_key`` says which actions are the same decision);
- a refused action leaves the state byte-identical;
- the state's JSON round trip is exact at every point, and so is every seat's view;
- the bots finish every board; results sum to zero per seat, or per side in partnership games;
- a board replayed from its deal and its log of actions reaches the same state;
- board games (played with a ``Position``, nothing dealt) get all of it too, their moves probed with
  data (from any square to any square, or onto every point), and end 1 / ½ / 0;
- in games whose boards carry (levels, dealer, tribute), all of it holds board after board, each
  board made from the outcome of the one before;
- in games whose seats act during the deal (``DealtInSteps``), all of it holds between the steps too,
  and a board dealt in steps with nothing declared is the board dealt at once.
"""

from __future__ import annotations

import functools
import json
import random
from itertools import combinations
from typing import Any

import pytest
from deckhand.engines.common.cards import make_deck
from deckhand.engines.common.shuffle import seeded_shuffle
from deckhand.engines.contract import Action, Board, DealtInSteps, Rejected, outcome_of
from deckhand.engines.registry import RULESETS, game
from deckhand.engines.spec import Competition, GameSpec
from helpers import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# Five fixed seeds per rule set and property in `make test` (a two-deck board is played out with every
# position checked: the suite's costliest tests); `make test-deep` plays ten times as many, drawn afresh.
SETTINGS = settings(
    max_examples=examples(5),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large],
)
MAX_STEPS = 1_000
PROBE_ONE_IN = 8  # positions where every candidate is tried (elsewhere a sample of the generated actions)
BOARDS = 2  # boards played in a row where boards carry: the second starts from a carry

rulesets = pytest.mark.parametrize("ruleset", RULESETS)


def deal(spec: GameSpec, seed: str, board: int = 0) -> list[int]:
    """A board's card order: each of its deals, shuffled from the seed (as the platform does)."""
    deck = make_deck(decks=spec.decks, jokers=spec.jokers)
    order: list[int] = []
    for n in range(spec.deals_per_board):
        order += seeded_shuffle(deck, f"{seed}/board/{board}/deal/{n}")
    return order


def accepted(board: Board, action: Action) -> bool:
    try:
        board.check(action)
    except Rejected:
        return False
    return True


def candidates(spec: GameSpec, board: Board, seat: int, rng: random.Random) -> list[Action]:
    """Actions a seat might send now: every kind with each of its values, card sets from the hand, and
    in a board game moves with squares as their data (from a square to a square, or onto a point)."""
    out: list[Action] = []
    for rule in spec.actions:
        if rule.data and spec.position is not None:
            squares, keys = spec.position.squares, spec.position.move_data
            if len(keys) == 1:  # a stone placed: every point
                picks = {(square,) for square in squares}
            else:  # a piece moved: 300 draws of a square for each key
                picks = {tuple(rng.choice(squares) for _ in keys) for _ in range(300)}
            out += [
                Action(seat, rule.kind, data=dict(zip(keys, pick, strict=True))) for pick in sorted(picks)
            ]
            out.append(Action(seat, rule.kind))  # a move that says nothing
        elif rule.cards:
            hand = board.hand(seat)
            sets = {tuple(sorted(c)) for n in (1, 2) for c in combinations(hand, n)}
            triples = sorted({tuple(sorted(c)) for c in combinations(hand, 3)})
            sets.update(triples if len(triples) <= 600 else rng.sample(triples, 600))  # big hands: a sample
            for size in (4, 5, 6):
                for _ in range(60 if len(hand) >= size else 0):
                    sets.add(tuple(sorted(rng.sample(hand, size))))
            out += [Action(seat, rule.kind, cards) for cards in sorted(sets)]
        else:
            out += [Action(seat, rule.kind, value=v) for v in rule.values or (0,)]
    return out


def a_few_candidates(spec: GameSpec, board: Board, seat: int, rng: random.Random, n: int) -> list[Action]:
    """``n`` of the actions a seat might send (as ``candidates``), drawn without listing them all."""
    out: list[Action] = []
    for rule in spec.actions:
        if rule.cards:
            hand = board.hand(seat)
            for _ in range(n if hand else 0):
                out.append(
                    Action(
                        seat, rule.kind, tuple(sorted(rng.sample(hand, rng.randint(1, min(6, len(hand))))))
                    )
                )
        else:
            out += [Action(seat, rule.kind, value=v) for v in rule.values or (0,)]
    return rng.sample(out, min(n, len(out)))


class Played:
    """Boards played in a row: each board's carry in, its log, and the board at its end."""

    def __init__(self) -> None:
        self.carries: list[dict[str, Any] | None] = []
        self.logs: list[list[Action]] = []
        self.boards: list[Board] = []


def play_out(spec: GameSpec, seed: str, choose: Any, on_board: Any = None) -> Played:
    """Play a board to its end (and, where boards carry, the next ones from its outcome)."""
    played = Played()
    carry: dict[str, Any] | None = None
    for number in range(BOARDS if spec.carries else 1):
        board = spec.new_board(deal(spec, seed, number), carry)
        log: list[Action] = []
        for _ in range(MAX_STEPS):
            if board.finished:
                break
            seat = board.pending()[0]
            action = choose(board, seat)
            board.apply(action)
            log.append(action)
        else:
            raise AssertionError(f"{spec.ruleset}: the board did not finish in {MAX_STEPS} actions")
        played.carries.append(carry)
        played.logs.append(log)
        played.boards.append(board)
        if on_board is not None:
            on_board(board)
        outcome = outcome_of(board.result())
        if outcome.carry is not None and outcome.carry.get("game_over"):
            break
        carry = outcome.carry
    return played


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
        probe = data.draw(st.integers(0, PROBE_ONE_IN - 1)) == 0
        for action in actions if probe or len(actions) <= 50 else rng.sample(actions, 50):
            assert accepted(board, action), action
        if probe:
            # Candidates carry no declaration: one is accepted only if it was generated (with some
            # declaration, where the game has them); one that was generated bare must be accepted.
            bare = {key(a._replace(data=None)): a.data is None for a in actions}
            before = board.to_json()  # once: a check never changes the board (compared after them all)
            with_data = set(keys)
            for candidate in candidates(spec, board, seat, rng):
                ok = accepted(board, candidate)
                if candidate.data is not None:  # a move with its data: generated as itself, or not at all
                    generated = True if key(candidate) in with_data else None
                else:
                    generated = bare.get(key(candidate))
                assert ok <= (generated is not None), f"{candidate} accepted but not generated"
                assert ok or not generated, f"{candidate} generated but refused"
            assert board.to_json() == before, "checking the candidates changed the board"
        return rng.choice(actions)

    play_out(spec, seed, choose)


@rulesets
@SETTINGS
@given(seed=st.text(max_size=10), data=st.data())
def test_refused_actions_change_nothing(ruleset: str, seed: str, data: Any) -> None:
    spec = game(ruleset)
    rng = random.Random(seed)

    def choose(board: Board, seat: int) -> Action:
        waiting = [s for s in range(spec.seats) if s not in board.pending()]  # seats with nothing to decide
        probes = [Action(spec.seats, "pass")]  # no such seat
        if seat in (0, 1):  # JSON's true or false is no seat, though Python compares it equal to 1 or 0
            probes += [a._replace(seat=bool(seat)) for a in board.legal_actions(seat)[:3]]
        if waiting:
            other = waiting[data.draw(st.integers(0, len(waiting) - 1))]
            probes += a_few_candidates(spec, board, other, rng, 5)  # a seat near the end may have few
        before = board.to_json()  # every probe is refused, so the board stays this
        for candidate in probes:
            try:
                board.apply(candidate)
            except Rejected as exc:
                assert exc.code and board.to_json() == before
            else:
                raise AssertionError(f"{candidate} was applied, though not from the seat to act")
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

    play_out(spec, seed, choose, on_board=check)


def zero_sum(spec: GameSpec, result: dict[str, Any]) -> None:
    scores = result["scores"]
    assert len(scores) == spec.seats
    if spec.sides:
        assert sum(sum(scores[s] for s in side) for side in spec.sides) == 0
    else:
        assert sum(scores) == 0
    if spec.position is not None:  # one game of a match: 1 / ½ / 0
        assert outcome_of(result).points in {(1, 0), (0.5, 0.5), (0, 1)}


# A board game's bots play the same game from the same position: each game here opens with a few random
# moves from the seed, and one game per rule set is enough here (each is a hundred searches; `make
# test-deep` plays ten).
OPENING_PLIES = 4
FROM_A_POSITION = settings(SETTINGS, max_examples=examples(1))
dealt = pytest.mark.parametrize("ruleset", [r for r in RULESETS if game(r).position is None])
positioned = pytest.mark.parametrize("ruleset", [r for r in RULESETS if game(r).position is not None])


def opened(spec: GameSpec, seed: str, choose: Any) -> Any:
    """``choose``, after a board game's first few moves drawn at random from ``seed``."""
    if spec.position is None:
        return choose
    rng, plies = random.Random(seed), [0]

    def first_random(board: Board, seat: int) -> Action:
        plies[0] += 1
        return rng.choice(board.legal_actions(seat)) if plies[0] <= OPENING_PLIES else choose(board, seat)

    return first_random


def bots_finish(ruleset: str, seed: str) -> None:
    spec = game(ruleset)
    decide = spec.bot()

    @functools.partial(opened, spec, seed)
    def choose(board: Board, seat: int) -> Action:
        action = decide(board, seat)
        assert action is not None, "a bot decides when asked"
        return action

    for board in play_out(spec, seed, choose).boards:
        zero_sum(spec, board.result())


@dealt
@SETTINGS
@given(seed=st.text(max_size=10))
def test_bots_finish_every_board_and_results_are_zero_sum(ruleset: str, seed: str) -> None:
    bots_finish(ruleset, seed)


@positioned
@FROM_A_POSITION
@given(seed=st.text(max_size=10))
def test_bots_finish_every_game_from_a_position_and_score_one_half_or_nothing(
    ruleset: str, seed: str
) -> None:
    bots_finish(ruleset, seed)


def view_bots_decide(ruleset: str, seed: str, styles: random.Random) -> None:
    spec = game(ruleset)
    bots = [spec.view_bot(styles.choice(["steady", "bold", "careful"])) for _ in range(spec.seats)]

    @functools.partial(opened, spec, seed)
    def choose(board: Board, seat: int) -> Action:
        action = bots[seat](json.loads(json.dumps(board.view(seat))))
        assert action is not None
        assert spec.decision_key(action) in {spec.decision_key(a) for a in board.legal_actions(seat)}
        return action

    for board in play_out(spec, seed, choose).boards:
        zero_sum(spec, board.result())


@dealt
@SETTINGS
@given(seed=st.text(max_size=10), styles=st.randoms(use_true_random=False))
def test_view_bots_decide_legally_from_the_devices_view(
    ruleset: str, seed: str, styles: random.Random
) -> None:
    view_bots_decide(ruleset, seed, styles)


@positioned
@FROM_A_POSITION
@given(seed=st.text(max_size=10), styles=st.randoms(use_true_random=False))
def test_view_bots_decide_legally_from_a_games_view(ruleset: str, seed: str, styles: random.Random) -> None:
    view_bots_decide(ruleset, seed, styles)


@rulesets
@SETTINGS
@given(seed=st.text(max_size=10))
def test_a_board_replayed_from_its_log_reaches_the_same_state(ruleset: str, seed: str) -> None:
    spec = game(ruleset)
    rng = random.Random(seed)

    def choose(board: Board, seat: int) -> Action:
        return rng.choice(board.legal_actions(seat))

    played = play_out(spec, seed, choose)
    for number, (carry, log, board) in enumerate(
        zip(played.carries, played.logs, played.boards, strict=True)
    ):
        replay = spec.new_board(deal(spec, seed, number), carry)
        for action in log:
            replay.apply(action)
        assert replay == board and replay.to_json() == board.to_json()
        assert replay.result() == board.result()
        if number:
            assert carry == outcome_of(played.boards[number - 1].result()).carry


@rulesets
def test_the_spec_describes_its_boards(ruleset: str) -> None:
    spec = game(ruleset)
    board = spec.new_board(deal(spec, "spec"))
    assert sum(len(board.hand(s)) for s in range(spec.seats)) == spec.seats * spec.hand_size
    kinds = {rule.kind for rule in spec.actions}
    assert {a.kind for s in board.pending() for a in board.legal_actions(s)} <= kinds
    assert (spec.standings is not None) == (spec.competition is Competition.DUPLICATE)
    if spec.position is None:
        assert set(spec.referee().ops()) >= {"classify", "beats"}
    else:  # a board game: two seats, one a side, its calculator lists a position's legal moves (and
        # judges its end in a ``result`` op, or in the result an ``apply`` op gives)
        assert spec.seats == 2 and spec.deck is None and spec.competition is Competition.HEAD_TO_HEAD
        assert "legal" in spec.referee().ops()
    assert bool(spec.sides) == spec.carries  # partnership games carry levels from board to board
    for seat in board.pending():
        timing = board.timing(seat)
        if timing is not None:
            assert timing.limit_ms > 0 and timing.default.timeout and accepted(board, timing.default)
            assert timing.warn_ms is None or 0 < timing.warn_ms < timing.limit_ms


@rulesets
def test_options_round_trip_with_the_rules_defaults(ruleset: str) -> None:
    spec = game(ruleset)
    if spec.options is None:
        return
    defaults = spec.options(None)
    assert spec.options(defaults.to_dict()).to_dict() == defaults.to_dict()
    with pytest.raises(ValueError):
        spec.options({"no_such_option": 1})


@rulesets
def test_boards_that_stand_alone_refuse_a_carry(ruleset: str) -> None:
    spec = game(ruleset)
    if spec.carries:
        return
    with pytest.raises(ValueError):
        spec.new_board(deal(spec, "carry"), {"levels": ["2", "2"]})


@rulesets
@SETTINGS
@given(seed=st.text(max_size=10), data=st.data())
def test_a_board_dealt_in_steps_takes_actions_between_the_steps(ruleset: str, seed: str, data: Any) -> None:
    spec = game(ruleset)
    if spec.new_board_in_steps is None:
        return
    order = deal(spec, seed)
    quiet = spec.new_board_in_steps(order, None)
    assert isinstance(quiet, DealtInSteps) and quiet.dealt == 0
    assert not any(quiet.hand(s) for s in range(spec.seats))
    quiet.deal_step(quiet.deal_total)
    assert quiet.to_json() == spec.new_board(order, None).to_json()  # in steps, nothing done = at once
    board = spec.new_board_in_steps(order, None)
    assert isinstance(board, DealtInSteps)
    key = spec.decision_key
    rng = random.Random(seed)
    while board.dealt < board.deal_total:
        upto = min(board.deal_total, board.dealt + data.draw(st.integers(1, 2 * spec.seats)))
        board.deal_step(upto)
        if upto < board.deal_total:  # (once all are out the game may move on: a kitty taken)
            assert sum(len(board.hand(s)) for s in range(spec.seats)) == upto
        before = board.to_json()
        with pytest.raises(Rejected):
            board.deal_step(upto - 1)
        assert board.to_json() == before
        again = spec.load_board(before)
        assert again == board and again.to_json() == before
        probed = data.draw(st.integers(0, spec.seats - 1))  # candidates for one seat a step: they cost
        for seat in range(spec.seats):
            actions = board.legal_actions(seat)
            assert all(accepted(board, a) for a in actions)
            generated = {key(a) for a in actions}
            pool = candidates(spec, board, seat, rng) if seat == probed else []
            for candidate in rng.sample(pool, min(30, len(pool))):
                ok = accepted(board, candidate)
                assert ok <= (key(candidate) in generated), f"{candidate} accepted but not generated"
                assert board.to_json() == before
            if actions and data.draw(st.integers(0, 3)) == 0:
                board.apply(rng.choice(actions))
                before = board.to_json()
    for _ in range(MAX_STEPS):
        if board.finished:
            break
        board.apply(rng.choice(board.legal_actions(board.pending()[0])))
    assert board.finished
