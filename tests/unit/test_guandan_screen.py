"""Guandan's handset screen (engines/guandan/screen.py): it shows only what the seat may know, offers
only the cards the rules allow for a tribute or a return, and a play's readings are the engine's."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest
from deckhand.engines.common.cards import format_cards, make_deck, parse_cards
from deckhand.engines.common.shuffle import seeded_shuffle
from deckhand.engines.contract import Action, Rejected
from deckhand.engines.guandan.board import END, LEAD, PLAY, RETURN, TRIBUTE, GuandanBoard
from deckhand.engines.guandan.combos import beats, readings
from deckhand.engines.guandan.legal import legal_plays
from deckhand.engines.guandan.screen import MAX_READINGS, accepted_readings, offer, screen
from deckhand.engines.registry import game
from deckhand.service.infra import outgoing
from deckhand.service.infra.messaging import encode

SPEC = game("guandan-2023")
DECK = make_deck(decks=2, jokers=True)


def boards(seed: str, count: int = 4):
    """Every state of ``count`` consecutive bot-played boards of one game (tribute and return included)."""
    bot = SPEC.bot()
    carry = None
    for b in range(count):
        board = SPEC.new_board(seeded_shuffle(DECK, f"{seed}/{b}"), carry)
        while True:
            yield board
            if board.finished:
                break
            seat = board.pending()[0]
            action = bot(board, seat)
            assert action is not None
            board.apply(action)
        carry = board.result()["carry"]
        if carry["game_over"]:
            return


def scrambled(board: GuandanBoard, seat: int, rng: random.Random) -> GuandanBoard:
    """The board with everything ``seat`` may not know changed: the other seats' cards dealt among them
    anew (each keeps its count), and the tribute and return cards not yet public replaced."""
    other = copy.deepcopy(board)
    seats = [s for s in range(4) if s != seat]
    pool = [c for s in seats for c in other.hands[s]]
    rng.shuffle(pool)
    for s in seats:
        n = len(other.hands[s])
        other.hands[s], pool = sorted(pool[:n]), pool[n:]
    if other.phase == TRIBUTE:
        for s in list(other.paid):
            if s != seat:
                other.paid[s] = rng.choice([c for c in range(54) if c != other.paid[s]])
    if other.phase == RETURN:
        for s in list(other.returned):
            if s != seat:
                other.returned[s] = rng.choice([c for c in range(54) if c != other.returned[s]])
    return other


@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_no_screen_shows_what_its_seat_may_not_know(seed: str) -> None:
    """Over whole bot games: every screen of every seat is the same whatever the other hands hold and
    whatever tribute or return card is not public yet; its hand is the seat's own, in full."""
    rng = random.Random(seed)
    phases = Counter()
    for board in boards(seed):
        phases[board.phase] += 1
        for seat in range(4):
            drawn = screen(board, seat)
            assert Counter(drawn["h"]) == Counter(format_cards(board.hands[seat]))
            assert screen(scrambled(board, seat, rng), seat) == drawn, (board.phase, seat)
    assert phases[PLAY] and phases[END] and phases[TRIBUTE] and phases[RETURN]


@pytest.mark.parametrize("seed", ["d", "e"])
def test_tribute_and_return_let_only_the_legal_cards_be_selected(seed: str) -> None:
    seen = Counter()
    for board in boards(seed, 6):
        if board.phase not in (TRIBUTE, RETURN):
            continue
        for seat in board.pending():
            drawn = screen(board, seat)
            ask = drawn["ask"]
            kind = "tribute" if board.phase == TRIBUTE else "return"
            assert [o["a"] for o in ask["o"]] == [{"k": kind, "c": True}]
            legal = {format_cards([a.cards[0]])[0] for a in board.legal_actions(seat)}
            places = ask.get("s", range(len(drawn["h"])))
            assert {drawn["h"][i] for i in places} == legal
            assert all(drawn["h"][i] in legal for i in places)
            # Every copy of a legal card may be chosen, and nothing else.
            assert [i for i, t in enumerate(drawn["h"]) if t in legal] == list(places)
            for i in places:  # whichever is selected, the engine accepts it
                trial = copy.deepcopy(board)
                trial.check(Action(seat, kind, tuple(parse_cards([drawn["h"][i]], jokers=True))))
            seen[kind] += 1
    assert seen["tribute"] and seen["return"]


def test_the_hand_reads_by_rank_in_the_level_order_with_the_wilds_named() -> None:
    level_7 = {"levels": ["7", "2"], "level_side": 0, "leader": 0}
    hands = [
        parse_cards(t, decks=2, jokers=True)
        for t in (
            ["H7", "H7", "S7", "D2", "SA", "RJ", "BJ", "D3"]
            + ["C4"] * 2
            + ["D5"] * 2
            + ["D6"] * 2
            + ["C8"] * 2
            + ["C9"] * 2
            + ["CT"] * 2
            + ["CJ"] * 2
            + ["CQ"] * 2
            + ["CK"] * 2
            + ["DA"],
        )
    ]
    rest = Counter(DECK) - Counter(hands[0])
    pool = sorted(rest.elements())
    board = GuandanBoard([hands[0], pool[0:27], pool[27:54], pool[54:81]], level_7)
    drawn = screen(board, 0)
    assert drawn["h"][:2] == ["D2", "D3"] and drawn["h"][-7:] == ["DA", "SA", "S7", "H7", "H7", "BJ", "RJ"]
    assert "Levels: you 7, them 2 \u2014 playing 7, wild 7\u2665 (you hold 2)" in drawn["l"]
    assert drawn["l"][0] == "You to lead" and drawn["ask"]["p"] == "Your lead"
    assert screen(board, 1)["l"][1].startswith("Levels: you 2, them 7 \u2014 playing 7, wild 7\u2665")


