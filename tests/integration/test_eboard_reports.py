"""An electronic board through the device pipeline (service/device_io/eboard_reports.py): a legal move is
the seat to move's, an illegal one stops the board for the referee, a repeated report changes nothing, a
report of a position the board has left is refused, no other device may report for it, and only a board
game whose seats see the same board may have one. The referee's resume is bound to the board's version,
audited once, and refused while the sensed pieces differ from the game."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from backend import Backend, act
from deckhand.engines.registry import game
from deckhand.errors import DeckhandError
from deckhand.service.boards import store as board_store
from deckhand.service.boards.views import shared_grid
from deckhand.service.duplicate import rounds
from deckhand.service.organiser import events, pairs
from deckhand.service.refereeing import actions as referee

EVENT = "eb-cup"
XIANGQI = "xiangqi-2004"


def eboard_event(backend: Backend, ruleset: str = XIANGQI, players: int = 2) -> None:
    """A knockout with an electronic board at every table, its first round begun."""
    events.create_event(
        {
            "event_id": EVENT,
            "name": "Sensor Cup",
            "ruleset": ruleset,
            "grade": "unrated",
            "rounds": max(1, (players - 1).bit_length()),
            "start": dt.date(2026, 12, 14),
            "deal_seed": "eb",
            "match": {"format": "knockout"},
        }
    )
    pairs.register_pairs(EVENT, [{"id": f"P{i}", "players": [{"id": f"P{i}"}]} for i in range(players)])
    tables = [
        {"id": f"T{t + 1}", "seats": [f"hs-{t + 1}-0", f"hs-{t + 1}-1"], "eboard": f"eb-{t + 1}"}
        for t in range(players // 2)
    ]
    events.register_tables(EVENT, tables)
    rounds.request_next_round(backend.rt, EVENT)


def board(table: str = "T1", number: str = "1") -> Any:
    item = board_store.load(EVENT, 1, table, number)
    assert item is not None
    return item


def last(backend: Backend, thing: str, kind: str) -> dict[str, Any]:
    return [p for p in backend.publisher.to(thing) if p["t"] == kind][-1]


def bot_squares(backend: Backend, table: str = "T1") -> list[str]:
    """The move the seat to move's bot would make, as the squares the electronic board senses."""
    item = board(table)
    seat = board_store.engine_of(item)[1].pending()[0]
    action = game(item.ruleset).view_bot("steady")(backend.seat_view(item.devices[seat]))
    assert action is not None and action.kind == "move"
    return [action.data[k] for k in game(item.ruleset).position.move_data]  # type: ignore[union-attr]


def moved(msg: str, sq: list[str], n: int, number: str = "1") -> dict[str, Any]:
    return {"t": "moved", "msg": msg, "board": number, "r": 1, "n": n, "sq": sq}


ILLEGAL = {0: ["a0", "a5"], 1: ["a9", "a4"]}  # a chariot through its own soldier, either side


def illegal(item: Any) -> list[str]:
    return ILLEGAL[board_store.engine_of(item)[1].pending()[0]]


def test_a_sensed_legal_move_is_the_seat_to_moves_and_every_screen_follows(backend):
    eboard_event(backend)
    start = last(backend, "eb-1", "pos")
    assert start["n"] == 0 and start["q"] == ["from", "to"] and start["st"] == "playing"
    assert start["grid"]["r"] == shared_grid(board())["r"]
    sq = bot_squares(backend)
    out = backend.send("eb-1", moved("eb-1-1", sq, 0))
    assert out == {"status": "accepted"}
    item = board()
    assert item.log[-1]["d"] == dict(zip(("from", "to"), sq, strict=True)) and item.log[-1]["th"] == "eb-1"
    for thing in ("hs-1-0", "hs-1-1"):
        assert last(backend, thing, "view")["v"] == item.version  # both seats' screens updated
    assert last(backend, "eb-1", "pos")["n"] == 1
    assert last(backend, "eb-1", "ack") == {"t": "ack", "msg": "eb-1-1", "v": item.version}
    # Rebooted, it says hello and is told the position again (nothing of a seat's screen).
    backend.publisher.clear()
    assert backend.send("eb-1", {"t": "hello", "msg": "eb-1-2", "lang": "en"}) == {"status": "accepted"}
    assert [p["t"] for p in backend.publisher.to("eb-1")] == ["ack", "pos"]
    assert last(backend, "eb-1", "pos")["n"] == 1 and backend.publisher.to("hs-1-0") == []


