"""The Guandan bot (issue 16): always legal, deterministic, sensible (keeps bombs, never beats its
partner, pays and returns by the rules), and whole games under every end mode (RULES.md §4 "Game end")."""

import random

import pytest
from deckhand.engines.common.cards import make_deck, parse_cards
from deckhand.engines.contract import Action
from deckhand.engines.guandan.board import PLAY, GuandanBoard, SeatView
from deckhand.engines.guandan.bot import GuandanBot
from deckhand.engines.guandan.levels import PAST_A, parse_level

BOTS = [GuandanBot("steady"), GuandanBot("bold"), GuandanBot("careful"), GuandanBot("steady")]


def C(text):
    return sorted(parse_cards(text.split(), decks=2, jokers=True))


def run_game(seed, options=None, time_up_after=None, max_boards=60):
    """A whole game between bots; the platform's clock runs out during board ``time_up_after``."""
    rng = random.Random(seed)
    carry = {"options": options} if options else None
    boards = []
    while True:
        deck = make_deck(decks=2, jokers=True)
        rng.shuffle(deck)
        b = GuandanBoard.from_deal(deck, carry)
        if time_up_after is not None and len(boards) + 1 >= time_up_after:
            b.apply(Action(0, "time_up"))
        while not b.finished:
            seat = b.pending()[0]
            action = BOTS[seat].decide(SeatView.from_dict(b.view(seat)))  # as a handset would
            assert action is not None
            b.check(action)
            b.apply(action)
        result = b.result()
        assert [result["scores"][0] + result["scores"][1], result["scores"][0] - result["scores"][2]] == [
            0,
            0,
        ]
        boards.append(result)
        carry = result["carry"]
        if carry["game_over"]:
            return boards
        assert len(boards) < max_boards


@pytest.mark.parametrize(
    "options",
    [
        None,
        {"end_mode": "boards", "boards": 60},
        {"end_mode": "time", "minutes": 60},
        {"end_mode": "time_or_boards", "boards": 60},
        {"a_drop": True, "return_rule": "2022"},
    ],
)
def test_whole_games_to_a_plus_under_every_end_mode(options):
    boards = run_game(1, options)
    final = boards[-1]["carry"]
    assert PAST_A in [parse_level(x) for x in final["levels"]]
    assert final["game"]["match_points"] in ([2, 0], [0, 2])


@pytest.mark.parametrize(
    ("options", "time_up_after", "count"),
    [
        ({"end_mode": "boards", "boards": 3}, None, 3),
        ({"end_mode": "time"}, 2, 2),
        ({"end_mode": "time_or_boards", "boards": 4}, 2, 2),
        ({"end_mode": "time_or_boards", "boards": 2}, None, 2),
    ],
)
def test_games_ended_by_the_board_count_or_the_clock(options, time_up_after, count):
    boards = run_game(2, options, time_up_after)
    assert len(boards) == count
    game = boards[-1]["carry"]["game"]
    assert sum(game["match_points"]) == 2 and sum(game["level_points"]) == 26


def test_the_bot_is_deterministic():
    assert [b["order"] for b in run_game(7)] == [b["order"] for b in run_game(7)]


def test_unknown_style_is_refused():
    with pytest.raises(ValueError):
        GuandanBot("wild")


def small_board(*hands, leader=0):
    b = GuandanBoard.from_deal(make_deck(decks=2, jokers=True), {"leader": leader})
    b.hands = [C(h) for h in hands]
    return b


def test_goes_out_when_it_can_and_leads_low_without_breaking_a_bomb():
    b = small_board("S5 S5", "D4", "C6", "H8")
    assert GuandanBot().decide(b.seat_view(0)).cards == tuple(C("S5 S5"))
    b = small_board("S3 D3 C3 H3 S6 D9 DK", "D4", "C6", "H8")
    action = GuandanBot().decide(b.seat_view(0))
    assert action.kind == "play" and not set(action.cards) & set(C("S3 D3 C3 H3"))
    assert action.cards == tuple(C("S6"))


def test_never_beats_its_partner_and_keeps_bombs_while_opponents_hold_many_cards():
    b = small_board(
        "S4 S9", "DK DK C4 C5 C6 C7 C8 C9 CT CJ CQ", "S5 S6 S7 S8 D9 D9", "S3 S3 D3 D3 H8 H9 HT", leader=2
    )
    b.apply(Action(2, "play", tuple(C("S5"))))
    b.apply(Action(3, "pass"))
    assert GuandanBot().decide(b.seat_view(0)) == Action(0, "pass")
    b = small_board(
        "S4 S9 SJ SQ DA DA HK HK C2 C2 HQ",
        "DK",
        "S5 S6 S7 S8 D9 D9 ST SJ SQ SK",
        "S3 S3 D3 D3 H8 H9 HT C4 C5 C6 C7 C8",
        leader=2,
    )
    b.apply(Action(2, "play", tuple(C("D9 D9"))))
    assert GuandanBot().decide(b.seat_view(3)) == Action(3, "pass")


def test_tribute_and_return_choices_are_legal():
    rng = random.Random(3)
    for _ in range(6):
        deck = make_deck(decks=2, jokers=True)
        rng.shuffle(deck)
        order = rng.sample(range(4), 4)
        b = GuandanBoard.from_deal(deck, {"levels": ["7", "3"], "order": order})
        while b.phase != PLAY:
            for seat in b.pending():
                action = BOTS[seat].decide(b.seat_view(seat))
                assert action in b.legal_actions(seat)
                b.apply(action)


def test_leads_its_lowest_combination_and_feeds_a_partner_close_to_going_out():
    many = "C9 C9 CT CT CJ CJ CQ"
    # The partner holds many cards: the lowest combination, a pair before a single of the same rank.
    b = small_board("S3 D3 S6 D9 DK", "D4", many, "H8")
    assert GuandanBot().decide(b.seat_view(0)).cards == tuple(C("S3 D3"))
    # The partner holds 4 or fewer: a low single it can beat.
    b = small_board("S3 D3 S6 D9 DK", "D4", "C9 CT CJ CQ", "H8")
    fed = GuandanBot().decide(b.seat_view(0)).cards
    assert len(fed) == 1 and fed[0] in C("S3 D3")


def test_returns_the_cheapest_allowed_card():
    from deckhand.engines.guandan.tribute import strength

    rng = random.Random(11)
    for _ in range(4):
        deck = make_deck(decks=2, jokers=True)
        rng.shuffle(deck)
        b = GuandanBoard.from_deal(deck, {"levels": ["7", "3"], "order": [0, 1, 2, 3]})
        if b.resisted:
            continue
        b.apply(b.legal_actions(3)[0])
        allowed = [a.cards[0] for a in b.legal_actions(0)]
        chosen = GuandanBot().decide(b.seat_view(0))
        assert chosen is not None and chosen.cards[0] in allowed
        singles = [
            c for c in allowed if c >= 52 or sum(1 for x in b.hands[0] if x < 52 and x >> 2 == c >> 2) == 1
        ]
        pool = singles or allowed
        assert strength(chosen.cards[0], b.level) == min(strength(c, b.level) for c in pool)
