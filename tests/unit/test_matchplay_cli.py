"""``deckhand pairings`` and ``deckhand match-standings``: the JSON contracts of docs/cli.md."""

import io
import json
import subprocess
import sys

import pytest
from deckhand_local.cli.matchplay import run

TEAMS = [
    {"id": "A", "seed": 1, "region": "JS", "club": "X", "active": True},
    {"id": "B", "seed": 2},
    {"id": "C", "seed": 3},
    {"id": "D", "seed": 4},
    {"id": "E", "seed": 5},
]
HISTORY = [
    {"round": 1, "a": "A", "b": "B", "mp": [2, 0], "lp": [16, 10]},
    {"round": 1, "a": "C", "b": "D", "mp": [1, 1], "lp": [13, 13]},
    {"round": 1, "a": "E", "b": None, "bye": True, "mp": [2, 0], "lp": [18, 0]},
]
SWISS = {
    "format": "swiss",
    "round": 2,
    "options": {
        "round1": "lot",
        "no_same_region_round1": True,
        "forbid_same_club": False,
        "forbidden_pairs": [["A", "C"]],
    },
    "teams": TEAMS,
    "history": HISTORY,
}


def call(command, doc):
    out, err = io.StringIO(), io.StringIO()
    text = doc if isinstance(doc, str) else json.dumps(doc)
    code = run(command, io.StringIO(text), out, err)
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 and not err.getvalue()
    return code, json.loads(lines[0])


def bad(command, doc):
    """Bad input: one line on stderr naming the field, nothing on stdout, exit 2 (house convention)."""
    out, err = io.StringIO(), io.StringIO()
    text = doc if isinstance(doc, str) else json.dumps(doc)
    code = run(command, io.StringIO(text), out, err)
    assert (code, out.getvalue()) == (2, "")
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"deckhand {command}: error: ")
    return lines[0].removeprefix(f"deckhand {command}: error: ")


def test_swiss_pairings():
    assert call("pairings", SWISS) == (0, {"pairs": [["E", "C"], ["A", "D"]], "bye": "B"})


def test_knockout_first_round():
    assert call("pairings", {"format": "knockout", "teams": 6}) == (
        0,
        {"first_round": [[1, None], [4, 5], [2, None], [3, 6]]},
    )


def test_round_robin_rounds():
    code, doc = call("pairings", {"format": "round_robin", "teams": list("ABCDEF"), "legs": 1})
    assert code == 0
    assert doc["rounds"][0] == [["A", "F"], ["B", "E"], ["C", "D"]]
    assert len(doc["rounds"]) == 5
    code, doc = call("pairings", {"format": "round_robin", "teams": list("ABC")})
    assert doc["rounds"][0] == [["A", None], ["B", "C"]]


def test_cannot_pair_exit_1():
    history = [
        {"round": r, "a": a, "b": b, "mp": [2, 0], "lp": [16, 10]}
        for r, a, b in [
            (1, "A", "B"),
            (1, "C", "D"),
            (2, "A", "C"),
            (2, "B", "D"),
            (3, "A", "D"),
            (3, "B", "C"),
        ]
    ]
    doc = {"format": "swiss", "round": 4, "teams": [{"id": t} for t in "ABCD"], "history": history}
    code, out = call("pairings", doc)
    assert code == 1
    assert out["code"] == "cannot_pair" and "round 4" in out["error"]


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        ("", ""),
        ("{", ""),
        ({"format": "chess"}, "format"),
        ({**SWISS, "round": "3"}, "round"),
        ({**SWISS, "teams": [{"id": "A"}, {"id": "A"}]}, "teams[1].id"),
        ({**SWISS, "history": [{**HISTORY[0], "b": "Z"}]}, "history[0].b"),
        ({**SWISS, "history": [{**HISTORY[0], "mp": [2, 2]}]}, "history[0].mp"),
        ({**SWISS, "history": [{**HISTORY[0], "round": 2}]}, "history[0].round"),
        ({**SWISS, "options": {"round1": "dice"}}, "options.round1"),
        ({**SWISS, "options": {"forbidden_pairs": [["A", "Q"]]}}, "options.forbidden_pairs[0][1]"),
        ({"format": "knockout", "teams": 1}, "teams"),
        ({"format": "round_robin", "teams": ["A", "B"], "legs": 0}, "legs"),
        ({"format": "knockout", "teams": 10**9}, "teams"),
        ({**SWISS, "teams": [{"id": "A", "reg": 3}, {"id": "B", "reg": 3}]}, "teams[1].reg"),
        ({**SWISS, "history": [HISTORY[0], {**HISTORY[1], "b": "A"}]}, "history[1].b"),
        ({**SWISS, "history": [{**HISTORY[2], "forfeit": True}]}, "history[0].forfeit"),
        ({**SWISS, "options": {"round_1": "lot"}}, "options.round_1"),
    ],
)
def test_bad_input_names_the_field_exit_2(doc, field):
    message = bad("pairings", doc)
    assert message.startswith(f"{field}: ") if field else message


def test_match_standings():
    doc = {
        "teams": TEAMS,
        "history": HISTORY,
        "options": {
            "chain": "guandan",
            "h2h": "literal",
            "h2h_recursive": False,
            "final": "share",
            "lot_seed": 7,
        },
    }
    code, out = call("match-standings", doc)
    assert code == 0
    assert out["standings"][0] == {"team": "E", "place": 1, "mp": 2, "lp": 18, "opp": 0, "decided_by": "lp"}
    assert [(s["team"], s["place"]) for s in out["standings"]] == [
        ("E", 1),
        ("A", 2),
        ("C", 3),
        ("D", 3),
        ("B", 5),
    ]
    assert out["standings"][2]["decided_by"] == "shared"


def test_match_standings_bad_chain():
    message = bad("match-standings", {"teams": TEAMS, "history": HISTORY, "options": {"chain": "bridge"}})
    assert message.startswith("options.chain: expected one of")


def test_wired_into_the_deckhand_command():
    proc = subprocess.run(
        [sys.executable, "-m", "deckhand_local.cli.main", "pairings"],
        input=json.dumps(SWISS),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"pairs": [["E", "C"], ["A", "D"]], "bye": "B"}


def test_bad_input_through_the_deckhand_command_is_one_stderr_line():
    proc = subprocess.run(
        [sys.executable, "-m", "deckhand_local.cli.main", "match-standings"],
        input=json.dumps({"teams": TEAMS, "history": [{**HISTORY[0], "mp": [2, 2]}]}),
        capture_output=True,
        text=True,
        check=False,
    )
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.splitlines() == [
        "deckhand match-standings: error: history[0].mp: expected [2,0], [1,1] or [0,2] (a bye [2,0]), got [2, 2]"
    ]