def test_an_illegal_move_stops_the_board_for_the_referee_and_holds_its_clocks(backend):
    eboard_event(backend)
    before = board()
    out = backend.send("eb-1", moved("eb-1-1", illegal(before), 0))
    assert out["status"] == "rejected" and out["code"] == "illegal_move"
    item = board()
    assert item.status == "stopped" and "a" in (item.stop_reason or "")
    status = rounds.round_status(EVENT, 1, staff=True)
    (row,) = [b for t in status["tables"] if t["table"] == "T1" for b in t["boards"]]
    assert row["status"] == "stopped" and row["calls"] and row["version"] == item.version
    assert last(backend, "hs-1-0", "stopped")["why"] == "board stopped, referee called"  # not the detail
    assert last(backend, "eb-1", "stopped")["why"] == item.stop_reason
    # Further reports and the handsets' moves are refused; the clocks do not run out while stopped.
    assert backend.send("eb-1", moved("eb-1-2", bot_squares(backend), 0))["code"] == "board_stopped"
    seat = board_store.engine_of(item)[1].pending()[0]
    assert backend.send(item.devices[seat], act("h-1", "1", "resign", r=1))["code"] == "board_stopped"
    backend.clock.advance(3 * 3_600_000)
    backend.sweep()
    assert board().status == "stopped" and board().version == item.version


def test_a_repeated_report_changes_nothing(backend):
    eboard_event(backend)
    sq = bot_squares(backend)
    backend.send("eb-1", moved("eb-1-1", sq, 0))
    item = board()
    again = backend.send("eb-1", moved("eb-1-1", sq, 0))
    assert again == {"status": "duplicate"} and board().version == item.version
    wrong = illegal(item)
    first = backend.send("eb-1", moved("eb-1-2", wrong, 1))
    stopped = board()
    second = backend.send("eb-1", moved("eb-1-2", wrong, 1))
    assert second["code"] == first["code"] == "illegal_move"
    assert board().version == stopped.version and len(board().log) == len(stopped.log)


def test_a_report_of_a_position_the_board_has_left_is_refused(backend):
    eboard_event(backend)
    item = board()
    seat = board_store.engine_of(item)[1].pending()[0]
    sq = bot_squares(backend)
    # The move is entered on the handset first; the board's report of it then names a position gone.
    view = backend.seat_view(item.devices[seat])
    action = game(XIANGQI).view_bot("steady")(view)
    payload = act("hs-move-1", "1", "move", r=1)
    payload["a"]["d"] = action.data  # type: ignore[union-attr]
    assert backend.send(item.devices[seat], payload)["status"] == "accepted"
    played = board()
    out = backend.send("eb-1", moved("eb-1-1", sq, 0))
    assert out["code"] == "not_your_turn" and board().version == played.version
    assert board().status == "playing"


def test_no_other_device_reports_for_the_board(backend):
    eboard_event(backend, players=4)
    t1 = board("T1")
    sq = bot_squares(backend, "T1")
    assert backend.send("hs-1-0", moved("x-1", sq, 0))["code"] == "not_your_seat"  # a handset
    assert backend.send("eb-9", moved("x-1", sq, 0))["code"] == "unknown_device"
    # Table 2's board can only ever report its own table's board, whatever the message names.
    backend.send("eb-2", moved("x-1", sq, 0))
    assert board("T1").version == t1.version
    # And an electronic board never plays as a seat.
    assert backend.send("eb-1", act("x-2", "1", "resign", r=1))["code"] == "not_your_seat"
    assert board("T1").version == t1.version


