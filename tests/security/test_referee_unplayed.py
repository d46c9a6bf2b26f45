"""A referee's artificial score for a board the table could not play (service/refereeing/unplayed_boards.py)
through the API (moto): the board — never begun there, or stuck mid-play — is ended unplayed in one
conditional write, its result written ``not_played`` and counted once, the table goes on to its next
board and the round completes; refusals change nothing, a retry counts nothing twice, a play racing
the referee wins or loses whole, and every export marks the board."""

import csv
import io
from types import SimpleNamespace

import pytest
from api_calls import ALICE, BOB, EVENT, artificial_score, audit, call, cup_dealt
from backend import run_round
from deckhand.engines.contract import Rejected
from deckhand.service.boards import progress as board_progress
from deckhand.service.boards import round_progress
from deckhand.service.boards import store as board_store
from deckhand.service.duplicate import scoring
from deckhand.service.refereeing import replay_audit, unplayed_boards
from deckhand.service.storage import keys, models
from deckhand_local.site import model
from deckhand_local.site.words import Words

KINDS = ["average_plus", "average_minus", "average", "averaged"]


@pytest.fixture
def dealt():
    """Alice's cup, round 1 dealt (board 1 in play at tables A and B, board 2 to come), Bob its
    referee: (api, backend, bots of A, bots of B)."""
    with cup_dealt() as (api, table_a, table_b):
        assert call(api, "PUT", "/events/cup/roles", {"roles": {BOB: "referee"}})[0] == 200
        yield api, table_a[0].backend, table_a, table_b


def give(board="1", kinds=KINDS):
    return artificial_score(kinds, board=board, reason="the table could not play it")


def referee(api, body, **headers):
    return call(api, "POST", "/events/cup/referee", body, caller=BOB, headers=headers)


def board(table, b):
    return board_store.load("cup", 1, table, b)


def progress() -> SimpleNamespace:
    """The round's count of scored boards, as its status reads it (summed over its shards)."""
    done, total = round_progress.progress_of("cup", 1)
    return SimpleNamespace(boards_done=done, boards_total=total)


def result(table, b):
    return models.ResultItem.get(keys.event_pk("cup"), keys.result_sk(1, table, b), consistent_read=True)


def unplayed_entries(item):
    return [e for e in item.log if e["t"] == "unplayed"]


def some_plays(bots, n=3):
    """``n`` decisions of the table's seats (never its board's end: a board takes more)."""
    done = 0
    while done < n:
        moved = [bot for bot in bots if bot.act() is not None]
        assert moved, "the table has a decision to make"
        done += len(moved)


def finish_board(bots, table, b):
    for _ in range(5000):
        if board(table, b).status == "ended":
            return
        for bot in bots:
            bot.act()
    raise AssertionError(f"board {b} did not end at table {table}")


def compared(api, b):
    """player → its outcome on board ``b`` of round 1 in the standings."""
    standings = call(api, "GET", "/events/cup/standings")[1]
    return {
        o["player"]: o
        for c in standings["boards"]
        if (c["round"], c["board"]) == (1, b)
        for o in c["results"]
    }


def round_done(api):
    status = call(api, "GET", "/events/cup/rounds/1", caller=BOB)[1]
    return status["status"] == "done"


