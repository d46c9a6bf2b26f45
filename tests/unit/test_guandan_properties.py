"""Property tests of the Guandan board (issue 16) over random deals and random legal plays through
whole boards: every generated action is accepted, every refused action changes nothing, exact JSON
round trips, zero-sum results per side, replay of the action log, and bots finishing whole games
(the carry from board to board) under every end mode."""

import random

import pytest
from deckhand.engines.common.cards import make_deck
from deckhand.engines.contract import Action, Rejected
from deckhand.engines.guandan.board import GuandanBoard, SeatView
from deckhand.engines.guandan.bot import GuandanBot
from deckhand.engines.guandan.levels import EndMode
from helpers import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FAST = settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
BOT = GuandanBot()


def shuffled(rng: random.Random) -> list[int]:
    deck = make_deck(decks=2, jokers=True)
    rng.shuffle(deck)
    return deck


def refused_candidates(b: GuandanBoard, rng: random.Random) -> list[Action]:
    """Actions that are often not allowed now: wrong seat, wrong phase, cards not held, bad shapes."""
    seat = b.pending()[0]
    other = (seat + rng.randrange(1, 4)) % 4
    hand = b.hand(seat)
    some = tuple(rng.sample(hand, min(len(hand), rng.randrange(1, 7))))
    return [
        Action(other, "play", some),
        Action(seat, "play", some),
        Action(seat, "play", some, data={"as": ["S3"]}),
        Action(seat, "play", (rng.randrange(54),) * 3),
        Action(seat, "pass"),
        Action(seat, "tribute", some[:1]),
        Action(seat, "return", some[:2]),
        Action(seat, "lead", value=7),
        Action(seat, "shout"),
        Action(9, "pass"),
    ]


def check_round_trips(b: GuandanBoard) -> None:
    text = b.to_json()
    again = GuandanBoard.from_json(text)
    assert again.to_json() == text and again == b
    for s in range(4):
        view = b.view(s)
        assert SeatView.from_dict(view).to_dict() == view


def walk(b: GuandanBoard, rng: random.Random, log: list[Action], full_checks: int) -> None:
    """Random legal actions to the board's end; every legal action checked on the first steps."""
    step = 0
    while not b.finished:
        seat = b.pending()[0]
        actions = b.legal_actions(seat)
        assert actions
        for a in actions if step < full_checks else rng.sample(actions, min(8, len(actions))):
            b.check(a)  # every generated action is accepted
        for a in refused_candidates(b, rng):
            before = b.to_json()
            try:
                b.check(a)
            except Rejected:
                try:
                    b.apply(a)
                except Rejected:
                    pass
                else:
                    raise AssertionError(f"apply accepted what check refused: {a}") from None
                assert b.to_json() == before  # byte-identical after a refusal
        if step % 7 == 0:
            check_round_trips(b)
        choice = rng.choice(actions) if rng.random() < 0.8 else actions[0]
        # Now and then a referee or the clock steps in (they must replay too).
        if rng.random() < 0.02:
            choice = Action(seat, rng.choice(["warning", "violation", "violation", "foul"]))
        if b.phase == "play" and rng.random() < 0.02:
            choice = b.default_action(seat) or choice
        log.append(choice)
        b.apply(choice)
        step += 1
    check_round_trips(b)


@FAST
@given(st.integers(0, 2**32 - 1), st.sampled_from([None, "2022"]))
def test_random_boards_accept_generated_actions_refuse_cleanly_round_trip_replay_and_are_zero_sum(
    seed: int, return_rule: str | None
) -> None:
    rng = random.Random(seed)
    carry = {"options": {"return_rule": return_rule}} if return_rule else None
    for board_no in range(2):  # the second board has a tribute (or resisting) from the first's order
        order = shuffled(rng)
        b = GuandanBoard.from_deal(order, carry)
        log: list[Action] = []
        walk(b, rng, log, full_checks=3 if board_no == 0 else 1)
        result = b.result()
        scores = result["scores"]
        assert scores[0] + scores[1] == 0 and scores[0] == scores[2] and scores[1] == scores[3]
        again = GuandanBoard.from_deal(order, carry)
        for a in log:
            again.apply(a)
        assert again.to_json() == b.to_json() and again.result() == result
        carry = result["carry"]
        if carry["game_over"]:
            break


def bot_game(seed: int, options: dict[str, object], time_up_at: int | None) -> list[dict[str, object]]:
    rng = random.Random(seed)
    carry: dict[str, object] | None = {"options": options}
    boards: list[dict[str, object]] = []
    while True:
        b = GuandanBoard.from_deal(shuffled(rng), carry)
        if time_up_at is not None and len(boards) + 1 >= time_up_at:
            b.apply(Action(0, "time_up"))
        while not b.finished:
            seat = b.pending()[0]
            action = BOT.decide(SeatView.from_dict(b.view(seat)))
            assert action is not None
            b.apply(action)
        result = b.result()
        scores = result["scores"]
        assert scores[0] + scores[1] == 0 and scores[0] == scores[2]
        boards.append(result)
        carry = result["carry"]
        assert isinstance(carry, dict)
        if carry["game_over"]:
            return boards
        assert len(boards) < 80


@pytest.mark.parametrize("mode", list(EndMode))
@settings(max_examples=examples(3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(1, 4), st.booleans())
def test_bots_finish_whole_games_under_every_end_mode(mode: EndMode, seed: int, n: int, a_drop: bool) -> None:
    options: dict[str, object] = {"end_mode": mode.value, "boards": n, "a_drop": a_drop}
    time_up_at = n if mode in (EndMode.TIME, EndMode.TIME_OR_BOARDS) else None
    boards = bot_game(seed, options, time_up_at)
    final = boards[-1]["carry"]
    assert isinstance(final, dict) and final["game_over"]
    game = final["game"]
    assert isinstance(game, dict) and sum(game["match_points"]) == 2 and sum(game["level_points"]) == 26
    if mode != EndMode.GAME:
        assert len(boards) <= n