@pytest.mark.parametrize("ruleset", ["junqi-2004", "bigtwo-2017"])
def test_no_electronic_board_where_seats_see_different_things_or_no_board(backend, ruleset):
    spec: dict[str, Any] = {
        "event_id": "other",
        "name": "Other",
        "ruleset": ruleset,
        "grade": "unrated",
        "rounds": 1,
        "start": dt.date(2026, 12, 14),
        "deal_seed": "x",
    }
    board_game = game(ruleset).position is not None
    spec.update(
        {"match": {"format": "knockout"}}
        if board_game
        else {"boards_per_round": 1, "groups": 1, "format": "pvp"}
    )
    events.create_event(spec)
    seats = game(ruleset).seats
    with pytest.raises(DeckhandError, match="electronic board"):
        events.register_tables(
            "other", [{"id": "T1", "seats": [f"s{i}" for i in range(seats)], "eboard": "eb"}]
        )
    assert events.list_tables("other") == []


def test_the_referee_resumes_once_bound_to_the_version_and_only_on_the_games_position(backend):
    eboard_event(backend)
    backend.send("eb-1", moved("eb-1-1", illegal(board()), 0))
    stopped = board()
    backend.clock.advance(60_000)
    # The pieces sensed differ from the game: the board stays stopped until they match.
    rows = list(shared_grid(stopped)["r"])
    rows[0] = "." * len(rows[0])
    out = backend.send("eb-1", {"t": "position", "msg": "eb-1-2", "board": "1", "r": 1, "rows": rows})
    assert out["code"] == "position_mismatch"
    version = board().version
    resume = {"kind": "resume", "table": "T1", "version": version, "reason": "pieces put back"}
    event = events.get_event(EVENT)
    with pytest.raises(Exception, match="differs"):
        referee.record(event, resume, by="ref", rt=backend.rt)
    fixed = {"t": "position", "msg": "eb-1-3", "board": "1", "r": 1, "rows": shared_grid(stopped)["r"]}
    assert backend.send("eb-1", fixed) == {"status": "accepted"}
    with pytest.raises(Exception, match="version"):
        referee.record(event, resume, by="ref", rt=backend.rt)  # the board changed since it was read
    resume["version"] = board().version
    first = referee.record(event, resume, by="ref", rt=backend.rt)
    again = referee.record(event, resume, by="ref", rt=backend.rt)
    assert first == again
    resumed = board()
    assert resumed.status == "playing" and resumed.deadline == stopped.deadline + 60_000
    audit = [a for a in referee.audit_log(EVENT) if a["kind"] == "resume"]
    assert len(audit) == 1 and audit[0]["by"] == "ref"
    assert (
        last(backend, "hs-1-0", "view")["st"] == "playing" and last(backend, "eb-1", "pos")["st"] == "playing"
    )
    # Play goes on from the game's position.
    assert backend.send("eb-1", moved("eb-1-4", bot_squares(backend), 0)) == {"status": "accepted"}