def test_a_board_stuck_mid_play_is_ended_the_table_goes_on_and_the_round_completes(dealt):
    api, backend, table_a, table_b = dealt
    some_plays(table_a)
    a_players = list(board("A", "1").players)
    b_players = list(board("B", "1").players)
    code, record = referee(api, give())
    assert code == 201 and record["by"] == BOB, record
    stuck = board("A", "1")
    assert stuck.status == "ended" and len(stuck.log) > 1
    assert [(e["s"], e["by"]) for e in unplayed_entries(stuck)] == [(-1, BOB)] and stuck.log[-1][
        "t"
    ] == "unplayed"
    stored = result("A", "1")
    assert stored.scores == [0, 0, 0, 0] and stored.detail["not_played"] is True
    assert stored.adjusted["artificial"] == KINDS and stored.adjusted["by"] == BOB
    assert progress().boards_done == 1, "counted once, in the round's progress"
    assert board("A", "2").status == "playing", "the table goes on to its next board"
    status = call(api, "GET", "/events/cup/rounds/1", caller=BOB)[1]
    shown = {(t["table"], b["board"]): b.get("not_played") for t in status["tables"] for b in t["boards"]}
    assert shown == {("A", "1"): True, ("A", "2"): None, ("B", "1"): None, ("B", "2"): None}
    live = {t.table: t.state for t in model.read_live(status, Words("en")).tables}
    assert live == {"A": "1 not played (referee)", "B": ""}
    # Its handsets were told it is over before the next board's views came.
    told = [m for m in backend.publisher.to(stuck.devices[0]) if m["t"] == "stopped" and m["b"] == "1"]
    assert told and "not played" in told[-1]["why"]

    run_round(backend, table_a + table_b)
    assert round_done(api), "the round completes"
    assert progress().boards_done == progress().boards_total == 4
    # Board 1: table B alone was compared, scaled to the full top; table A has its artificial shares.
    own = compared(api, "2")[a_players[3]]["mp_pct"]
    after = compared(api, "1")
    assert {(after[p]["mp"], after[p]["mp_pct"]) for p in b_players} == {(1.0, 50.0)}
    assert [after[p]["mp_pct"] for p in a_players] == [60.0, 40.0, 50.0, pytest.approx(own, abs=0.01)]
    assert [after[p]["artificial"] for p in a_players] == KINDS

    export = call(api, "GET", "/events/cup/export", caller=ALICE)[1]
    rows = next(b for b in export["results"]["boards"] if (b["round"], b["board"]) == (1, "1"))["results"]
    assert {r["table"] for r in rows if r.get("not_played")} == {"A"}
    assert [r["artificial"] for r in sorted(rows, key=lambda r: r["seat"]) if r["table"] == "A"] == KINDS
    play = next(b for b in export["results"]["boards"] if (b["round"], b["board"]) == (1, "1"))["play"]
    assert all(s["t"] != "unplayed" for p in play for s in p["steps"]), "not a step of the play"
    text = call(api, "GET", "/events/cup/export?format=csv", caller=ALICE)[1]
    csv_rows = [r for r in csv.DictReader(io.StringIO(text)) if (r["round"], r["board"]) == ("1", "1")]
    assert {(r["table"], r["not_played"]) for r in csv_rows} == {("A", "true"), ("B", "")}
    page = next(b for b in model.read(export, "en").boards if (b.round, b.board) == (1, "1"))
    assert all(r.adjusted.startswith("not played, artificial") for r in page.traveller if r.table == "A")
    assert not any(r.adjusted for r in page.traveller if r.table == "B")
    counts = replay_audit.audit_event("cup")
    assert counts["replay_mismatches"] == counts["results_missing"] == 0, counts


def test_a_board_never_begun_is_ended_without_its_hands_ever_shown(dealt, monkeypatch):
    api, backend, table_a, table_b = dealt
    # A crash after table A's board 1 ended, before its board 2 began: board 2 never began there.
    with monkeypatch.context() as crash:
        crash.setattr(board_progress, "start_board", lambda *a, **k: False)
        finish_board(table_a, "A", "1")
    assert board("A", "2").status == "waiting"
    a_players = list(board("A", "2").players)
    code, record = referee(api, give("2"))
    assert code == 201, record
    ended = board("A", "2")
    assert ended.status == "ended" and [e["t"] for e in ended.log] == ["unplayed"]
    assert result("A", "2").detail["not_played"] is True
    # A handset of the table says hello: it is shown the board it played, never board 2's hands.
    thing = ended.devices[0]
    assert backend.send(thing, {"t": "hello", "msg": "h-1"})["status"] == "accepted"
    views = [m for m in backend.publisher.to(thing) if m["t"] == "view"]
    assert views[-1]["b"] == "1" and not any(m["b"] == "2" for m in views)

    run_round(backend, table_b)
    assert round_done(api) and progress().boards_done == 4
    own = compared(api, "1")[a_players[3]]["mp_pct"]
    after = compared(api, "2")
    assert [after[p]["mp_pct"] for p in a_players] == [60.0, 40.0, 50.0, pytest.approx(own, abs=0.01)]
    counts = replay_audit.audit_event("cup")
    assert counts["replay_mismatches"] == counts["results_missing"] == 0, counts


def test_averaged_is_half_the_top_when_the_seat_has_no_other_board_compared(dealt):
    api, backend, table_a, table_b = dealt
    a_players = list(board("A", "1").players)
    assert referee(api, give("1"))[0] == 201
    assert board("A", "2").status == "playing"
    assert referee(api, give("2"))[0] == 201
    assert board("A", "2").status == "ended" and progress().boards_done == 2
    run_round(backend, table_b)
    assert round_done(api)
    for b in "12":
        assert compared(api, b)[a_players[3]]["mp_pct"] == 50.0


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (give("2"), 400, "board_not_reached"),
        (give("1", ["average_plus", "average"]), 400, "adjustment_seats"),
        (give("1", ["average_plus", "average", "average", None]), 400, "unknown_artificial"),
        (give("9"), 404, None),
    ],
)
def test_a_refused_request_leaves_the_table_playing(dealt, body, status, code):
    api, _, table_a, _ = dealt
    some_plays(table_a)
    before = {b: board("A", b).version for b in "12"}
    got, answer = referee(api, body)
    assert got == status and (code is None or answer["code"] == code), answer
    assert {b: board("A", b).version for b in "12"} == before and board("A", "1").status == "playing"
    assert progress().boards_done == 0 and audit() == []
    assert not list(
        models.ResultItem.query(keys.event_pk("cup"), models.ResultItem.sk.startswith(keys.RESULT_PREFIX))
    )


