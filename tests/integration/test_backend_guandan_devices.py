"""Guandan's devices against the backend (moto): the dealing table's 108-card report, where two
identical cards are two places, and a play that reads several ways, refused with its readings offered
and then played with the one chosen."""

from __future__ import annotations

from collections import Counter

import pytest
from backend import Backend, create_table, setup_moto_env
from deckhand.engines.common.cards import format_cards, make_deck, parse_cards
from deckhand.engines.common.shuffle import seeded_shuffle
from deckhand.engines.guandan.board import GuandanBoard
from deckhand.engines.registry import game
from deckhand.service.boards import store as board_store
from deckhand.service.boards import views as board_views
from deckhand.service.storage.keys import META, board_pk, deal_sk, device_pk, event_pk
from deckhand.service.storage.models import BoardStateItem, DealItem, DeviceItem
from moto import mock_aws

setup_moto_env()

SPEC = game("guandan-2023")
HANDSETS = [f"gd-{s}" for s in range(4)]
DEALER = "gd-dealer"


@pytest.fixture
def backend():
    with mock_aws():
        create_table()
        yield Backend()


def seed(order: list[int], board: GuandanBoard | None = None) -> None:
    """One Guandan board in play at table T1 of round 1, every seat a person with a handset."""
    DealItem(event_pk("g"), deal_sk(1, 1, "1"), order=order).save()
    BoardStateItem(
        board_pk("g", 1, "T1", "1"),
        "STATE",
        event_id="g",
        round=1,
        group="1",
        table="T1",
        board="1",
        position=0,
        ruleset=SPEC.ruleset,
        players=[f"p{s}" for s in range(4)],
        devices=list(HANDSETS),
        dealer=DEALER,
        status="playing",
        state=(board or SPEC.new_board(order, None)).to_json(),
        log=[],
        asked_at=[0] * 4,
        play_ms=[0] * 4,
    ).save()
    for seat, thing in [*enumerate(HANDSETS), (-1, DEALER)]:
        DeviceItem(device_pk(thing), META, event_id="g", table="T1", seat=seat).save()


def dealt(backend: Backend, msg: str, tokens: list[str]) -> dict:
    return backend.send(DEALER, {"t": "dealt", "msg": msg, "board": "1", "r": 1, "cards": tokens})


def order_with_copies_apart() -> list[int]:
    order = seeded_shuffle(make_deck(decks=2, jokers=True), "two-decks")
    assert len(order) == 108 and max(Counter(order).values()) == 2
    return order


def test_a_108_card_report_with_both_copies_of_every_card_matches(backend: Backend) -> None:
    order = order_with_copies_apart()
    seed(order)
    tokens = format_cards(order)
    card = tokens[5]
    first, second = (i for i, t in enumerate(tokens) if t == card)
    swapped = list(tokens)
    swapped[first], swapped[second] = swapped[second], swapped[first]  # the two copies change places
    assert dealt(backend, "d1", swapped)["status"] == "accepted"
    item = board_store.load("g", 1, "T1", "1")
    assert item is not None and item.dealt_ok and item.status == "playing"


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ("drop_one_copy", "card {n} read as"),
        ("missing_last", "only 107 of 108 cards were dealt"),
        ("third_copy", "unreadable report: card"),
        ("two_cards_swapped", "card {n} read as"),
    ],
)
def test_a_report_missing_a_copy_or_out_of_order_stops_the_board(
    backend: Backend, change: str, why: str
) -> None:
    order = order_with_copies_apart()
    seed(order)
    tokens = format_cards(order)
    card = tokens[5]
    second = max(i for i, t in enumerate(tokens) if t == card)
    report = list(tokens)
    n = 0
    if change == "drop_one_copy":  # one copy never read: every card after it is one place early
        del report[second]
        n = second + 1
    elif change == "missing_last":
        report = report[:-1]
    elif change == "third_copy":  # a copy read as a third one of another card
        other = tokens[6] if tokens[6] != card else tokens[7]
        report[second] = other
    else:
        j = next(i for i in range(len(tokens) - 1) if tokens[i] != tokens[i + 1])
        report[j], report[j + 1] = report[j + 1], report[j]
        n = j + 1
    result = dealt(backend, "d1", report)
    assert result["status"] == "rejected" and result["code"] == "deal_mismatch"
    assert result["why"].startswith(why.format(n=n)), result["why"]
    item = board_store.load("g", 1, "T1", "1")
    assert item is not None and item.status == "stopped" and item.dealt_ok is False


