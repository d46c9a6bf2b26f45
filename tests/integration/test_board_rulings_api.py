"""A referee's rulings on a board game through the API (RULES.md §6.2, §6.5): a claim adjudicated, a
wrongly entered move corrected (the game replayed from there, audited before/after), a player who
does not appear forfeited — each bound to the board's version, applied and audited once however
often it is sent, refused with a structured error on bad input, and only for the event's staff."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

import pytest
from api_calls import ALICE, BOB, CAROL, call
from backend import Backend, act
from deckhand.service.boards import store as board_store
from deckhand.service.boards.round_boards import list_matches
from deckhand.service.duplicate import rounds
from deckhand.service.infra import lambda_runtime
from deckhand.service.organiser import access, events, pairs
from deckhand.service.refereeing.actions import audit_log
from handlers import load_handler

EVENT = "ruling-cup"
# Black's ninth stone (H10) makes a double-three (E10 F10 _ H10 and H8 H9 H10): a forbidden move.
DOUBLE_THREE = ["H8", "A1", "H9", "A3", "E10", "A5", "F10", "A7", "H10"]


@pytest.fixture
def api(backend: Backend) -> Iterator[Any]:
    lambda_runtime.set_runtime(backend.rt)
    try:
        yield load_handler("api")
    finally:
        lambda_runtime.set_runtime(None)


def cup(backend: Backend, ruleset: str, players: tuple[str, ...] = ("ANN", "BEN")) -> None:
    """A knockout of ``players`` (one table a match), its referee CAROL, round 1 begun."""
    event = events.create_event(
        {
            "event_id": EVENT,
            "name": "Ruling Cup",
            "ruleset": ruleset,
            "grade": "unrated",
            "rounds": (len(players) - 1).bit_length(),
            "start": dt.date(2026, 12, 14),
            "deal_seed": f"ruling-{ruleset}",
            "match": {"format": "knockout"},
        },  # fmt: skip
        owner=ALICE,
    )
    access.set_roles(event, ALICE, {CAROL: "referee"})
    pairs.register_pairs(EVENT, [{"id": p, "players": [{"id": p}]} for p in players])
    tables = [
        {"id": f"T{i + 1}", "seats": [f"rl-{i + 1}-0", f"rl-{i + 1}-1"]} for i in range(len(players) // 2)
    ]
    events.register_tables(EVENT, tables)
    rounds.request_next_round(backend.rt, EVENT)


def board(table: str = "T1", number: str | None = None) -> Any:
    (m,) = [m for m in list_matches(EVENT, 1) if m.table == table]
    item = board_store.load(EVENT, 1, table, number or m.boards[-1])
    assert item is not None
    return item


def play(backend: Backend, moves: list[dict[str, str]], table: str = "T1") -> None:
    """Each move sent by the device of the seat to move (seat 0 first)."""
    for i, data in enumerate(moves):
        item = board(table)
        payload = act(f"mv-{item.board}-{i}", item.board, "move", r=1)
        payload["a"]["d"] = data
        outcome = backend.send(item.devices[i % 2], payload)
        assert outcome["status"] == "accepted", outcome


def rule(api: Any, body: dict[str, Any], *, caller: str = CAROL, key: str | None = None) -> tuple[int, Any]:
    headers = {"Idempotency-Key": key} if key else None
    return call(api, "POST", f"/events/{EVENT}/referee", body, caller=caller, headers=headers)


def rulings() -> list[dict[str, Any]]:
    return [a for a in audit_log(EVENT) if a["kind"] in ("adjudicate", "correct_move", "no_show")]


def test_a_forbidden_move_claimed_in_time_is_upheld_once_and_a_late_claim_leaves_the_move_standing(
    backend, api
):
    cup(backend, "gomoku-renju")
    play(backend, [{"point": p} for p in DOUBLE_THREE])
    item = board()
    claim = {"kind": "adjudicate", "table": "T1", "board": item.board, "version": item.version,
             "claim": "forbidden", "decision": "upheld", "winner": 1, "reason": "White pointed out 33"}  # fmt: skip
    status, first = rule(api, claim)
    assert status == 201, first
    assert first["claim"] == "forbidden" and first["winner"] == 1 and first["by"] == CAROL
    ended = board(number=item.board)
    assert ended.status == "ended"
    assert json.loads(ended.state)["y"] == "claim"  # as White's own claim would have ended it
    # A retry answers the same entry; the same ruling sent as another request is on a board moved on.
    assert rule(api, claim) == (201, first)
    status, body = rule(api, claim, key="claim-1")
    assert status == 400 and body["code"] == "stale_version", body
    assert len(rulings()) == 1
    (m,) = list_matches(EVENT, 1)
    assert m.games[0]["ended_by"] == "claim" and len(m.boards) == 2  # the match goes on: game 2

    # Game 2: the forbidden stone, then White's next stone: the move stands for good (004).
    second = board()
    black = 0  # game 2's seat 0 moves first and plays Black
    assert second.players[black] != item.players[black]
    play(backend, [{"point": p} for p in [*DOUBLE_THREE, "A9"]])
    late = {**claim, "board": second.board, "version": board().version}
    status, body = rule(api, late)
    assert status == 400 and body["code"] == "claim_too_late", body
    assert board().status == "playing" and len(rulings()) == 1  # nothing changed, nothing audited
    # The referee may reject the claim instead: audited, the board untouched.
    version = board().version
    status, body = rule(api, {**late, "decision": "rejected", "winner": None})
    assert status == 201 and body["decision"] == "rejected", body
    assert board().version == version and len(rulings()) == 2


def test_a_perpetual_check_claim_upheld_ends_the_xiangqi_game_and_the_match_goes_on(backend, api):
    cup(backend, "xiangqi-2004")
    play(backend, [{"from": "h2", "to": "e2"}, {"from": "h9", "to": "g7"}])
    item = board()
    body = {"kind": "adjudicate", "table": "T1", "version": item.version, "claim": "perpetual_check",
            "decision": "upheld", "winner": 1, "reason": "Red checked perpetually"}  # fmt: skip
    status, entry = rule(api, body)
    assert status == 201 and entry["board"] == item.board, entry
    state = json.loads(board(number=item.board).state)
    assert state["end"] == [1, "perpetual_check"]
    (m,) = list_matches(EVENT, 1)
    assert m.games[0]["ended_by"] == "perpetual_check" and m.games[0]["mp"][m.games[0]["first"]] == 0
    assert board().board == "2" and board().status == "playing"
    # The log replays to the stored state (the audit's replay): the ruling is in it.
    from deckhand.service.refereeing.replay_audit import audit_event

    assert audit_event(EVENT)["replay_mismatches"] == 0


def test_a_wrongly_entered_move_is_corrected_and_the_game_replays_from_it(backend, api):
    cup(backend, "xiangqi-2004")
    # Red's cannon to e2, Black's pawn, Red's cannon takes the e6 pawn over the e3 pawn.
    play(backend, [{"from": "h2", "to": "e2"}, {"from": "c6", "to": "c5"}, {"from": "e2", "to": "e6"}])
    item = board()
    fix = {"kind": "correct_move", "table": "T1", "board": item.board, "version": item.version,
           "move": 1, "data": {"from": "b2", "to": "e2"}, "reason": "entered the wrong cannon"}  # fmt: skip
    status, entry = rule(api, fix)
    assert status == 201, entry
    assert entry["before"] == {"from": "h2", "to": "e2"} and entry["after"] == {"from": "b2", "to": "e2"}
    state = json.loads(board().state)
    assert state["moves"] == ["b2e2", "c6c5", "e2e6"]
    assert rule(api, fix)[1]["at"] == entry["at"] and len(rulings()) == 1  # a retry: the same entry
    # Both seats see the corrected game.
    for thing in item.devices:
        assert backend.seat_view(thing)["moves"] == ["b2e2", "c6c5", "e2e6"]
    # A correction the rest of the game does not replay from is refused, and changes nothing.
    version = board().version
    bad = {**fix, "version": version, "data": {"from": "h2", "to": "h3"}}
    status, body = rule(api, bad)
    assert status == 400 and body["code"] == "illegal_correction", body
    assert board().version == version and json.loads(board().state)["moves"] == ["b2e2", "c6c5", "e2e6"]
    # Bound to the version: a ruling decided on the board before the correction is refused.
    status, body = rule(api, {**fix, "data": {"from": "h2", "to": "e2"}})
    assert status == 400 and body["code"] == "stale_version", body
    for wrong, code in (({"move": 9}, "no_such_move"), ({"data": {"from": "b2", "to": "e2"}}, "same_move")):
        status, body = rule(api, {**fix, "version": version, **wrong})
        assert status == 400 and body["code"] == code, (wrong, body)
    assert len(rulings()) == 1


def test_a_player_who_does_not_appear_loses_the_game_and_the_match_by_forfeit(backend, api):
    cup(backend, "gomoku-renju", ("ANN", "BEN", "CAT", "DAN"))
    (m,) = [m for m in list_matches(EVENT, 1) if m.table == "T1"]
    absent = m.players[0]
    item = board()
    status, entry = rule(
        api, {"kind": "no_show", "player": absent, "version": item.version, "reason": "not here"}
    )
    assert status == 201 and entry["player"] == absent, entry
    (m,) = [m for m in list_matches(EVENT, 1) if m.table == "T1"]
    assert m.status == "done" and m.result["kind"] == "forfeit"
    side = m.players.index(absent)
    assert m.result["mp"][side] == 0 and [g["ended_by"] for g in m.games] == ["forfeit", "forfeit"]
    assert all(g["mp"][side] == 0 for g in m.games) and m.games[0]["first"] != m.games[1]["first"]
    assert (
        rule(api, {"kind": "no_show", "player": absent, "version": item.version, "reason": "not here"})[1]
        == entry
    )
    assert len(rulings()) == 1


def test_rulings_are_for_the_event_s_staff_and_bad_input_is_refused_with_a_code(backend, api):
    cup(backend, "xiangqi-2004")
    item = board()
    body = {"kind": "adjudicate", "table": "T1", "version": item.version, "claim": "perpetual_chase",
            "decision": "upheld", "winner": 0, "reason": "r"}  # fmt: skip
    assert rule(api, body, caller=BOB)[0] == 403  # no role in the event
    events.create_event(
        {
            "event_id": "other",
            "name": "Other",
            "ruleset": "xiangqi-2004",
            "grade": "unrated",
            "rounds": 1,
            "start": dt.date(2026, 12, 14),
            "match": {"format": "knockout"},
        },  # fmt: skip
        owner=BOB,
    )
    assert call(api, "POST", "/events/other/referee", body, caller=CAROL)[0] == 403  # another event's
    for wrong, status, code in (
        ({"table": "T9"}, 404, None),
        ({"version": None}, 400, "version_missing"),
        ({"claim": "forbidden"}, 400, "unknown_claim"),  # not a Xiangqi claim
        ({"decision": None}, 400, "decision_missing"),
        ({"winner": 2}, 422, None),
        ({"claim": "Perpetual check"}, 422, None),
        ({"move": 0}, 422, None),
        ({"surprise": 1}, 422, None),
    ):
        got, answer = rule(api, {**body, **wrong})
        assert got == status and (code is None or answer["code"] == code), (wrong, answer)
    assert board().version == item.version and rulings() == []
    # A device cannot rule: a ruling is no action of the game (a forged one is refused, nothing changes).
    for forged in ("adjudicate", "ruling", "no_show"):
        outcome = backend.send(item.devices[0], act(f"forged-{forged}", item.board, forged, r=1))
        assert outcome["status"] == "rejected", outcome
    assert board().version == item.version
    assert call(api, "POST", f"/events/{EVENT}/referee", body, caller=ALICE)[0] == 201  # the owner may
