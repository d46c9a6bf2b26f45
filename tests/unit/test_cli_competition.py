"""``deckhand standings``, ``deckhand seat`` and ``deckhand event check``: the contracts of docs/cli.md."""

import csv
import io
import json
import subprocess
import sys

import pytest
from helpers import run_cli

RESULTS = {
    "ruleset": "bigtwo-2017",
    "boards": [
        {
            "board": "1",
            "round": 1,
            "group": "1",
            "results": [
                {"player": "P1", "table": "1", "seat": 0, "score": 15, "play_time": 35.0},
                {"player": "P2", "table": "2", "seat": 0, "score": 7, "play_time": 40.0},
                {"player": "P3", "table": "3", "seat": 0, "score": 21, "play_time": 41.5},
            ],
        },
        {
            "board": "2",
            "round": 1,
            "group": "1",
            "results": [
                {"player": "P1", "table": "1", "seat": 0, "score": 11, "play_time": 20.0},
                {"player": "P2", "table": "2", "seat": 0, "score": 11, "play_time": 30.0},
                {"player": "P3", "table": "3", "seat": 0, "score": -3, "play_time": 30.0},
            ],
        },
    ],
}


def deckhand(*args, stdin=""):
    """The command run in this test's process (its ``main``); the first test starts it as a process."""
    return run_cli(*args, stdin=stdin)


