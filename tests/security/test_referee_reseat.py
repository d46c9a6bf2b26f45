"""A referee re-seats a player of the round in play (service/refereeing/reseat.py) through the API (moto): from
each table's next board not yet begun, a swap with whoever sat there; checked before anything is
written (no board in play changes hands, nobody plays a board twice), audited, and the handset of
the new seat plays for the player."""

import json

import pytest
from api_calls import BOB, EVENT, PLAYERS, audit, call
from api_calls import api_under_moto as api_on
from backend import THINGS, Backend, DeviceBot, run_round
from deckhand.engines.contract import Rejected
from deckhand.service.boards import store as board_store
from deckhand.service.infra.messaging import down_topic
from deckhand.service.organiser.events import get_event
from deckhand.service.refereeing import reseat as reseat_module
from deckhand.service.refereeing.reseat import _check_waiting
from deckhand.service.storage import keys, models


@pytest.fixture
def cup():
    """The cup with 3 boards a round, round 1 dealt (board 1 in play at tables A and B), Bob its
    referee: (api, backend, bots of A, bots of B)."""
    backend = Backend()
    with api_on(backend.rt) as api:
        assert call(api, "POST", "/events", {**EVENT, "boards_per_round": 3})[0] == 201
        assert call(api, "POST", "/events/cup/players", PLAYERS)[0] == 201
        tables = {"tables": [{"id": "A", "seats": THINGS[:4]}, {"id": "B", "seats": THINGS[4:]}]}
        assert call(api, "POST", "/events/cup/tables", tables)[0] == 201
        assert call(api, "POST", "/events/cup/rounds")[0] == 202
        assert call(api, "PUT", "/events/cup/roles", {"roles": {BOB: "referee"}})[0] == 200
        bots = [DeviceBot(backend, t) for t in THINGS]
        yield api, backend, bots[:4], bots[4:]


def seats():
    """table → the round's seating (player per seat)."""
    r = models.RoundItem.get(keys.event_pk("cup"), keys.round_sk(1), consistent_read=True)
    return {row["table"]: list(row["seats"]) for row in r.seating}


def players(table, board):
    return list(board_store.load("cup", 1, table, board).players)


def reseat(player, table, seat, **more):
    return {"kind": "reseat", "player": player, "table": table, "seat": seat, "reason": "wrong table", **more}


def boards():
    return {(t, b): players(t, b) for t in "AB" for b in "123"}


def test_a_player_swaps_seats_from_the_next_board_and_plays_on_that_seats_handset(cup):
    api, backend, table_a, table_b = cup
    before, board_before = seats(), boards()
    p, q = before["A"][0], before["B"][1]
    headers = {"Idempotency-Key": "reseat-1"}
    code, record = call(api, "POST", "/events/cup/referee", reseat(p, "B", 1), caller=BOB, headers=headers)
    assert code == 201, record
    assert record["from"] == {"table": "A", "seat": 0} and record["displaced"] == q and record["by"] == BOB
    assert record["boards"] == ["A/2", "A/3", "B/2", "B/3"]
    assert call(api, "POST", "/events/cup/referee", reseat(p, "B", 1), caller=BOB, headers=headers) == (
        code,
        record,
    )
    assert [a.kind for a in audit()] == ["reseat"], "a retry is audited once"
    assert seats() == {"A": [q, *before["A"][1:]], "B": [before["B"][0], p, *before["B"][2:]]}
    now = boards()
    assert now["A", "1"] == board_before["A", "1"] and now["B", "1"] == board_before["B", "1"], (
        "in play: unchanged"
    )
    for b in "23":
        assert now["A", b] == seats()["A"] and now["B", b] == seats()["B"]
    status = call(api, "GET", "/events/cup/rounds/1", caller=BOB)[1]
    assert next(t for t in status["tables"] if t["table"] == "B")["seats"][1] == p

    run_round(backend, table_a + table_b)
    results = {
        (r.table, r.board): r.players
        for r in models.ResultItem.query(
            keys.event_pk("cup"), models.ResultItem.sk.startswith(keys.RESULT_PREFIX)
        )
    }
    assert results["A", "1"][0] == p and results["B", "1"][1] == q
    assert results["B", "2"][1] == p and results["A", "2"][0] == q
    # The handset at table B seat 1 showed the player's name from board 2 on: it played for p there.
    shown = [
        m
        for topic, m in backend.rt.publisher.sent
        if topic == down_topic("hs-B-1") and m.get("b") == "2" and m.get("r") == 1
    ]
    assert shown
    name = next(x["name"] for x in PLAYERS["players"] if x["id"] == p)
    assert any(f"You: {name}" in json.dumps(m) for m in shown)


