"""Clocks per move through the system (RULES.md §6.1–6.4, §6.5), on the simulated clock: a seat that
does not move is warned at each move's limit and its clock starts again; both players' screens say
every warning (one seat's device in Chinese, the other's in English); the third warning (Junqi: the
fifth timeout) loses the game, and the match goes on to its next game. Draw offers and resignation
are the seats' own actions through their devices, shown to both."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from backend import Backend, act
from deckhand.service.boards import store as board_store
from deckhand.service.boards.round_boards import list_matches
from deckhand.service.duplicate import rounds
from deckhand.service.organiser import events, pairs

EVENT = "clock-cup"
EN, ZH = "en", "zh-CN"
# Each game's warning line as both screens draw it (seat 0 moves first: Red, Black, Red), the seat's
# limit in ms, and the count that loses.
WARNING_LINES = {
    "xiangqi-2004": ("clock warnings: Red {0}, Black {1}", "超时警告：红方 {0}，黑方 {1}", 300_000, 3),
    "gomoku-renju": ("clock warnings: Black {0}, White {1}", "超时警告：黑方 {0}，白方 {1}", 60_000, 3),
    "checkers-2004": ("clock warnings: Red {0}, Blue {1}", "超时警告：红方 {0}，蓝方 {1}", 60_000, 3),
}


def cup(backend: Backend, ruleset: str) -> tuple[str, str]:
    """Two players, one table; the handset at seat 0 draws in English, at seat 1 in Chinese."""
    events.create_event(
        {
            "event_id": EVENT,
            "name": "Clock Cup",
            "ruleset": ruleset,
            "grade": "unrated",
            "rounds": 1,
            "start": dt.date(2026, 12, 14),
            "deal_seed": f"clock-{ruleset}",
            "match": {"format": "knockout"},
        }  # fmt: skip
    )
    pairs.register_pairs(EVENT, [{"id": p, "players": [{"id": p}]} for p in ("ANN", "BEN")])
    events.register_tables(EVENT, [{"id": "T1", "seats": ["ck-0", "ck-1"]}])
    rounds.request_next_round(backend.rt, EVENT)
    for thing, lang in (("ck-0", EN), ("ck-1", ZH)):
        assert backend.send(thing, {"t": "hello", "msg": f"hi-{thing}", "lang": lang})["status"] == "accepted"
    return "ck-0", "ck-1"


def board(number: str | None = None) -> Any:
    (m,) = [m for m in list_matches(EVENT, 1) if m.table]
    item = board_store.load(EVENT, 1, "T1", number or m.boards[-1])
    assert item is not None
    return item


def lines(backend: Backend, thing: str, number: str) -> list[str]:
    views = [v for v in backend.publisher.to(thing) if v["t"] == "view" and v["b"] == number]
    return list(views[-1]["l"])


@pytest.mark.parametrize("ruleset", sorted(WARNING_LINES))
def test_each_warning_is_shown_to_both_players_and_the_third_loses_the_game(backend, ruleset):
    english, chinese, limit, lose = WARNING_LINES[ruleset]
    cup(backend, ruleset)
    first = board()
    assert first.langs == {"0": EN, "1": ZH}
    for n in range(1, lose + 1):
        backend.clock.advance(limit - 1)
        backend.sweep()
        # A moment before the limit: no warning yet.
        assert board_store.engine_of(board(first.board))[1].view(0)["warnings"] == [n - 1, 0]
        backend.clock.advance(1)  # the move's limit: one warning, the clock starts again
        backend.sweep()
        seen = {thing: lines(backend, thing, first.board) for thing in first.devices}
        by_seat = {0: english.format(n, 0), 1: chinese.format(n, 0)}
        for seat, thing in enumerate(first.devices):
            assert by_seat[seat] in seen[thing], (n, seat, seen[thing])
        assert (board(first.board).status == "ended") == (n == lose)
    (m,) = [m for m in list_matches(EVENT, 1) if m.table]
    assert m.games[0]["ended_by"] == "time" and m.games[0]["mp"][m.games[0]["first"]] == 0
    assert m.boards == [first.board, "2"] and board().status == "playing"  # the match goes on
    assert board().langs == first.langs  # each device keeps its language in game 2


def test_junqi_s_fifth_timeout_loses_and_both_players_see_every_timeout(backend):
    cup(backend, "junqi-2004")
    first = board()
    backend.clock.advance(300_000)  # the setups' time: each seat's seeded setup, no timeout counted
    backend.sweep()
    assert json.loads(board(first.board).state)["w"] == [0, 0]
    for k in range(1, 10):  # both idle: Red, Blue, Red… each turn times out and passes
        backend.clock.advance(60_000)
        backend.sweep()
        red, blue = (k + 1) // 2, k // 2
        assert json.loads(board(first.board).state)["w"] == [red, blue]
        assert f"timeouts: Red {red}, Blue {blue}" in lines(backend, first.devices[0], first.board)
        assert f"超时：红方 {red}，蓝方 {blue}" in lines(backend, first.devices[1], first.board)
        assert (board(first.board).status == "ended") == (red == 5)
    (m,) = [m for m in list_matches(EVENT, 1) if m.table]
    assert m.games[0]["ended_by"] == "time" and m.games[0]["mp"][m.games[0]["first"]] == 0
    assert m.boards == [first.board, "2"]


OFFER_LINES: dict[str, tuple[str, str]] = {
    "xiangqi-2004": ("Red offers a draw", "红方提议和棋"),
    "gomoku-renju": ("Black offers a draw", "黑方提议和棋"),
    "checkers-2004": ("Red offers a draw", "红方提议和棋"),
}


@pytest.mark.parametrize("ruleset", sorted(OFFER_LINES))
def test_a_draw_offered_and_accepted_and_a_resignation_go_through_the_devices(backend, ruleset):
    cup(backend, ruleset)
    first = board()
    red, black = first.devices
    assert backend.send(red, act("offer-1", first.board, "offer", r=1))["status"] == "accepted"
    # The offer stands on both screens (the seat to move is still seat 0: it may move or wait).
    views = {thing: backend.seat_view(thing) for thing in (red, black)}
    assert all(v["offer"] == 0 for v in views.values()), views
    english, chinese = OFFER_LINES[ruleset]
    assert english in lines(backend, red, first.board) and chinese in lines(backend, black, first.board)
    # Seat 1 is not to move: it cannot accept yet; seat 0 moves (declining nothing: its own offer).
    refused = backend.send(black, act("accept-early", first.board, "accept", r=1))
    assert refused["status"] == "rejected" and refused["code"] == "not_your_turn", refused
    from deckhand.engines.registry import game

    g = game(ruleset)
    action = g.view_bot("steady")(backend.seat_view(red))
    assert action is not None
    payload = act("mv-1", first.board, action.kind, r=1)
    payload["a"]["d"] = action.data
    assert backend.send(red, payload)["status"] == "accepted"
    again = backend.send(red, payload)  # a duplicate delivery: acknowledged, applied once
    assert again["status"] in ("accepted", "duplicate"), again
    assert backend.send(black, act("accept-1", first.board, "accept", r=1))["status"] == "accepted"
    (m,) = [m for m in list_matches(EVENT, 1) if m.table]
    assert m.games[0]["mp"] == [1, 1]  # drawn by agreement: ½ each
    second = board()
    assert second.board == "2" and second.devices == first.devices
    # Game 2: seat 0 (the other player now) resigns through its device; game 2 lost, the match level.
    assert backend.send(second.devices[0], act("resign-2", "2", "resign", r=1))["status"] == "accepted"
    (m,) = [m for m in list_matches(EVENT, 1) if m.table]
    assert m.games[1]["mp"][m.games[1]["first"]] == 0 and "resign" in m.games[1]["ended_by"]
    assert m.status == "done"  # 1½ to ½ after two games: decided
