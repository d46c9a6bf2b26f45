"""Junqi's rules as the umpire's calculator answers them (RULES.md §6.3): the board's geometry, every
move rule (railway lines and corners, the middle crossing, an engineer's paths, road steps and camp
diagonals, camps safe, headquarters final), each battle outcome, each setup reason in its order, and
D7's result order, D8's shown flag. ``legal`` is checked against a slow reference generator written
here from the rules' text alone, over many random positions."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from deckhand.engines.junqi import geometry
from deckhand.engines.junqi.referee import JunqiReferee
from deckhand.errors import DeckhandError

REF = JunqiReferee()
COUNTS = {
    "marshal": 1, "general": 1, "division": 2, "brigade": 2, "regiment": 2, "battalion": 2,
    "company": 3, "platoon": 3, "engineer": 3, "mine": 3, "bomb": 2, "flag": 1,
}  # fmt: skip
RANK = {"marshal": 9, "general": 8, "division": 7, "brigade": 6, "regiment": 5, "battalion": 4,
        "company": 3, "platoon": 2, "engineer": 1}  # fmt: skip


# -- the reference board, from RULES.md's text -------------------------------------------------------


def flip(sq: str) -> str:
    return f"{sq[0]}{13 - int(sq[1:])}"


SQUARES = [f"{c}{r}" for c in "abcde" for r in range(1, 13)]
HQ = {"b1", "d1", "b12", "d12"}
CAMPS = {s for x in ["b3", "d3", "c4", "b5", "d5"] for s in (x, flip(x))}
SEGMENTS_TEXT = (
    "a2-b2 b2-c2 c2-d2 d2-e2 a6-b6 b6-c6 c6-d6 d6-e6 a7-b7 b7-c7 c7-d7 d7-e7 a11-b11 b11-c11 c11-d11 d11-e11 "
    "a2-a3 a3-a4 a4-a5 a5-a6 a6-a7 a7-a8 a8-a9 a9-a10 a10-a11 e2-e3 e3-e4 e4-e5 e5-e6 e6-e7 e7-e8 e8-e9 e9-e10 "
    "e10-e11 c6-c7"
)
SEGMENTS = {frozenset(p.split("-")) for p in SEGMENTS_TEXT.split()}
STATIONS = {s for seg in SEGMENTS for s in seg}
LINES = [
    [f"{c}2" for c in "abcde"], [f"{c}6" for c in "abcde"], [f"{c}7" for c in "abcde"],
    [f"{c}11" for c in "abcde"], [f"a{r}" for r in range(2, 12)], [f"e{r}" for r in range(2, 12)], ["c6", "c7"],
]  # fmt: skip
DIAGONALS_TEXT = (
    "b3-a2 b3-c2 b3-a4 b3-c4 d3-c2 d3-e2 d3-c4 d3-e4 c4-b5 c4-d5 b5-a4 b5-a6 b5-c6 d5-e4 d5-c6 d5-e6"
)


def _roads() -> set[frozenset[str]]:
    roads = set()
    for a in SQUARES:
        for b in SQUARES:
            ca, ra, cb, rb = ord(a[0]), int(a[1:]), ord(b[0]), int(b[1:])
            same_half = (ra <= 6) == (rb <= 6)
            if abs(ca - cb) + abs(ra - rb) == 1 and same_half and frozenset((a, b)) not in SEGMENTS:
                roads.add(frozenset((a, b)))
    for pair in DIAGONALS_TEXT.split():
        x, y = pair.split("-")
        roads |= {frozenset((x, y)), frozenset((flip(x), flip(y)))}
    return roads


ROADS = _roads()
LINKS = ROADS | SEGMENTS


def test_the_board_has_the_rules_counts_and_the_engine_the_same_graph() -> None:
    assert (len(STATIONS), len(SEGMENTS), len(ROADS)) == (32, 35, 98)
    named = {frozenset(geometry.NAMES[s] for s in link) for link in geometry.ROAD_LINKS}
    assert named == ROADS
    assert {frozenset(geometry.NAMES[s] for s in seg) for seg in geometry.RAIL_SEGMENTS} == SEGMENTS
    assert {geometry.NAMES[s] for s in geometry.CAMPS} == CAMPS
    assert {geometry.NAMES[s] for s in geometry.HEADQUARTERS} == HQ
    assert not any(frozenset((f"{c}6", f"{c}7")) in LINKS for c in "bd")  # the mountains


def reference_moves(position: dict[str, dict[str, str]], side: str) -> list[str]:
    """Every legal move of ``side``, the slow way: each rule as RULES.md words it."""
    return sorted(f"{s}-{t}" for s in position for t in reference_destinations(position, s, side))


def reference_destinations(position: dict[str, dict[str, str]], s: str, side: str) -> set[str]:
    p = position[s]
    if p["side"] != side or p["piece"] in ("mine", "flag") or s in HQ:
        return set()

    def enemy_open(t: str) -> bool:
        return t not in position or (position[t]["side"] != side and t not in CAMPS)

    out = {t for link in LINKS if s in link for t in link - {s} if enemy_open(t)}
    if s not in STATIONS:
        return out
    if p["piece"] != "engineer":
        for line in (line for line in LINES if s in line):
            i = line.index(s)
            for j, t in enumerate(line):
                between = line[min(i, j) + 1 : max(i, j)]
                if j != i and not any(b in position for b in between) and enemy_open(t):
                    out.add(t)
        return out
    reached, changed = {s}, True
    while changed:
        changed = False
        for seg in SEGMENTS:
            for a in seg:
                (b,) = seg - {a}
                if a in reached and b not in reached and b not in position:
                    reached.add(b)
                    changed = True
    return out | {
        b for seg in SEGMENTS for a in seg if a in reached for b in seg - {a} if b != s and enemy_open(b)
    }


def random_position(rng: random.Random) -> dict[str, dict[str, str]]:
    """Any subset of both sides' pieces on any squares (the calculator takes such positions)."""
    pool = [(side, t) for side in ("red", "blue") for t, n in COUNTS.items() for _ in range(n)]
    chosen = rng.sample(pool, rng.randint(2, len(pool)))
    squares = rng.sample(SQUARES, len(chosen))
    return {sq: {"side": side, "piece": t} for sq, (side, t) in zip(squares, chosen, strict=True)}