def test_a_move_to_an_empty_seat_at_the_same_table_and_back(cup):
    api, _, _, _ = cup
    p, r = seats()["A"][0], seats()["A"][2]
    assert call(api, "POST", "/events/cup/referee", reseat(p, "A", 2), caller=BOB)[0] == 201
    assert seats()["A"][:3] == [r, seats()["A"][1], p] and players("A", "3")[2] == p
    code, answer = call(api, "POST", "/events/cup/referee", reseat(p, "A", 2), caller=BOB)
    assert code == 400 and answer["code"] == "already_seated"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (reseat("P99", "B", 1), 400, "unknown_player"),
        (reseat("P1", "Z", 1), 400, "unknown_table"),
        (reseat("P1", "B", 7), 422, None),
        (reseat("P1", "B", 1, round=2), 400, "round_not_in_play"),
        ({"kind": "reseat", "player": "P1", "reason": "x"}, 400, "reseat_incomplete"),
    ],
)
def test_a_bad_reseat_is_refused_and_changes_nothing(cup, body, status, code):
    api, _, _, _ = cup
    before, board_before = seats(), boards()
    got, answer = call(api, "POST", "/events/cup/referee", body, caller=BOB)
    assert got == status and (code is None or answer["code"] == code), answer
    assert seats() == before and boards() == board_before and audit() == []


def test_nobody_plays_a_board_twice_nor_changes_hands_mid_board(cup):
    api, backend, table_a, table_b = cup
    # Table A plays board 1 to its end (board 2 begins there); table B is still on board 1.
    for _ in range(5000):
        if board_store.load("cup", 1, "A", "1").status == "ended":
            break
        for bot in table_a:
            bot.act()
    assert board_store.load("cup", 1, "A", "2").status == "playing"
    before, board_before = seats(), boards()
    p = before["A"][0]
    code, answer = call(api, "POST", "/events/cup/referee", reseat(p, "B", 0), caller=BOB)
    assert code == 400 and answer["code"] == "board_twice" and "board(s) 2," in str(answer), answer
    assert seats() == before and boards() == board_before and audit() == []
    # Table A finishes: nothing left to begin there, so nobody can be moved in or out of it.
    run_round(backend, table_a)
    code, answer = call(api, "POST", "/events/cup/referee", reseat(before["B"][0], "A", 0), caller=BOB)
    assert code == 400 and answer["code"] == "no_board_left"
    assert seats() == before and audit() == []


def test_boards_made_from_the_one_before_are_never_reseated_mid_round():
    carried = models.BoardStateItem("BOARD#x", "STATE", table="A", board="2", status="waiting", state="")
    with pytest.raises(Rejected) as refused:
        _check_waiting({"A": [carried]})
    assert refused.value.code == "boards_carry"


def test_a_seat_without_a_handset_is_refused(cup):
    api, _, _, _ = cup
    r = models.RoundItem.get(keys.event_pk("cup"), keys.round_sk(1), consistent_read=True)
    seating = [dict(row, devices=list(row["devices"])) for row in r.seating]
    next(row for row in seating if row["table"] == "B")["devices"][1] = ""  # its handset was taken away
    r.update(actions=[models.RoundItem.seating.set(seating)])
    before, board_before = seats(), boards()
    code, answer = call(api, "POST", "/events/cup/referee", reseat(before["A"][0], "B", 1), caller=BOB)
    assert code == 400 and answer["code"] == "no_handset", answer
    assert seats() == before and boards() == board_before and audit() == []


def test_a_reseat_changing_more_boards_than_one_write_holds_is_refused(cup, monkeypatch):
    api, _, _, _ = cup
    monkeypatch.setattr(reseat_module, "MAX_WRITES", 4)  # the 4 boards still to begin and the round: 5
    before, board_before = seats(), boards()
    code, answer = call(api, "POST", "/events/cup/referee", reseat(before["A"][0], "B", 1), caller=BOB)
    assert code == 400 and answer["code"] == "reseat_too_many_boards" and "4 boards" in str(answer)
    assert seats() == before and boards() == board_before and audit() == []


def test_a_reseat_that_loses_a_race_is_checked_again_and_seats_on_the_new_seating(cup, monkeypatch):
    api, _, _, _ = cup
    before = seats()
    p, q, r, s = before["A"][0], before["B"][1], before["A"][2], before["A"][3]
    real = reseat_module.transaction
    raced = []

    def racing():
        if not raced:  # another re-seat (r and s swap) lands between this one's reads and its write
            raced.append(True)
            reseat_module.reseat(get_event("cup"), {"player": r, "table": "A", "seat": 3})
        return real()

    monkeypatch.setattr(reseat_module, "transaction", racing)
    code, record = call(api, "POST", "/events/cup/referee", reseat(p, "B", 1), caller=BOB)
    assert code == 201 and raced, record
    assert record["from"] == {"table": "A", "seat": 0} and record["displaced"] == q
    want = {"A": [q, before["A"][1], s, r], "B": [before["B"][0], p, *before["B"][2:]]}
    assert seats() == want, "both re-seats kept: the retry was made on the seating the race left"
    for b in "23":
        assert players("A", b) == want["A"] and players("B", b) == want["B"]
    assert players("A", "1") == before["A"] and [a.kind for a in audit()] == ["reseat"]
