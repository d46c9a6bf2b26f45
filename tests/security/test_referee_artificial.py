"""A referee's artificial scores through the API (moto): checked before anything is written, the
table taken out of the board's comparison (the other table scaled, competition/artificial.py),
audited once under a retried Idempotency-Key, and marked in every export and the standings."""

import csv
import io

import pytest
from api_calls import ALICE, BOB, artificial_score, audit, call
from deckhand_local.site import model

KINDS = ["average_plus", "average_minus", "average", "averaged"]


def give(kinds=KINDS, board="1", reason="a fouled board"):
    return artificial_score(kinds, board=board, reason=reason)


def rows(doc, board="1"):
    b = next(b for b in doc["boards"] if (b["round"], b["board"]) == (1, board))
    return sorted(b["results"], key=lambda r: (r["table"], r["seat"]))


def compared(standings, board="1"):
    """player → its outcome on ``board`` of round 1."""
    return {
        o["player"]: o
        for c in standings["boards"]
        if (c["round"], c["board"]) == (1, board)
        for o in c["results"]
    }


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (give(["average_plus", "average"]), 400, "adjustment_seats"),
        (give(["average_plus", "average", "average", None]), 400, "unknown_artificial"),
        ({**give(), "board": "9"}, 404, None),
        ({**give(), "table": None}, 400, "adjustment_incomplete"),
        (give(["average_plus", "average", "average", "average_plenty"]), 422, None),
    ],
)
def test_a_bad_artificial_score_is_refused_and_changes_nothing(cup, body, status, code):
    before = call(cup, "GET", "/events/cup/results")[1], call(cup, "GET", "/events/cup/standings")[1]
    got, answer = call(cup, "POST", "/events/cup/referee", body, caller=BOB)
    assert got == status and (code is None or answer["code"] == code), answer
    assert (
        call(cup, "GET", "/events/cup/results")[1],
        call(cup, "GET", "/events/cup/standings")[1],
    ) == before
    assert audit() == []


def test_the_table_leaves_the_comparison_and_the_other_table_is_scaled(cup):
    before = compared(call(cup, "GET", "/events/cup/standings")[1])
    played = rows(call(cup, "GET", "/events/cup/results")[1])
    a_players = [r["player"] for r in played if r["table"] == "A"]
    b_players = [r["player"] for r in played if r["table"] == "B"]
    # The averaged seat's own mean MP% over its other board of the round (board 2).
    own = compared(call(cup, "GET", "/events/cup/standings")[1], "2")[a_players[3]]["mp_pct"]
    headers = {"Idempotency-Key": "art-1"}
    first = call(cup, "POST", "/events/cup/referee", give(), caller=BOB, headers=headers)
    assert first[0] == 201 and first[1]["by"] == BOB
    assert call(cup, "POST", "/events/cup/referee", give(), caller=BOB, headers=headers) == first
    assert [a.kind for a in audit()] == ["artificial"], "a retry is audited once"

    after = compared(call(cup, "GET", "/events/cup/standings")[1])
    # Table B alone is compared: (MP + 1) · N / n − 1 = (0 + 1) · 2 / 1 − 1 = 1 of a top of 2.
    assert {(after[p]["mp"], after[p]["mp_pct"], after[p]["place"]) for p in b_players} == {(1.0, 50.0, 1)}
    assert [after[p]["mp_pct"] for p in a_players] == [60.0, 40.0, 50.0, pytest.approx(own, abs=0.01)]
    assert [after[p]["artificial"] for p in a_players] == KINDS
    assert [after[p]["place"] for p in a_players[:3]] == [1, 2, 1]
    assert before != after and all("artificial" not in after[p] for p in b_players)

    results = call(cup, "GET", "/events/cup/results")[1]
    marked = [r for r in rows(results) if r["table"] == "A"]
    assert [r["artificial"] for r in marked] == KINDS
    assert [r["adjusted_from"] for r in marked] == [r["score"] for r in played if r["table"] == "A"]
    assert {(r["adjustment_reason"], r["adjusted_by"]) for r in marked} == {("a fouled board", BOB)}
    export = call(cup, "GET", "/events/cup/export", caller=ALICE)[1]
    assert [r.get("artificial") for r in rows(export["results"]) if r["table"] == "A"] == KINDS
    assert compared(export["standings"]) == after, "the export's standings count it too"
    page = next(b for b in model.read(export, "en").boards if (b.round, b.board) == (1, "1"))
    shown = [r.adjusted for r in page.traveller if r.table == "A"]
    assert shown[0] == f"artificial average plus, was {marked[0]['adjusted_from']} by {BOB}", "results pages"
    assert {(r.mp, r.mp_pct) for r in page.traveller if r.table == "B"} == {(1.0, 50.0)}
    text = call(cup, "GET", "/events/cup/export?format=csv", caller=ALICE)[1]
    csv_rows = [r for r in csv.DictReader(io.StringIO(text)) if (r["round"], r["board"]) == ("1", "1")]
    assert [r["artificial"] for r in csv_rows if r["table"] == "A"] == KINDS
    assert {r["artificial"] for r in csv_rows if r["table"] == "B"} == {""}
    assert {r["adjusted_by"] for r in csv_rows if r["table"] == "A"} == {BOB}


def test_an_adjustment_of_the_scores_replaces_an_artificial_score(cup):
    assert call(cup, "POST", "/events/cup/referee", give(), caller=BOB)[0] == 201
    played = [r["score"] for r in rows(call(cup, "GET", "/events/cup/results")[1]) if r["table"] == "A"]
    body = {"kind": "adjust", "round": 1, "table": "A", "board": "1", "scores": played, "reason": "undo"}
    assert call(cup, "POST", "/events/cup/referee", body, caller=BOB)[0] == 201
    marked = [r for r in rows(call(cup, "GET", "/events/cup/results")[1]) if r["table"] == "A"]
    assert all("artificial" not in r for r in marked)
    assert [r["adjusted_from"] for r in marked] == played