def test_legal_is_the_reference_generator_over_many_random_positions() -> None:
    rng = random.Random("junqi/legal")
    for _ in range(400):
        position = random_position(rng)
        for side in ("red", "blue"):
            moves = REF.legal({"position": position, "side": side})["moves"]
            assert moves == reference_moves(position, side), position
            assert moves == sorted(set(moves))  # each once, by code point


def legal(position: dict[str, tuple[str, str]], side: str = "red") -> list[str]:
    return REF.legal({"position": pos(position), "side": side})["moves"]


def pos(cells: dict[str, tuple[str, str]]) -> dict[str, dict[str, str]]:
    return {sq: {"side": side, "piece": t} for sq, (side, t) in cells.items()}


def from_(square: str, moves: list[str]) -> set[str]:
    return {m.split("-")[1] for m in moves if m.split("-")[0] == square}


R, B = "red", "blue"


def test_a_non_engineer_runs_straight_and_never_turns_at_a_corner_or_junction() -> None:
    # from b2: row 2 both ways; at the corner a2 it stops (no turn up column a)
    got = from_("b2", legal({"b2": (R, "company")}))
    assert {"a2", "c2", "d2", "e2"} <= got and not {"a3", "e3", "a4"} & got
    # from the corner a2: along row 2 and up column a, straight across the front to a11
    got = from_("a2", legal({"a2": (R, "company")}))
    assert {"e2", "a11", "a7"} <= got and "b11" not in got and "e3" not in got
    # from the junction a6: row 6 and column a, but no turn onto row 7 from row 6
    got = from_("b6", legal({"b6": (R, "company")}))
    assert {"a6", "e6"} <= got and not {"a7", "a5", "c7"} & got
    # blocked: stops before an own piece, ends on the first enemy
    got = from_("a2", legal({"a2": (R, "company"), "a5": (R, "platoon"), "d2": (B, "company")}))
    assert "a4" in got and "a5" not in got and "d2" in got and "e2" not in got


