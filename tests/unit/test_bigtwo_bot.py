"""The bot is deterministic, always legal, and plays better than chance; every board it plays out
ends with the cards left counted right."""

import random

from deckhand.engines.bigtwo.board import BigTwoBoard
from deckhand.engines.bigtwo.bot import BigTwoBot, hand_strength
from deckhand.engines.contract import Action
from helpers import board_in_play, cards, seeded_board


def play_out(board: BigTwoBoard, deciders) -> list[Action]:
    log = []
    while not board.finished:
        seat = board.pending()[0]
        hand = board.hand(seat)
        # Each generated play lists its cards in the hand's order (one form per set of cards).
        for play in (a for a in board.legal_actions(seat) if a.kind == "play"):
            assert play.cards == tuple(c for c in hand if c in play.cards), play
        action = deciders[seat](board, seat)
        board.apply(action)
        log.append(action)
    # Big Two's own result fields (the engine contract checks the zero sum, for every game): the winner
    # went out, and the cards left are exactly the cards still in the hands.
    result = board.result()
    assert result["cards_left"][result["winner"]] == 0
    assert sum(result["cards_left"]) == sum(board.counts())
    return log


def bot_decider(style="steady"):
    bot = BigTwoBot(style)
    return lambda board, seat: bot.decide(board.seat_view(seat))


def test_same_view_same_decision():
    board = seeded_board("determinism")
    bot_a, bot_b = BigTwoBot("bold"), BigTwoBot("bold")
    while not board.finished:
        seat = board.pending()[0]
        view = board.seat_view(seat)
        decision = bot_a.decide(view)
        assert decision == bot_b.decide(view) == bot_a.decide(view)
        board.apply(decision)


def test_same_board_replays_identically():
    logs = [play_out(seeded_board("replay"), [bot_decider()] * 4) for _ in range(2)]
    assert logs[0] == logs[1]


def test_goes_out_when_it_can():
    board = board_in_play(["D3 C3", "D7 C7 H9", "S6 S7 S9", "D5 D8 DK"], turn=0, last="", last_seat=-1)
    assert BigTwoBot().decide(board.seat_view(0)) == Action(0, "play", tuple(cards("D3 C3")))


def test_leads_low_and_keeps_pairs_together():
    board = board_in_play(
        ["D4 C4 D9 S2 HA", "D7 C7 H9", "S6 S7 S9", "D5 D8 DK"], turn=0, last="", last_seat=-1
    )
    assert BigTwoBot().decide(board.seat_view(0)) == Action(0, "play", tuple(cards("D4 C4")))


def test_follows_cheaply_without_breaking_a_pair():
    board = board_in_play(["D3 DT", "H8 C8 H9 SJ", "S6 S7 S9", "D5 D8 DK"], turn=1, last="D7", last_seat=0)
    assert BigTwoBot().decide(board.seat_view(1)) == Action(1, "play", tuple(cards("H9")))


def test_saves_a_two_early_but_not_when_an_opponent_is_nearly_out():
    many = ["D3 D4 D5 D6 D7 D8", "H2 C4 C5 C6 C9 CT", "S6 S7 S9 ST SJ", "H5 H8 HK HQ HJ"]
    early = board_in_play(many, turn=1, last="DA", last_seat=0)
    assert BigTwoBot("steady").decide(early.seat_view(1)) == Action(1, "pass")
    late = board_in_play(["D3 D4", *many[1:]], turn=1, last="DA", last_seat=0)
    assert BigTwoBot("steady").decide(late.seat_view(1)) == Action(1, "play", tuple(cards("H2")))


def test_shows_and_doubles_strong_hands_only():
    strong = sorted(cards("D2 C2 H2 S2 DA CA HA SA DK CK HK SK DQ"))
    weak = sorted(cards("D3 C3 H4 S5 D6 C7 H8 S9 DT CT D4 C5 H6"))
    assert hand_strength(tuple(strong)) == 4 * 4 + 4 * 3 + 4 * 2 + 1
    assert hand_strength(tuple(weak)) == 0
    rest = sorted(set(range(52)) - set(strong) - set(weak))
    board = BigTwoBoard([strong, weak, rest[:13], rest[13:]])
    bot = BigTwoBot("steady")
    assert bot.decide(board.seat_view(0)) == Action(0, "show", value=1)
    assert bot.decide(board.seat_view(1)) == Action(1, "show", value=0)
    for seat in range(4):
        board.apply(bot.decide(board.seat_view(seat)))
    assert board.first == 1
    assert bot.decide(board.seat_view(1)) == Action(1, "double", value=0)
    board.apply(Action(1, "double", value=0))
    board.apply(Action(2, "double", value=0))
    board.apply(Action(3, "double", value=0))
    assert bot.decide(board.seat_view(0)) == Action(0, "double", value=1)
    assert bot.decide(board.seat_view(2)) is None  # not its decision


def test_beats_random_players():
    """Two bots against two random legal players over many boards: the bots win clearly."""
    rng = random.Random(7)

    def random_player(board, seat):
        return rng.choice(board.legal_actions(seat))

    bot_total = 0
    for i in range(120):
        board = seeded_board(f"strength-{i}")
        seats = [bot_decider(), random_player, bot_decider(), random_player]
        if i % 2:
            seats = seats[1:] + seats[:1]
        play_out(board, seats)
        scores = board.result()["scores"]
        bot_seats = (0, 2) if i % 2 == 0 else (1, 3)
        bot_total += sum(scores[s] for s in bot_seats)
    assert bot_total > 0