def wild_board() -> tuple[list[int], GuandanBoard]:
    """Level 2 (♥2 wild), seat 0 leads holding ♠9 ♠10 ♠J and both ♥2: six readings."""
    mine = parse_cards(["S9", "ST", "SJ", "H2", "H2"], decks=2)
    rest = sorted((Counter(make_deck(decks=2, jokers=True)) - Counter(mine)).elements())
    hands = [mine + rest[:22], rest[22:49], rest[49:76], rest[76:103]]
    order = [hands[i % 4][i // 4] for i in range(108)]
    return order, GuandanBoard(hands, {"leader": 0})


def test_a_play_with_several_readings_is_refused_with_them_and_played_with_the_one_chosen(
    backend: Backend,
) -> None:
    order, board = wild_board()
    seed(order, board)
    item = board_store.load("g", 1, "T1", "1")
    assert item is not None
    board_views.publish_views(backend.publisher, item)  # what the board's start sends
    view = backend.last_view(HANDSETS[0])
    assert view is not None and view["ask"]["o"] == [{"l": "Play", "a": {"k": "play", "c": True}}]
    cards = ["S9", "ST", "SJ", "H2", "H2"]
    play = {"t": "act", "msg": "p1", "board": "1", "r": 1, "a": {"k": "play", "c": cards}}
    result = backend.send(HANDSETS[0], play)
    assert result["status"] == "rejected" and result["code"] == "reading_needed"
    refusal = backend.publisher.to(HANDSETS[0])[-1]
    assert refusal["t"] == "reject" and refusal["msg"] == "p1" and len(refusal["ask"]["o"]) == 6
    labels = [o["l"] for o in refusal["ask"]["o"]]
    assert "straight 9\u2013K" in labels and "straight flush 7\u2660\u2013J\u2660" in labels
    chosen = refusal["ask"]["o"][labels.index("straight 9\u2013K")]["a"]
    again = {"t": "act", "msg": "p2", "board": "1", "r": 1, "a": {"k": "play", "c": cards, "d": chosen["d"]}}
    assert backend.send(HANDSETS[0], again)["status"] == "accepted"
    item = board_store.load("g", 1, "T1", "1")
    assert item is not None
    _, stored = board_store.engine_of(item)
    assert isinstance(stored, GuandanBoard) and stored.last_reading is not None
    assert stored.last_reading.type.json_name == "straight" and stored.last_reading.rank == 13
    assert item.log[-1]["d"] == chosen["d"]  # the reading is logged: the audit's replay needs it
    seen = backend.last_view(HANDSETS[1])
    assert seen is not None and any(line.startswith("Trick: seat 0 ") for line in seen["l"])


def test_the_readings_are_offered_in_the_language_of_the_seat_s_device(backend: Backend) -> None:
    """The refusal's ask is drawn like the view (docs/protocol.md, Language): a device drawing in
    Chinese is offered the same readings in Chinese; its ``why`` stays English, the code the contract."""
    order, board = wild_board()
    seed(order, board)
    item = board_store.load("g", 1, "T1", "1")
    assert item is not None
    cards = ["S9", "ST", "SJ", "H2", "H2"]
    play = {"t": "act", "msg": "p1", "board": "1", "r": 1, "a": {"k": "play", "c": cards}}
    assert backend.send(HANDSETS[0], play)["code"] == "reading_needed"
    english = backend.publisher.to(HANDSETS[0])[-1]["ask"]
    board_store.set_lang(item, 0, "zh-CN")
    result = backend.send(HANDSETS[0], {**play, "msg": "p2"})
    assert result["code"] == "reading_needed" and result["why"] == english_why(backend)
    chinese = backend.publisher.to(HANDSETS[0])[-1]["ask"]
    assert chinese["p"] == "按哪种牌型出？" and "顺子 9\u2013K" in [o["l"] for o in chinese["o"]]
    assert [o["a"] for o in chinese["o"]] == [o["a"] for o in english["o"]]
    board_views.publish_views(backend.publisher, board_store.load("g", 1, "T1", "1"))  # type: ignore[arg-type]
    assert backend.last_view(HANDSETS[0])["l"][0] == "你首出"  # type: ignore[index]
    assert backend.last_view(HANDSETS[1])["l"][0] == "Seat 0 to lead"  # type: ignore[index]


def english_why(backend: Backend) -> str:
    return next(p["why"] for p in backend.publisher.to(HANDSETS[0]) if p["t"] == "reject")