def test_the_middle_crossing_is_a_line_of_its_own() -> None:
    got = from_("c6", legal({"c6": (R, "company")}))
    assert "c7" in got and not {"b7", "d7"} & got
    got = from_("a6", legal({"a6": (R, "company")}))
    assert "c7" not in got  # no turn from row 6 onto c6-c7
    assert from_("b6", legal({"b6": (R, "company")})) >= {"b5"} and "b7" not in from_(
        "b6", legal({"b6": (R, "company")})
    )


def test_an_engineer_turns_any_corner_but_never_passes_a_piece() -> None:
    got = from_("b2", legal({"b2": (R, "engineer")}))
    assert {"a11", "e11", "c7", "c11", "e6"} <= got
    # a piece on c6 and on a6/e6 cuts the paths up: nothing past them
    got = from_("b2", legal({"b2": (R, "engineer"), "a4": (R, "platoon"), "e4": (B, "platoon")}))
    assert "e4" in got and "e5" not in got and "a4" not in got and "a5" not in got and "c7" not in got
    # never through a camp or HQ (not stations), and stations only
    assert not {"b3", "b1", "c4"} & from_("a2", legal({"a2": (R, "engineer")})) - {
        "b3"
    }  # b3 by a road step only
    assert "b3" in from_("a2", legal({"a2": (R, "engineer")}))


def test_road_steps_and_only_camp_diagonals() -> None:
    assert from_("c3", legal({"c3": (R, "company")})) == {"c2", "b3", "d3", "c4"}
    assert from_("c4", legal({"c4": (R, "company")})) == {"c3", "c5", "b4", "d4", "b3", "d3", "b5", "d5"}
    assert from_("a4", legal({"a4": (R, "company")})) >= {"b3", "b5", "b4"}
    assert "b5" not in from_("c6", legal({"c6": (R, "company"), "b5": (R, "platoon")}))
    assert not {"a3", "c3"} & from_("b2", legal({"b2": (R, "company")}))  # b2 is no camp: no diagonal


def test_a_piece_in_a_camp_is_never_attacked_and_headquarters_are_final() -> None:
    cells = {
        "b4": (R, "bomb"),
        "a4": (R, "engineer"),
        "b3": (B, "flag"),
        "c4": (B, "platoon"),
        "a2": (R, "marshal"),
    }
    moves = legal(cells)
    assert not any(m.endswith("-b3") or m.endswith("-c4") for m in moves)
    assert from_("b1", legal({"b1": (R, "marshal")})) == set()
    assert from_("d12", legal({"d12": (R, "marshal")})) == set()  # an enemy HQ too
    assert from_("a1", legal({"a1": (R, "mine"), "b1": (B, "company")})) == set()
    assert from_("c1", legal({"c1": (R, "flag")})) == set()
    assert "a1-b1" in legal({"a1": (R, "company"), "b1": (B, "flag")})  # an HQ piece can be attacked


def expected_battle(a: str, d: str) -> str:
    if d == "flag":
        return "attacker"
    if "bomb" in (a, d):
        return "both"
    if d == "mine":
        return "attacker" if a == "engineer" else "defender"
    return "attacker" if RANK[a] > RANK[d] else "defender" if RANK[a] < RANK[d] else "both"


def test_every_battle_is_the_table() -> None:
    for a in COUNTS:
        for d in COUNTS:
            if a in ("mine", "flag"):
                with pytest.raises(DeckhandError):
                    REF.battle({"attacker": a, "defender": d})
            else:
                assert REF.battle({"attacker": a, "defender": d}) == {"result": expected_battle(a, d)}, (a, d)
    assert REF.battle({"attacker": "bomb", "defender": "flag"}) == {"result": "attacker"}  # D5
    with pytest.raises(DeckhandError):
        REF.battle({"attacker": "tank", "defender": "flag"})


SETUP = {
    "b1": "flag", "a1": "mine", "c1": "mine", "b2": "mine", "d1": "platoon", "e1": "platoon",
    "a2": "company", "c2": "engineer", "d2": "battalion", "e2": "company", "a3": "division", "c3": "marshal",
    "e3": "brigade", "a4": "engineer", "b4": "bomb", "d4": "bomb", "e4": "regiment", "a5": "battalion",
    "c5": "general", "e5": "division", "a6": "regiment", "b6": "company", "c6": "engineer", "d6": "platoon",
    "e6": "brigade",
}  # fmt: skip


