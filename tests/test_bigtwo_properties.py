"""Property tests: the generator and the validator agree, boards end zero-sum, state round-trips."""

import json
import random
from itertools import combinations

from deckhand.engines.bigtwo.board import PLAY, BigTwoBoard, SeatView
from deckhand.engines.bigtwo.bot import STYLES, BigTwoBot
from deckhand.engines.contract import Action, Rejected
from helpers import seeded_board
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large],
)


def accepted(board: BigTwoBoard, action: Action) -> bool:
    try:
        board.check(action)
    except Rejected:
        return False
    return True


def subsets(hand: list[int], rng: random.Random) -> list[tuple[int, ...]]:
    """Plenty of candidate card sets from the hand: all of 1–3 cards, all or a sample of 4 and 5."""
    out = [c for n in (1, 2, 3) for c in combinations(hand, n)]
    for size in (4, 5):
        every = list(combinations(hand, size))
        out.extend(every if len(every) <= 300 else rng.sample(every, 300))
    return out


def pick(data, options):
    return options[data.draw(st.integers(0, len(options) - 1))]


@SETTINGS
@given(seed=st.text(min_size=1, max_size=12), data=st.data())
def test_generated_plays_are_exactly_the_accepted_ones(seed, data):
    board = seeded_board(seed)
    rng = random.Random(seed)
    steps = 0
    while not board.finished and steps < 200:
        steps += 1
        seat = board.pending()[0]
        actions = board.legal_actions(seat)
        assert actions, "a seat to act always has a legal action"
        for action in actions:  # every generated play is accepted
            assert accepted(board, action), action
        generated = {a.cards for a in actions if a.kind == "play"}
        assert len(generated) == sum(1 for a in actions if a.kind == "play"), "each play generated once"
        if board.phase == PLAY and data.draw(st.integers(0, 3)) == 0:
            hand = board.hand(seat)
            for cards in subsets(hand, rng):  # every accepted play was generated
                assert accepted(board, Action(seat, "play", cards)) == (cards in generated), cards
        board.apply(pick(data, actions))
    assert board.finished


@SETTINGS
@given(seed=st.text(max_size=12), styles=st.lists(st.sampled_from(sorted(STYLES)), min_size=4, max_size=4))
def test_bot_boards_end_with_zero_sum_scores(seed, styles):
    board = seeded_board(seed)
    bots = [BigTwoBot(s) for s in styles]
    while not board.finished:
        seat = board.pending()[0]
        board.apply(bots[seat].decide(board.seat_view(seat)))
    result = board.result()
    assert sum(result["scores"]) == 0
    assert result["cards_left"][result["winner"]] == 0
    assert sum(result["cards_left"]) == sum(board.counts())


@SETTINGS
@given(seed=st.text(max_size=12), data=st.data())
def test_json_round_trip_is_exact_at_every_point(seed, data):
    board = seeded_board(seed)
    while True:
        text = board.to_json()
        again = BigTwoBoard.from_json(text)
        assert again == board and again.to_json() == text
        assert [again.view(s) for s in range(4)] == [board.view(s) for s in range(4)]
        for s in range(4):  # a view survives its JSON form (what devices receive) exactly
            assert SeatView.from_dict(json.loads(json.dumps(board.view(s)))) == board.seat_view(s)
        if board.finished:
            break
        seat = board.pending()[0]
        board.apply(pick(data, board.legal_actions(seat)))
