"""Referee adjustments are checked (Big Two scores sum to zero; a warning names a player of the
event) and shown as adjustments — the score counted, the score played, why — in every export."""

import csv
import io

import pytest
from api_calls import ALICE, BOB, audit, call


def played(api, table="A", board="1"):
    doc = call(api, "GET", "/events/cup/results")[1]
    rows = next(b for b in doc["boards"] if (b["round"], b["board"]) == (1, board))["results"]
    return [r for r in sorted(rows, key=lambda r: r["seat"]) if r["table"] == table]


def adjust(scores, reason="scoring slip"):
    return {"kind": "adjust", "round": 1, "table": "A", "board": "1", "scores": scores, "reason": reason}


@pytest.mark.parametrize("scores", [[5, -5, 0, 1], [100, 0, 0, 0], [1, -1, 0]])
def test_an_adjustment_that_breaks_the_tables_sum_or_seats_is_refused(cup, scores):
    before = played(cup)
    code, answer = call(cup, "POST", "/events/cup/referee", adjust(scores), caller=BOB)
    assert code == 400 and answer["code"] in ("adjustment_sum", "adjustment_seats")
    assert played(cup) == before and audit() == []


def test_a_warning_must_name_a_player_of_the_event(cup):
    body = {"kind": "warning", "player": "P99", "reason": "slow play"}
    code, answer = call(cup, "POST", "/events/cup/referee", body, caller=BOB)
    assert code == 400 and answer["code"] == "unknown_player" and audit() == []
    body["player"] = "P3"
    assert call(cup, "POST", "/events/cup/referee", body, caller=BOB)[0] == 201


def test_an_adjustment_is_shown_with_the_score_played_in_every_export(cup):
    before = played(cup)
    scores = [r["score"] for r in before]
    new = [scores[1], scores[0], *scores[2:]]  # two seats swapped: still zero-sum
    if new == scores:
        new = [scores[0] + 4, scores[1] - 4, *scores[2:]]
    code, record = call(cup, "POST", "/events/cup/referee", adjust(new), caller=BOB)
    assert code == 201 and record["by"] == BOB
    rows = played(cup)
    assert [r["score"] for r in rows] == new
    assert [r["adjusted_from"] for r in rows] == scores
    assert {r["adjustment_reason"] for r in rows} == {"scoring slip"}
    export = call(cup, "GET", "/events/cup/export", caller=ALICE)[1]
    board = next(b for b in export["results"]["boards"] if (b["round"], b["board"]) == (1, "1"))
    assert [r["adjusted_from"] for r in board["results"] if r["table"] == "A"] == scores
    assert {r["adjusted_by"] for r in board["results"] if r["table"] == "A"} == {BOB}, "who made it"
    text = call(cup, "GET", "/events/cup/export?format=csv", caller=ALICE)[1]
    csv_rows = [
        r
        for r in csv.DictReader(io.StringIO(text))
        if (r["round"], r["board"], r["table"]) == ("1", "1", "A")
    ]
    assert [int(r["score"]) for r in csv_rows] == new
    assert [int(r["adjusted_from"]) for r in csv_rows] == scores
    assert {r["adjustment_reason"] for r in csv_rows} == {"scoring slip"}
    assert {r["adjusted_by"] for r in csv_rows} == {BOB}
    # A second adjustment still shows the score played, not the first adjustment.
    assert call(cup, "POST", "/events/cup/referee", adjust(scores, "undo"), caller=BOB)[0] == 201
    assert [r["adjusted_from"] for r in played(cup)] == scores