def setup_ok(side: str, placement: Any) -> dict[str, Any]:
    return REF.setup_ok({"side": side, "placement": placement})


def swap(placement: dict[str, str], a: str, b: str) -> dict[str, str]:
    out = dict(placement)
    out[a], out[b] = placement[b], placement[a]
    return out


def moved(placement: dict[str, str], a: str, b: str) -> dict[str, str]:
    out = dict(placement)
    out[b] = out.pop(a)
    return out


def test_each_setup_reason_in_its_order() -> None:
    assert setup_ok("red", SETUP) == {"ok": True}
    assert setup_ok("blue", {flip(k): v for k, v in SETUP.items()}) == {"ok": True}
    cases = {
        "square": [
            moved(SETUP, "e6", "e7"),
            moved(SETUP, "e6", "E6"),
            moved(SETUP, "e6", "e06"),
            {**SETUP, "x9": "flag"},
        ],
        "count": [
            {**SETUP, "e6": "division"},
            {**SETUP, "e6": "tank"},
            {k: v for k, v in SETUP.items() if k != "e6"},
        ],
        "camp": [moved(SETUP, "e6", "d5")],
        "flag_hq": [swap(SETUP, "b1", "e1"), swap(SETUP, "b1", "a3")],
        "mine_row": [swap(SETUP, "a1", "a3")],
        "bomb_front": [swap(SETUP, "b4", "b6")],
    }
    for why, placements in cases.items():
        for placement in placements:
            assert setup_ok("red", placement) == {"ok": False, "reason": why}, (why, placement)
    assert setup_ok("blue", SETUP) == {"ok": False, "reason": "square"}  # Red's half
    # several rules broken: the first in the order is reported
    both = moved(swap(swap(SETUP, "b1", "e1"), "b4", "b6"), "c3", "c4")  # camp, flag_hq, bomb_front
    assert setup_ok("red", both)["reason"] == "camp"
    assert setup_ok("red", swap(swap(SETUP, "a1", "a3"), "b4", "b6"))["reason"] == "mine_row"
    assert setup_ok("red", {**moved(SETUP, "c3", "c4"), "e6": "tank"})["reason"] == "count"
    assert setup_ok("red", {**moved(SETUP, "c3", "c4"), "e7": "tank"})["reason"] == "square"
    for bad in ({"side": "green", "placement": SETUP}, {"side": "red", "placement": []}, {"side": "red"}):
        with pytest.raises(DeckhandError):
            REF.setup_ok(bad)


def apply(cells: dict[str, tuple[str, str]], move: str, side: str = "red", **more: Any) -> dict[str, Any]:
    return REF.apply({"position": pos(cells), "side": side, "move": move, **more})


def test_apply_captures_and_counts_quiet_plies() -> None:
    base = {"a1": (R, "flag"), "e12": (B, "flag"), "c3": (R, "company"), "c10": (B, "company")}
    out = apply(base, "c3-c2", quiet=5)
    assert (out["captured"], out["quiet"], out["result"]) == (False, 6, None)
    lost = apply({**base, "c2": (B, "general")}, "c3-c2", quiet=5)  # a lost attack is a capture (D6)
    assert (lost["captured"], lost["quiet"]) == (True, 0) and lost["position"]["c2"]["piece"] == "general"
    assert "c3" not in lost["position"]
    both = apply({**base, "c2": (B, "company")}, "c3-c2")
    assert "c2" not in both["position"] and "c3" not in both["position"]
    won = apply({**base, "c2": (B, "platoon")}, "c3-c2")
    assert won["position"]["c2"] == {"side": "red", "piece": "company"}