def wild_board() -> GuandanBoard:
    """Level 2 (♥2 wild): seat 0 leads holding ♠9 ♠10 ♠J and both wilds (the most readings a play has)."""
    mine = parse_cards(["S9", "ST", "SJ", "H2", "H2"], decks=2)
    rest = sorted((Counter(DECK) - Counter(mine)).elements())
    return GuandanBoard([mine + rest[:22], rest[22:49], rest[49:76], rest[76:103]], {"leader": 0})


def test_a_play_that_reads_several_ways_is_offered_with_each_reading_the_engine_accepts() -> None:
    board = wild_board()
    cards = tuple(parse_cards(["S9", "ST", "SJ", "H2", "H2"], decks=2))
    with pytest.raises(Rejected) as refused:
        copy.deepcopy(board).apply(Action(0, "play", cards))
    assert refused.value.code == "reading_needed"
    asked = offer(board, Action(0, "play", cards), "reading_needed")
    assert asked is not None and len(asked["o"]) == MAX_READINGS
    engine = {
        (r.type.json_name, tuple(sorted(format_cards(r.cards))))
        for c, r in legal_plays(board.hands[0], board.level, None)
        if sorted(c) == sorted(cards)
    }
    offered = {(o["a"]["d"]["type"], tuple(sorted(o["a"]["d"]["as"]))) for o in asked["o"]}
    assert offered == engine
    assert [o["l"] for o in asked["o"]][:1] == ["straight 7\u2013J"]
    for o in asked["o"]:
        assert o["a"]["k"] == "play" and o["a"]["c"] is True
        trial = copy.deepcopy(board)
        trial.apply(Action(0, "play", cards, data=o["a"]["d"]))
        read = trial.last_reading
        assert read is not None and (read.type.json_name, tuple(sorted(format_cards(read.cards)))) in engine
    # The refusal with its offer fits a device message, even with the longest message id.
    message = outgoing.reject("m" * 64, "reading_needed", "choose one of the options", asked)
    assert "ask" in message
    encode(message)
    assert offer(board, Action(0, "play", cards), "does_not_beat") is None


def test_following_offers_only_the_readings_that_beat_and_none_when_one_does() -> None:
    board = wild_board()
    board.hands[0], board.hands[1] = board.hands[1], board.hands[0]  # seat 1 holds the wild straight
    cards = tuple(parse_cards(["S9", "ST", "SJ", "H2", "H2"], decks=2))
    for last, expected in (
        (
            ["D8", "D9", "CT", "CJ", "DQ"],
            {("straight", "K"), ("straight_flush", "J"), ("straight_flush", "Q")},
        ),
        (["D8", "D9", "DT", "DJ", "DQ"], {("straight_flush", "K")}),
    ):
        played = tuple(parse_cards(last))
        (board.last_reading,) = readings(played, board.level)
        board.last, board.last_seat, board.turn = played, 0, 1
        found = accepted_readings(board.seat_view(1), cards)
        tops = {
            (r.type.json_name, format_cards([max(r.cards, key=lambda c: (c >> 2, c))])[0][1]) for r in found
        }
        assert tops >= expected and all(beats(r, board.last_reading) for r in found)
        asked = offer(board, Action(1, "play", cards), "reading_needed")
        if len(found) == 1:
            assert asked is None
            copy.deepcopy(board).apply(Action(1, "play", cards))  # one reading beats: no choice needed
        else:
            assert asked is not None and len(asked["o"]) == len(found)
            with pytest.raises(Rejected, match="several ways"):
                copy.deepcopy(board).apply(Action(1, "play", cards))


def test_after_a_foul_the_chooser_names_any_of_the_four_seats() -> None:
    carry = {
        "levels": ["5", "3"],
        "level_side": 1,
        "order": [1, 3, 0, 2],
        "no_tribute": True,
        "chooser_side": 1,
    }
    board = SPEC.new_board(seeded_shuffle(DECK, "foul"), carry)
    assert board.phase == LEAD
    chooser = board.pending()[0]
    drawn = screen(board, chooser)
    assert [o["a"] for o in drawn["ask"]["o"]] == [{"k": "lead", "v": s} for s in range(4)]
    assert drawn["l"][0] == "After the foul you choose who leads"
    assert "ask" not in screen(board, (chooser + 1) % 4)


def test_the_end_shows_the_finishing_order_and_the_level_change() -> None:
    last = None
    for board in boards("end", 1):
        last = board
    assert last is not None and last.finished
    result = last.result()
    drawn = screen(last, 0)
    assert drawn["l"][0] == "Board over" and "ask" not in drawn
    assert any(line.startswith("Order: ") for line in drawn["l"])
    assert any(line.startswith("Level change: ") for line in drawn["l"]) == bool(result["steps"])
    assert drawn["l"][-1].startswith("Scores: ")


def test_every_screen_of_a_game_fits_a_view_message() -> None:
    largest = 0
    for board in boards("size", 6):
        for seat in range(4):
            message = outgoing.view(
                ruleset=SPEC.ruleset,
                board="12",
                round_no=3,
                version=9999,
                seat=seat,
                status="ended" if board.finished else "playing",
                left_ms=3_600_000,
                screen=screen(board, seat),
            )
            largest = max(largest, len(encode(message)))
    assert largest < 1024, largest
    json.dumps(largest)