def deckhand_process(*args, stdin=""):
    proc = subprocess.run(
        [sys.executable, "-m", "deckhand_local.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_standings_json():
    code, out, err = deckhand_process("standings", stdin=json.dumps(RESULTS))
    assert code == 0, err
    doc = json.loads(out)
    assert doc["boards"][0] == {
        "board": "1",
        "round": 1,
        "group": "1",
        "seat": 0,
        "results": [
            {"player": "P3", "mp": 4, "mp_pct": 100.0, "place": 1, "rank_points": 10000.0},
            {"player": "P1", "mp": 2, "mp_pct": 50.0, "place": 2, "rank_points": 7000.0},
            {"player": "P2", "mp": 0, "mp_pct": 0.0, "place": 3, "rank_points": 5000.0},
        ],
    }
    assert doc["standings"] == [
        {"player": "P1", "place": 1, "total": 17000.0, "tie_break": None},
        {"player": "P2", "place": 2, "total": 15000.0, "tie_break": None},
        {"player": "P3", "place": 3, "total": 15000.0, "tie_break": "play_time"},
    ]


def test_standings_dense_ranking():
    code, out, _ = deckhand("standings", "--ranking", "dense", stdin=json.dumps(RESULTS))
    assert code == 0
    assert json.loads(out)["boards"][1]["results"][2]["place"] == 2


def test_standings_csv():
    code, out, _ = deckhand("standings", "--format", "csv", stdin=json.dumps(RESULTS))
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows == [
        ["place", "player", "total", "tie_break", "name"],
        ["1", "P1", "17000.00", "", ""],
        ["2", "P2", "15000.00", "", ""],
        ["3", "P3", "15000.00", "play_time", ""],
    ]


EXPORT = {
    "event": {"event_id": "cup", "name": "Harbour <Cup>", "ruleset": "bigtwo-2017"},
    "players": [{"id": "P1", "name": "Li Wei", "number": 1}, {"id": "P2", "name": "Chan Mei", "number": 2}],
    "rounds": [{"round": 1, "commitment": "ab" * 32, "salt": "cd" * 16}],
    "results": {**RESULTS, "deals": "secret"},
    "standings": {},
}


def test_standings_from_an_events_export_as_the_api_gives_it():
    """The API's export piped as it is: its results, its players' names with the standings."""
    code, out, err = deckhand("standings", stdin=json.dumps(EXPORT))
    assert code == 0, err
    assert json.loads(out)["standings"] == [
        {"player": "P1", "name": "Li Wei", "place": 1, "total": 17000.0, "tie_break": None},
        {"player": "P2", "name": "Chan Mei", "place": 2, "total": 15000.0, "tie_break": None},
        {"player": "P3", "name": None, "place": 3, "total": 15000.0, "tie_break": "play_time"},
    ]
    code, out, err = deckhand("standings", "--format", "html", stdin=json.dumps(EXPORT))
    assert code == 0, err
    assert "<title>Harbour &lt;Cup&gt; — standings</title>" in out
    assert '<td class="name">Li Wei (P1)</td>' in out and '<td class="name">P3</td>' in out
    code, out, _ = deckhand("standings", "--format", "csv", stdin=json.dumps(EXPORT))
    assert out.splitlines()[1] == "1,P1,17000.00,,Li Wei"


def test_a_bad_export_names_the_field_inside_it():
    bad = json.loads(json.dumps(EXPORT))
    del bad["results"]["boards"][1]["results"][0]["score"]
    code, out, err = deckhand("standings", stdin=json.dumps(bad))
    assert code == 2 and out == ""
    assert "results.boards[1].results[0].score: is missing" in err
    match = {**EXPORT, "results": {"ruleset": "guandan-2023", "matches": [], "standings": []}}
    code, _, err = deckhand("standings", stdin=json.dumps(match))
    assert code == 2 and "a match event's export" in err


def test_standings_html_is_a_readable_page():
    results = json.loads(json.dumps(RESULTS))
    results["boards"][0]["results"][0]["player"] = "<b>P1</b>"
    code, out, _ = deckhand("standings", "--format", "html", stdin=json.dumps(results))
    assert code == 0
    assert out.startswith("<!DOCTYPE html>") and 'id="standings"' in out
    assert "&lt;b&gt;P1&lt;/b&gt;" in out and "<b>P1</b>" not in out
    assert "Round 1 · board 2 · group 1 · seat 0" in out


def test_seat_later_round_and_first_round():
    code, out, _ = deckhand(
        "seat",
        stdin=json.dumps({"seats_per_table": 4, "groups": 2, "standings": [f"P{i}" for i in range(1, 17)]}),
    )
    assert code == 0
    tables = json.loads(out)["tables"]
    assert tables[0] == {"group": 1, "table": 1, "seats": ["P1", "P2", "P3", "P4"]}
    assert tables[1] == {"group": 1, "table": 2, "seats": ["P8", "P7", "P6", "P5"]}
    first = {"seats_per_table": 3, "groups": 1, "players": ["A", "B", "C", "D"], "seed": "s1"}
    code, out, _ = deckhand("seat", stdin=json.dumps(first))
    again = deckhand("seat", stdin=json.dumps(first))[1]
    assert code == 0 and out == again
    seated = [p for t in json.loads(out)["tables"] for p in t["seats"]]
    assert sorted(p for p in seated if p) == ["A", "B", "C", "D"] and seated.count(None) == 2


EVENT = {
    "name": "Harbour City Big Two Cup",
    "grade": "C3",
    "organiser": "registered_unit",
    "venue": False,
    "rounds": 1,
    "boards": 6,
    "fee": 20,
    "start": "2026-12-14",
    "players": [{"id": "P1"}, "P2"],
}


def test_event_check_ok_and_violations():
    code, out, _ = deckhand("event", "check", stdin=json.dumps(EVENT))
    assert code == 0 and json.loads(out) == {"ok": True, "violations": []}
    bad = dict(EVENT, boards=2, fee=25, players=["P1", "P1"])
    code, out, _ = deckhand("event", "check", stdin=json.dumps(bad))
    assert code == 1
    doc = json.loads(out)
    assert doc["ok"] is False
    assert [v["rule"] for v in doc["violations"]] == ["min_boards", "fee_cap", "entry_once"]
    assert all(v["message"] for v in doc["violations"])


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (("standings",), "", "no input"),
        (("standings",), "{", "not JSON"),
        (("standings",), "[]", "document: must be a JSON object"),
        (("standings",), '{"boards":[]}', "ruleset: is missing"),
        (("standings",), '{"ruleset":"go","boards":[]}', "unknown rule set"),
        (
            ("standings",),
            '{"ruleset":"bigtwo-2017","boards":[{"board":"1","results":[{"player":"P","seat":0}]}]}',
            "boards[0].results[0].score: is missing",
        ),
        (
            ("standings",),
            '{"ruleset":"bigtwo-2017","boards":[{"board":"1","results":[{"player":"P","seat":"0","score":1}]}]}',
            "boards[0].results[0].seat: must be a whole number",
        ),
        (
            ("standings",),
            '{"ruleset":"bigtwo-2017","boards":[{"board":"1","results":[]}]}',
            "boards[0].results: has no results",
        ),
        (("seat",), '{"seats_per_table":4,"standings":["A","A"]}', "'A' appears twice"),
        (("seat",), '{"seats_per_table":4,"standings":["A"],"players":["A"],"seed":"x"}', "either standings"),
        (("seat",), '{"seats_per_table":4,"players":["A"]}', "seed: is missing"),
        (("seat",), '{"seats_per_table":4,"standings":["A",7]}', "standings[1]: must be a player id"),
        (("event", "check"), '{"name":"x"}', "grade: is missing"),
        (("event", "check"), json.dumps(dict(EVENT, start="14/12/2026")), "start: must be a date"),
        (("event", "check"), json.dumps(dict(EVENT, venue="no")), "venue: must be true or false"),
    ],
)
def test_bad_input_is_one_clear_line_exit_2_no_traceback(args, stdin, message):
    code, out, err = deckhand(*args, stdin=stdin)
    assert code == 2
    assert out == ""
    assert message in err and "Traceback" not in err
    assert err.startswith(f"deckhand {' '.join(args)}: error: ")