def test_results_in_d7s_order() -> None:
    # (1) the flag taken wins even when the opponent has no move left and quiet reaches 70
    out = apply({"a2": (R, "company"), "a1": (B, "flag")}, "a2-a1", quiet=69)
    assert out["result"] == {"winner": "red", "why": "flag"}
    # (2) the opponent stuck: the mover wins; before quiet70
    stuck = {"c3": (R, "company"), "a1": (R, "flag"), "b12": (B, "marshal"), "d12": (B, "flag")}
    assert apply(stuck, "c3-c2", quiet=69)["result"] == {"winner": "red", "why": "no_moves"}
    # both stuck after the move: a draw
    last = {"c3": (R, "company"), "c2": (B, "company"), "b12": (B, "flag"), "b1": (R, "flag")}
    assert apply(last, "c3-c2")["result"] == {"winner": None, "why": "no_moves"}
    # (3) quiet70: plies without a capture reaching 70
    free = {"c3": (R, "company"), "c10": (B, "company")}
    assert apply(free, "c3-c2", quiet=69)["result"] == {"winner": None, "why": "quiet70"}
    assert apply(free, "c3-c2", quiet=68)["result"] is None
    # the mover is not tested: stuck after its own move, the game goes on
    alone = {
        "a2": (R, "company"),
        "a3": (B, "company"),
        "b12": (B, "flag"),
        "b1": (R, "flag"),
        "c10": (B, "platoon"),
    }
    assert apply(alone, "a2-a3")["result"] is None


def test_the_flag_is_shown_when_the_marshal_falls() -> None:
    cells = {
        "c3": (R, "marshal"),
        "c2": (B, "bomb"),
        "b1": (R, "flag"),
        "c10": (B, "company"),
        "e1": (R, "company"),
    }
    out = apply(cells, "c3-c2")
    assert out["marshal_lost"] == {"red": True, "blue": True}  # blue has no marshal in this position either
    assert out["flag_shown"] == {"red": "b1", "blue": None}  # blue's flag is not on the board
    off = apply(cells, "c3-c2", show_flag_on_marshal_loss=False)
    assert off["flag_shown"] == {"red": None, "blue": None} and off["marshal_lost"]["red"]
    given = apply({**cells, "c9": (B, "marshal")}, "e1-e2", marshal_lost={"red": True, "blue": False})
    assert given["marshal_lost"] == {"red": True, "blue": False}  # lost once before: still lost
    assert given["flag_shown"] == {"red": "b1", "blue": None}
    assert apply({**cells, "c9": (B, "marshal")}, "e1-e2")["marshal_lost"]["red"] is False


@pytest.mark.parametrize(
    "request_",
    [
        {"position": {}, "side": "red", "move": "c3-c2"},  # no piece
        {
            "position": {"c3": {"side": "blue", "piece": "company"}},
            "side": "red",
            "move": "c3-c2",
        },  # wrong side
        {"position": {"c3": {"side": "red", "piece": "company"}}, "side": "red", "move": "c3-c5"},  # illegal
        {"position": {"c3": {"side": "red", "piece": "company"}}, "side": "red", "move": "c3c2"},
        {
            "position": {"c3": {"side": "red", "piece": "company"}},
            "side": "red",
            "move": "c3-c2",
            "quiet": -1,
        },
        {"position": {"C3": {"side": "red", "piece": "company"}}, "side": "red", "move": "c3-c2"},
        {"position": {"c3": {"side": "red", "piece": "tank"}}, "side": "red", "move": "c3-c2"},
        {"position": {"c3": {"side": "red"}}, "side": "red", "move": "c3-c2"},
        {
            "position": {s: {"side": "red", "piece": "marshal"} for s in ("c3", "c5")},
            "side": "red",
            "move": "c3-c2",
        },
        {
            "position": {"c3": {"side": "red", "piece": "company"}},
            "side": "red",
            "move": "c3-c2",
            "marshal_lost": [],
        },
    ],
)
def test_bad_requests_are_errors(request_: dict[str, Any]) -> None:
    with pytest.raises(DeckhandError):
        REF.apply(request_)


def test_the_command_line_answers_errors_as_json() -> None:
    import io
    import json

    from deckhand_local.cli.rules import run

    lines = [
        '{"op":"battle","attacker":"mine","defender":"flag"}',
        '{"op":"battle","attacker":"engineer","defender":"mine"}',
        '{"op":"legal","position":{"a1":{"side":"red","piece":"flag"}},"side":"red"}',
    ]
    out = io.StringIO()
    run("junqi", io.StringIO("\n".join(lines) + "\n"), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert "error" in answers[0] and answers[1:] == [{"result": "attacker"}, {"moves": []}]
    assert Counter(map(len, answers)) == Counter({1: 3})