def test_a_board_not_played_takes_artificial_scores_only(dealt):
    api, _, _, _ = dealt
    assert referee(api, give())[0] == 201
    before = result("A", "1").adjusted
    body = {"kind": "adjust", "round": 1, "table": "A", "board": "1", "scores": [1, -1, 0, 0], "reason": "x"}
    code, answer = referee(api, body)
    assert code == 400 and answer["code"] == "not_played", answer
    assert result("A", "1").adjusted == before and len(audit()) == 1
    # Other kinds replace the first ones; the board stays ended once.
    assert referee(api, give(kinds=["average"] * 4))[0] == 201
    assert result("A", "1").adjusted["artificial"] == ["average"] * 4
    assert len(unplayed_entries(board("A", "1"))) == 1 and progress().boards_done == 1


def test_boards_that_carry_are_never_ended_unplayed():
    carried = models.BoardStateItem(
        "BOARD#x", "STATE", table="A", board="2", status="waiting", state="", ruleset=EVENT["ruleset"]
    )
    with pytest.raises(Rejected) as refused:
        unplayed_boards._check(carried)
    assert refused.value.code == "boards_carry"


def test_a_retry_ends_the_board_once_and_is_audited_once(dealt):
    api, _, _, _ = dealt
    first = referee(api, give(), **{"Idempotency-Key": "unplayed-1"})
    assert first[0] == 201
    version = board("A", "1").version
    assert referee(api, give(), **{"Idempotency-Key": "unplayed-1"}) == first
    assert [a.kind for a in audit()] == ["artificial"] and board("A", "1").version == version
    assert progress().boards_done == 1 and len(unplayed_entries(board("A", "1"))) == 1


def test_a_retry_after_a_crash_between_the_end_and_the_result_counts_once(dealt, monkeypatch):
    api, backend, table_a, table_b = dealt
    with monkeypatch.context() as crash:

        def lost(*args, **kwargs):
            raise RuntimeError("the function stopped here")

        crash.setattr(scoring, "store_result", lost)
        with pytest.raises(RuntimeError):
            referee(api, give(), **{"Idempotency-Key": "unplayed-2"})
    assert board("A", "1").status == "ended" and progress().boards_done == 0
    backend.sweep()  # the sweep scores the ended board (not played) and begins the next one
    assert progress().boards_done == 1 and board("A", "2").status == "playing"
    code, record = referee(api, give(), **{"Idempotency-Key": "unplayed-2"})
    assert code == 201, record
    assert result("A", "1").adjusted["artificial"] == KINDS and progress().boards_done == 1
    assert len(unplayed_entries(board("A", "1"))) == 1 and [a.kind for a in audit()] == ["artificial"]
    run_round(backend, table_a + table_b)
    assert round_done(api) and progress().boards_done == 4


def race_once(monkeypatch, meanwhile):
    """The next board write reads the board, then ``meanwhile`` runs, then it writes: a lost race for
    whichever wrote second, which reads again and redoes (board_store.transact)."""
    real = board_store.transact
    raced = []

    def racing(key, change, first=None):
        if raced:
            return real(key, change, first)
        raced.append(key)
        stale = first or board_store.load(*key)
        meanwhile()
        return real(key, change, first=stale)

    monkeypatch.setattr(board_store, "transact", racing)
    return raced


def test_a_play_landing_first_is_kept_and_the_referee_ends_the_board_after_it(dealt, monkeypatch):
    api, _, table_a, _ = dealt
    some_plays(table_a)

    def a_seat_plays():
        assert any(bot.act() is not None for bot in table_a), "a seat plays meanwhile"

    raced = race_once(monkeypatch, a_seat_plays)
    logged = len(board("A", "1").log)
    assert referee(api, give())[0] == 201 and raced
    ended = board("A", "1")
    assert len(ended.log) >= logged + 2 and ended.log[-1]["t"] == "unplayed"
    assert len(unplayed_entries(ended)) == 1 and progress().boards_done == 1


def test_a_play_landing_after_the_referee_is_refused(dealt, monkeypatch):
    api, _, table_a, _ = dealt
    some_plays(table_a)

    def the_referee_ends_it():
        assert referee(api, give())[0] == 201

    raced = race_once(monkeypatch, the_referee_ends_it)
    acted = next(answer for answer in (bot.act() for bot in table_a) if answer is not None)
    assert raced and acted["status"] != "accepted" and "board_over" in str(acted), acted
    ended = board("A", "1")
    assert ended.log[-1]["t"] == "unplayed" and len(unplayed_entries(ended)) == 1
    assert progress().boards_done == 1
