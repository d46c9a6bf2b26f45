"""While a table still plays a board, nothing of it is shown: not its scores at the tables that
finished it, not the standings they make, in no results or export route."""

import csv
import io

import pytest
from api_calls import ALICE, BOB, call, cup_dealt
from backend import run_round

ROUTES = [
    "/events/cup/results",
    "/events/cup/standings",
    "/events/cup/export",
    "/events/cup/export?format=csv",
]


@pytest.fixture
def cup():
    with cup_dealt() as dealt:
        yield dealt


def shown(api, caller):
    """Board rows each route shows (any caller: results are not staff-only)."""
    out = {}
    for route in ROUTES:
        code, body = call(api, "GET", route, caller=caller)
        assert code == 200, (route, body)
        if route.endswith("results"):
            out[route] = [(b["round"], b["board"]) for b in body["boards"]]
        elif route.endswith("standings"):
            out[route] = [(b["round"], b["board"]) for b in body["boards"]] + body["standings"]
        elif route.endswith("csv"):
            out[route] = [(r["round"], r["board"]) for r in csv.DictReader(io.StringIO(body))]
        else:
            out[route] = [(b["round"], b["board"]) for b in body["results"]["boards"]] + [
                *body["standings"]["boards"],
                *body["standings"]["standings"],
            ]
    return out


def test_a_finished_tables_scores_are_not_shown_while_another_table_plays_the_board(cup):
    api, table_a, table_b = cup
    run_round(table_a[0].backend, table_a)  # table A finishes both boards; B has not begun
    status = call(api, "GET", "/events/cup/rounds/1")[1]
    assert {b["status"] for b in status["tables"][0]["boards"]} == {"ended"}
    assert "score" not in str(status)
    for caller in (ALICE, BOB):
        assert shown(api, caller) == dict.fromkeys(ROUTES, [])
    run_round(table_b[0].backend, table_b)  # the round is done: now everything of it is shown
    after = shown(api, BOB)
    assert {(1, "1"), (1, "2")} <= set(after["/events/cup/results"])
    assert after["/events/cup/standings"][-1]  # the standings table


def test_round_twos_boards_stay_hidden_while_round_one_is_shown(cup):
    api, table_a, table_b = cup
    run_round(table_a[0].backend, table_a + table_b)
    assert call(api, "POST", "/events/cup/rounds")[0] == 202
    run_round(table_a[0].backend, table_a)
    results = call(api, "GET", "/events/cup/results", caller=BOB)[1]
    assert {b["round"] for b in results["boards"]} == {1}
    code, export = call(api, "GET", "/events/cup/export?format=csv", caller=BOB)
    assert {row["round"] for row in csv.DictReader(io.StringIO(export))} == {"1"}