def test_a_xiangqi_game_played_partly_from_the_board_through_a_stop_to_its_end(backend):
    """Moves from the board and the handsets in turn, one illegal report (the board stops, the referee
    puts the pieces back and resumes), the board's moves again, then a resignation ends the game: its
    result counts and the match's next game begins, the board told its fresh position."""
    eboard_event(backend)
    counter = 0

    def from_board() -> None:
        nonlocal counter
        counter += 1
        n = last(backend, "eb-1", "pos")["n"]
        assert backend.send("eb-1", moved(f"eb-1-{counter}", bot_squares(backend), n)) == {
            "status": "accepted"
        }

    def from_handset() -> None:
        nonlocal counter
        counter += 1
        item = board()
        seat = board_store.engine_of(item)[1].pending()[0]
        action = game(XIANGQI).view_bot("steady")(backend.seat_view(item.devices[seat]))
        payload = act(f"hs-{counter}", "1", "move", r=1)
        payload["a"]["d"] = action.data  # type: ignore[union-attr]
        assert backend.send(item.devices[seat], payload)["status"] == "accepted"

    for turn in range(6):
        (from_board if turn % 3 else from_handset)()
    n = last(backend, "eb-1", "pos")["n"]
    assert n == 6
    out = backend.send("eb-1", moved("eb-1-wrong", illegal(board()), n))
    assert out["code"] == "illegal_move" and board().status == "stopped"
    backend.send(
        "eb-1", {"t": "position", "msg": "eb-1-back", "board": "1", "r": 1, "rows": shared_grid(board())["r"]}
    )
    resume = {"kind": "resume", "table": "T1", "version": board().version, "reason": "pieces put back"}
    referee.record(events.get_event(EVENT), resume, by="ref", rt=backend.rt)
    for _ in range(4):
        from_board()
    item = board()
    assert board_store.engine_of(item)[1].pending() and item.status == "playing"
    loser = board_store.engine_of(item)[1].pending()[0]
    assert backend.send(item.devices[loser], act("hs-resign", "1", "resign", r=1))["status"] == "accepted"
    ended = board()
    assert ended.status == "ended" and ended.log[-1]["t"] == "resign"
    moves = [e for e in ended.log if e["t"] == "move"]
    assert len(moves) == 10 and sum(1 for e in moves if e.get("th") == "eb-1") == 8
    following = board("T1", "2")
    assert following.status == "playing" and following.eboard == "eb-1"
    assert last(backend, "eb-1", "pos")["b"] == "2" and last(backend, "eb-1", "pos")["n"] == 0


def test_through_the_api_a_board_game_table_takes_an_electronic_board_and_the_referee_resumes_it():
    """The organiser API: a two-seat table with its electronic board (refused for a game that hides
    pieces), and the resume as a referee action — refused to a caller who referees nothing there."""
    from api_calls import ALICE, BOB, api_under_moto, call

    cup = {"event_id": EVENT, "name": "Cup", "ruleset": XIANGQI, "grade": "unrated", "rounds": 1,
           "start": "2026-12-14", "match": {"format": "knockout"}}  # fmt: skip
    backend = Backend()
    with api_under_moto(backend.rt) as api:
        assert call(api, "POST", "/events", cup)[0] == 201
        players = {"pairs": [{"id": p, "players": [{"id": p}]} for p in ("LI", "WANG")]}
        assert call(api, "POST", "/events/eb-cup/pairs", players)[0] == 201
        table = {"tables": [{"id": "T1", "seats": ["hs-1-0", "hs-1-1"], "eboard": "eb-1"}]}
        status, body = call(api, "POST", "/events/eb-cup/tables", table)
        assert status == 201, body
        hidden = {**cup, "event_id": "hidden", "ruleset": "junqi-2004"}
        assert call(api, "POST", "/events", hidden)[0] == 201
        status, body = call(api, "POST", "/events/hidden/tables", table)
        assert status == 400 and "electronic board" in json.dumps(body), body
        assert call(api, "POST", "/events/eb-cup/rounds")[0] == 202
        backend.send("eb-1", moved("eb-1-1", illegal(board()), 0))
        resume = {"kind": "resume", "table": "T1", "version": board().version, "reason": "pieces put back"}
        assert call(api, "POST", "/events/eb-cup/referee", resume, caller=BOB)[0] == 403
        assert board().status == "stopped"
        status, body = call(api, "POST", "/events/eb-cup/referee", resume, caller=ALICE)
        assert status == 201 and body["kind"] == "resume" and body["by"] == ALICE, body
        assert board().status == "playing"
