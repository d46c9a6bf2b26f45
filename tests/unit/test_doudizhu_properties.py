"""Properties of the Dou Dizhu engine over generated hands and boards: generated ⇔ accepted (checked
against an exhaustive search of every sub-hand), each play once, JSON round trips, deterministic bots
that always finish a board, and results that score the landlord and count the bombs. What every game
must do (zero-sum results among them) is checked by the engine contract (tests/contracts)."""

from itertools import product

from deckhand.engines.common.cards import make_deck, rank_of
from deckhand.engines.common.shuffle import seeded_shuffle
from deckhand.engines.contract import Action, Rejected
from deckhand.engines.doudizhu.board import DouDizhuBoard
from deckhand.engines.doudizhu.bot import DouDizhuBot
from deckhand.engines.doudizhu.combos import RANK_COUNT, TYPES, beats, classify, classify_counts
from deckhand.engines.doudizhu.legal import legal_plays, rank_plays
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

DECK = make_deck(jokers=True)
hands = st.lists(st.sampled_from(DECK), min_size=1, max_size=14, unique=True)
seeds = st.text(min_size=1, max_size=12)


def counts_of(cards):
    counts = [0] * RANK_COUNT
    for c in cards:
        counts[rank_of(c)] += 1
    return tuple(counts)


def accepted_by_search(hand, prev):
    """Every sub-multiset of the hand's ranks that is a play (and beats ``prev``): the oracle."""
    counts = counts_of(hand)
    found = set()
    for pick in product(*(range(n + 1) for n in counts)):
        size = sum(pick)
        if not size:
            continue
        combo = classify_counts(list(pick), size)
        if combo is not None and (prev is None or beats(prev, combo)):
            found.add(pick)
    return found


@settings(max_examples=examples(150), deadline=None)
@given(hands, st.one_of(st.none(), hands), st.randoms(use_true_random=False))
def test_generated_plays_are_exactly_the_accepted_ones_each_once(hand, other, rnd):
    prev = None
    if other:
        options = legal_plays(other)
        prev = rnd.choice(options)[1] if options else None
    generated = [counts_of(play) for play, _ in legal_plays(hand, prev)]
    assert len(generated) == len(set(generated))  # each play once
    assert set(generated) == accepted_by_search(hand, prev)
    for play, combo in legal_plays(hand, prev):
        assert set(play) <= set(hand) and classify(play) == combo
    assert [c for c, _ in rank_plays(hand, prev)] == [c for _, c in legal_plays(hand, prev)]


def check_result(board, history):
    """Dou Dizhu's own result fields (the engine contract checks the zero sum, for every game): the
    winner went out, every defender's score has the sign of the defenders' outcome, and the bombs
    counted are the bombs played."""
    result = board.result()
    assert result["winner"] >= 0 and board.counts()[result["winner"]] == 0
    sign = 1 if result["defenders_won"] else -1
    assert all(result["scores"][s] * sign > 0 for s in range(3) if s != result["landlord"])
    assert result["bombs"] == sum(1 for a in history if a.kind == "play" and classify(a.cards).type == "bomb")


def play_out(seed, styles=("steady", "bold", "careful")):
    order = seeded_shuffle(DECK, f"{seed}/1") + seeded_shuffle(DECK, f"{seed}/2")
    board = DouDizhuBoard.from_order(order)
    bots = [DouDizhuBot(s) for s in styles]
    history = []
    for _ in range(600):
        if board.finished:
            check_result(board, history)
            return board, history
        seat = board.pending()[0]
        action = bots[seat].decide(board.seat_view(seat))
        assert action is not None
        legal = board.legal_actions(seat)
        assert action in legal
        board.check(action)
        board.apply(action)
        history.append(action)
        assert DouDizhuBoard.from_json(board.to_json()) == board
    raise AssertionError("the board did not finish")


@settings(max_examples=examples(30), deadline=None)
@given(seeds)
def test_the_same_board_and_history_give_the_same_decisions(seed):
    first, history = play_out(seed)
    again, replayed = play_out(seed)
    assert history == replayed and first == again


@settings(max_examples=examples(40), deadline=None)
@given(seeds, st.randoms(use_true_random=False))
def test_every_action_not_in_legal_actions_is_rejected_without_change(seed, rnd):
    board, history = play_out(seed)
    order = board.deals[0] + board.deals[1]
    replay = DouDizhuBoard.from_order(order)
    for action in history:
        seat = action.seat
        legal = replay.legal_actions(seat)
        candidates = [
            Action(seat, "pass"),
            Action(seat, "bid", value=rnd.randint(0, 3)),
            Action(seat, "double", value=1),
        ]
        hand = replay.hand(seat)
        if hand:
            candidates.append(
                Action(seat, "play", tuple(rnd.sample(hand, rnd.randint(1, min(5, len(hand))))))
            )
        for candidate in candidates:
            before = replay.to_json()
            if candidate in legal or (
                candidate.kind == "play"
                and any(a.kind == "play" and counts_of(a.cards) == counts_of(candidate.cards) for a in legal)
            ):
                replay.check(candidate)
            else:
                try:
                    replay.check(candidate)
                except Rejected:
                    pass
                else:
                    raise AssertionError(f"{candidate} accepted but not among the legal actions")
                assert replay.to_json() == before
        replay.apply(action)
    assert replay == board


def plays_from_rank_walk(hand, prev):
    """``legal_plays`` as it was first written: the rank walk's (rank, n) parts made into cards."""
    from deckhand.engines.doudizhu.legal import _rank_plays, by_rank

    groups = by_rank(hand)
    counts = [len(g) for g in groups]
    return [
        (tuple(c for r, n in parts for c in groups[r][:n]), combo)
        for combo, parts in _rank_plays(counts, prev)
    ]


def ranks_from_rank_walk(hand, prev):
    from deckhand.engines.doudizhu.legal import _rank_plays

    return [(combo, tuple(parts)) for combo, parts in _rank_plays(list(counts_of(hand)), prev)]


def test_card_plays_are_the_rank_walks_plays_in_its_order():
    """The card generator is written for speed beside the rank walk: the same plays, cards and order."""
    import random

    rng = random.Random(22)
    prevs = [None, classify((0, 1, 2, 4, 5, 6)), classify((0, 1, 2, 4, 5, 6, 8, 9, 10))]  # planes
    for _ in range(400):
        prevs += [c for _, c in rng.sample(legal_plays(rng.sample(DECK, 20)), 3)]
    for i in range(3000):
        hand = rng.sample(DECK, rng.choice((5, 12, 17, 20, 20, 20)))
        if i % 7 == 0:  # bombs, planes and both jokers, often
            ranks = rng.sample(range(13), 4)
            hand = sorted({*hand[:8], *(4 * r + s for r in ranks for s in range(4)), 52, 53})
        prev = prevs[i % len(prevs)]
        assert legal_plays(hand, prev) == plays_from_rank_walk(hand, prev)
        assert rank_plays(hand, prev) == ranks_from_rank_walk(hand, prev)
    assert {p.type for p in prevs if p} == set(TYPES)  # every kind of play followed
