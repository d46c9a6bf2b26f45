"""``deckhand rules --game bigtwo``: the JSON Lines contract of docs/cli.md."""

import io
import json
import subprocess
import sys

import pytest
from deckhand_local.cli.rules import run
from helpers import run_cli

LINES = [
    ('{"op":"classify","cards":["D3","C3"]}', {"type": "pair"}),
    ('{"op":"classify","cards":["d3","c4","h5","s6","d7"]}', {"type": "straight"}),
    ('{"op":"classify","cards":["S10","SJ","SQ","SK","SA"]}', {"type": "straight_flush"}),
    ('{"op":"classify","cards":["SJ","CQ","HK","SA","D2"]}', {"type": None}),
    ('{"op":"classify","cards":["D8","C8","H8","S8","D3"]}', {"type": "four_of_a_kind"}),
    ('{"op":"classify","cards":["C9","H9","S9","D4","C4"]}', {"type": "full_house"}),
    ('{"op":"classify","cards":["H3","H4","H5","H6","H8"]}', {"type": "flush"}),
    ('{"op":"classify","cards":["C3","H3","S3"]}', {"type": "triple"}),
    ('{"op":"classify","cards":["S2"]}', {"type": "single"}),
    ('{"op":"beats","prev":["H2"],"play":["S2"]}', {"beats": True}),
    ('{"op":"beats","prev":["S2"],"play":["H2"]}', {"beats": False}),
    ('{"op":"beats","prev":["D3"],"play":["D4","C4"]}', {"beats": False}),
    ('{"op":"beats","prev":["D3","C4"],"play":["D5"]}', {"beats": False}),
    (
        '{"op":"score","cards_left":[5,8,0,12],"shown":[false,false,false,false],'
        '"doubled":[true,false,false,true]}',
        {"scores": [136, 2, 98, -236]},
    ),
]

BAD = [
    ("not json", "not JSON"),
    ("[1,2]", "JSON object"),
    ('{"op":"deal"}', "unknown op"),
    ('{"op":"__init__"}', "unknown op"),
    ('{"cards":["D3"]}', "unknown op"),
    ('{"op":"classify","cards":["X9"]}', "unknown card token"),
    ('{"op":"classify","cards":["D3","d3"]}', "appears 2 times"),
    ('{"op":"classify","cards":["BJ"]}', "not used in this game"),
    ('{"op":"classify","cards":"D3"}', "must be a list"),
    ('{"op":"classify"}', "missing field 'cards'"),
    ('{"op":"beats","prev":["D3"]}', "missing field 'play'"),
    (
        '{"op":"score","cards_left":[5,8,0],"shown":[false,false,false,false],"doubled":[false,false,false,false]}',
        "'cards_left' must have 4 entries",
    ),
    (
        '{"op":"score","cards_left":[5,8,0,12],"shown":[0,0,0,0],"doubled":[false,false,false,false]}',
        "'shown' entries must be bool",
    ),
    (
        '{"op":"score","cards_left":[5,8,1,12],"shown":[false,false,false,false],"doubled":[false,false,false,false]}',
        "exactly one player",
    ),
    (
        '{"op":"score","cards_left":[5,8,0,14],"shown":[false,false,false,false],"doubled":[false,false,false,false]}',
        "0..13",
    ),
    ("", "not JSON"),
]


def run_lines(lines: list[str]) -> list[dict]:
    out = io.StringIO()
    assert run("bigtwo", io.StringIO("".join(line + "\n" for line in lines)), out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize(("line", "expected"), LINES)
def test_ops(line, expected):
    assert run_lines([line]) == [expected]


@pytest.mark.parametrize(("line", "message"), BAD)
def test_bad_line_gets_error_and_the_next_line_is_still_answered(line, message):
    replies = run_lines([line, LINES[0][0]])
    assert list(replies[0]) == ["error"] and message in replies[0]["error"]
    assert replies[1] == LINES[0][1]


def test_console_script_one_line_out_per_line_in_exit_zero():
    stdin = "\n".join([LINES[0][0], "garbage", LINES[-1][0]]) + "\n"
    proc = subprocess.run(
        [sys.executable, "-m", "deckhand_local.cli.main", "rules", "--game", "bigtwo"],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    assert (
        replies[0] == {"type": "pair"}
        and "error" in replies[1]
        and replies[2] == {"scores": [136, 2, 98, -236]}
    )
    assert proc.stdout.splitlines()[0] == '{"type":"pair"}'


def test_unknown_game_is_a_usage_error():
    code, _, err = run_cli("rules", "--game", "chess")
    assert code == 2 and "invalid choice" in err


DOUDIZHU = [
    ('{"op":"classify","cards":["D3","C3","H3","D4","C4","H4","D7","C7"]}', {"type": "plane_singles"}),
    ('{"op":"classify","cards":["BJ","RJ"]}', {"type": "rocket"}),
    ('{"op":"classify","cards":["D3","C3","H3","S3","D4","C4","H4","S4"]}', {"type": None}),
    ('{"op":"classify","cards":["D5","C5","H5","S5","D3","C3"]}', {"type": "four_two_singles"}),
    ('{"op":"beats","prev":["DA","CA"],"play":["D5","C5","H5","S5"]}', {"beats": True}),
    ('{"op":"beats","prev":["BJ","RJ"],"play":["D2","C2","H2","S2"]}', {"beats": False}),
    (
        '{"op":"beats","prev":["D3","D4","D5","D6","D7"],"play":["D4","D5","D6","D7","D8","D9"]}',
        {"beats": False},
    ),
    (
        '{"op":"score","bid":3,"landlord":0,"defenders_won":true,"bombs":1,"rockets":1,"spring":false,'
        '"anti_spring":true,"doubled":[false,true,false],"redoubled":true}',
        {"scores": [-120, 96, 24]},
    ),
    ('{"op":"classify","cards":["D3","X3"]}', {"error": "unknown card token 'X3'"}),
    (
        '{"op":"score","bid":4,"landlord":0,"defenders_won":true,"bombs":0,"rockets":0,"spring":false,'
        '"anti_spring":false,"doubled":[false,false,false],"redoubled":false}',
        {"error": "bid must be 1, 2 or 3, got 4"},
    ),
    (
        '{"op":"score","bid":1,"landlord":0,"defenders_won":"yes","bombs":0,"rockets":0,"spring":false,'
        '"anti_spring":false,"doubled":[false,false,false],"redoubled":false}',
        {"error": "'defenders_won' must be bool, got 'yes'"},
    ),
    (
        '{"op":"score","bid":1,"landlord":0,"defenders_won":true,"bombs":0,"rockets":0,"spring":false,'
        '"anti_spring":false,"doubled":[false,false],"redoubled":false}',
        {"error": "'doubled' must have 3 entries, got 2"},
    ),
]


@pytest.mark.parametrize(("line", "expected"), DOUDIZHU)
def test_doudizhu_ops(line, expected):
    out = io.StringIO()
    assert run("doudizhu", io.StringIO(line + "\n"), out) == 0
    assert [json.loads(x) for x in out.getvalue().splitlines()] == [expected]


GUANDAN = [
    (
        '{"op":"classify","level":"7","cards":["H7","S5","S6","S8","S9"]}',
        {"readings": [{"type": "straight", "rank": "9"}, {"type": "straight_flush", "rank": "9"}]},
    ),
    (
        '{"op":"beats","level":"7","prev":{"type":"straight","rank":"9"},"play":["H7","S5","S6","S8","S9"]}',
        {"beats": True},
    ),
    (
        '{"op":"upgrade","level_side":0,"levels":["A","5"],"order":[0,2,1,3],"a_attempts":[0,0]}',
        {"levels": ["A+", "5"], "winner_side": 0, "game_over": True},
    ),
    ('{"op":"return_ok","level":"7","from":0,"to":1,"card":"S9","partner":false}', {"ok": True}),
    ('{"op":"level_points","levels":["A+","7"]}', {"match_points": [2, 0], "level_points": [21, 5]}),
    ('{"op":"classify","level":"7"}', {"error": "missing field 'cards'"}),
]


def test_the_guandan_calculator_answers_the_issues_examples_through_the_command_line() -> None:
    """``deckhand rules --game guandan`` reaches the engine through the registry, not a copy of it."""
    assert command_line("guandan", GUANDAN) == [want for _, want in GUANDAN]


def command_line(game: str, cases: list[tuple[str, dict]]) -> list[dict]:
    """The replies of ``deckhand rules --game <game>`` to the cases' lines (its ``main`` in this process;
    test_console_script_one_line_out_per_line_in_exit_zero starts the command)."""
    text = "\n".join(line for line, _ in cases) + "\n"
    code, out, err = run_cli("rules", "--game", game, stdin=text)
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


SHENGJI = [
    (
        '{"op":"order","preset":"yaoji2010","level":"8","trump":"H","cards":["SA","H8","D8","S8","RJ","HA","D3"]}',
        {
            "cards": [
                {"card": "RJ", "suit": "T"},
                {"card": "H8", "suit": "T"},
                {"card": "S8", "suit": "T"},
                {"card": "D8", "suit": "T"},
                {"card": "HA", "suit": "T"},
                {"card": "SA", "suit": "S"},
                {"card": "D3", "suit": "D"},
            ]
        },
    ),
    (
        '{"op":"components","preset":"yaoji2010","level":"8","trump":"H","cards":["S9","S9","S7","S7","S4","S4","S3"]}',
        {
            "suit": "S",
            "components": [
                {"type": "tractor", "pairs": 2, "high": "S9"},
                {"type": "pair", "high": "S4"},
                {"type": "single", "high": "S3"},
            ],
        },
    ),
    (
        '{"op":"components","preset":"common","level":"8","trump":"H","cards":["HA","HA","S8","S8","H8","H8"]}',
        {
            "suit": "T",
            "components": [{"type": "tractor", "pairs": 2, "high": "H8"}, {"type": "pair", "high": "HA"}],
        },
    ),
    (
        '{"op":"components","preset":"yaoji2010","level":"8","trump":"H","cards":["HA","HA","S8","S8","H8","H8"]}',
        {"suit": "T", "components": [{"type": "tractor", "pairs": 3, "high": "H8"}]},
    ),
    (
        '{"op":"follow_ok","preset":"yaoji2010","level":"8","trump":"H","lead":["SA","SA"],'
        '"hand":["S3","S3","S4","C5"],"play":["S3","S4"]}',
        {"ok": False, "reason": "must_match_pair"},
    ),
    (
        '{"op":"trick_winner","preset":"common","level":"8","trump":"H","leader":1,'
        '"plays":[["H3","H3"],["SA","SA"],["SK","SQ"],["H4","H4"]]}',
        {"winner": 3},
    ),
    (
        '{"op":"throw_ok","preset":"common","level":"8","trump":"H","throw":["SK","SQ","SQ"],'
        '"others":[["D3"],["SA"],["H3"]]}',
        {"ok": False, "forced": ["SK"], "penalty": 30},
    ),
    (
        '{"op":"throw_ok","preset":"yaoji2010","level":"8","trump":"H","throw":["SK","SQ","SQ"],'
        '"others":[["D3"],["SA"],["H3"]]}',
        {"ok": False, "forced": ["SK"], "penalty": 0},
    ),
    (
        '{"op":"throw_ok","preset":"yaoji2010","level":"8","trump":"H","throw":["SA","SK","SK"],'
        '"others":[["SQ","SQ"],["SA"],["H3"]]}',
        {"ok": True, "penalty": 0},
    ),
    (
        '{"op":"result","preset":"yaoji2010","defender_points":0}',
        {"side": "dealer", "levels": 2, "dealer_change": False, "next_dealer": "dealer_partner"},
    ),
    (
        '{"op":"result","preset":"common","defender_points":0}',
        {"side": "dealer", "levels": 3, "dealer_change": False, "next_dealer": "dealer_partner"},
    ),
    (
        '{"op":"result","preset":"common","defender_points":165}',
        {"side": "defenders", "levels": 2, "dealer_change": True, "next_dealer": "dealer_next"},
    ),
    (
        '{"op":"kitty","preset":"yaoji2010","kitty_points":25,"last_trick":{"type":"throw",'
        '"components":[{"type":"single"},{"type":"single"}]}}',
        {"points": 75, "multiplier": 3},
    ),
    (
        '{"op":"kitty","preset":"common","kitty_points":25,"last_trick":{"type":"throw",'
        '"components":[{"type":"single"},{"type":"single"}]}}',
        {"points": 50, "multiplier": 2},
    ),
    (
        '{"op":"kitty","preset":"common","kitty_points":20,"last_trick":{"type":"tractor","pairs":2}}',
        {"points": 160, "multiplier": 8},
    ),
    (
        '{"op":"declare","preset":"yaoji2010","level":"2","bids":[{"seat":0,"cards":["H2"]},'
        '{"seat":1,"cards":["S2","S2"]},{"seat":2,"cards":["BJ","BJ"]},{"seat":3,"cards":["RJ","RJ"]}]}',
        {"accepted": [True, True, True, False], "trump": None, "declarer": 2, "dealer_board1": 2},
    ),
    (
        '{"op":"declare","preset":"common","level":"2","bids":[{"seat":0,"cards":["H2"]},'
        '{"seat":1,"cards":["S2","S2"]}]}',
        {"accepted": [True, True], "trump": "S", "declarer": 1, "dealer_board1": 0},
    ),
    (
        '{"op":"declare","preset":"common","level":"2","bids":[],"kitty":["BJ","D5","S3","S4","S5","S6","S7","S9"]}',
        {"accepted": [], "trump": "D", "declarer": None, "dealer_board1": 0},
    ),
    (
        '{"op":"declare","preset":"yaoji2010","level":"2","bids":[{"seat":1,"cards":["BJ","BJ"]}]}',
        {"accepted": [False], "trump": None, "declarer": None, "dealer_board1": 0},
    ),
    (
        '{"op":"declare","preset":"common","level":"2","bids":[]}',
        {"error": "nobody declared: 'kitty' (its cards in order) names trump in this preset"},
    ),
    (
        '{"op":"order","level":"8","trump":"H","cards":["SA"]}',
        {"error": "missing field 'preset' (yaoji2010 or common)"},
    ),
    (
        '{"op":"order","preset":"house","level":"8","trump":"H","cards":["SA"]}',
        {"error": "'preset' must be yaoji2010 or common, got 'house'"},
    ),
    (
        '{"op":"components","preset":"common","level":"8","trump":"H","cards":["SA","CA"]}',
        {"error": "'cards' must be cards of one suit (trump counting as one)"},
    ),
    (
        '{"op":"order","preset":"common","level":"1","trump":"H","cards":["SA"]}',
        {"error": "'level' must be a level 2…9, T, J, Q, K or A, got '1'"},
    ),
    (
        '{"op":"order","preset":"common","level":"8","trump":"X","cards":["SA"]}',
        {"error": "'trump' must be S, H, C, D or null, got 'X'"},
    ),
]


def test_the_shengji_calculator_answers_through_the_command_line() -> None:
    """``deckhand rules --game shengji``: every request carries its preset; a bad one gets an error."""
    assert command_line("shengji", SHENGJI) == [want for _, want in SHENGJI]


SHENGJI_ISSUE34 = [
    # tractors through the level cards (003): playing 3, trump spades, one tractor of three
    (
        '{"op":"components","preset":"yaoji2010","level":"3","trump":"S","cards":["SA","SA","D3","D3","S3","S3"]}',
        {"suit": "T", "components": [{"type": "tractor", "pairs": 3, "high": "S3"}]},
    ),
    (
        '{"op":"trick_winner","preset":"yaoji2010","level":"3","trump":"S","leader":0,"plays":'
        '[["HK","HK","HQ","HQ","HJ","HJ"],["SA","SA","D3","D3","S3","S3"],'
        '["H4","H4","H5","H5","H6","H6"],["C4","C4","C5","C5","C6","C6"]]}',
        {"winner": 1},
    ),
    # 003 "AA22 never": playing 2 the trump A pair does not chain to an off-suit 2 pair
    (
        '{"op":"components","preset":"yaoji2010","level":"2","trump":"S","cards":["SA","SA","D2","D2","S2","S2"]}',
        {
            "suit": "T",
            "components": [{"type": "tractor", "pairs": 2, "high": "S2"}, {"type": "pair", "high": "SA"}],
        },
    ),
    # following: a six-pair run gives a led four four consecutive pairs
    (
        '{"op":"follow_ok","preset":"common","level":"8","trump":"H","lead":["S3","S3","S4","S4","S5","S5","S6","S6"],'
        '"hand":["S9","S9","ST","ST","SJ","SJ","SQ","SQ","SK","SK","SA","SA"],'
        '"play":["S9","S9","ST","ST","SQ","SQ","SK","SK"]}',
        {"ok": False, "reason": "must_match_tractor"},
    ),
    # following: a run of three and a pair rank above two runs of two
    (
        '{"op":"follow_ok","preset":"yaoji2010","level":"8","trump":"H","lead":["S3","S3","S4","S4","S5","S5","S6","S6"],'
        '"hand":["S9","S9","ST","ST","SJ","SJ","SK","SK","SA","SA","S2","S2"],'
        '"play":["S9","S9","ST","ST","SK","SK","SA","SA"]}',
        {"ok": False, "reason": "must_match_tractor"},
    ),
    # 004: a joker pair overcalls a reinforced declaration, and nothing overcalls it
    (
        '{"op":"declare","preset":"common","level":"2","bids":[{"seat":0,"cards":["H2"]},'
        '{"seat":0,"cards":["H2"]},{"seat":1,"cards":["BJ","BJ"]},{"seat":2,"cards":["RJ","RJ"]}]}',
        {"accepted": [True, True, True, False], "trump": None, "declarer": 1, "dealer_board1": 0},
    ),
    # the order: trump block, then side suits as blocks S, H, C, D from A down
    (
        '{"op":"order","preset":"common","level":"8","trump":"H","cards":["D3","DA","S9","CK","HA","SA","S8","C8"]}',
        {
            "cards": [
                {"card": "S8", "suit": "T"},
                {"card": "C8", "suit": "T"},
                {"card": "HA", "suit": "T"},
                {"card": "SA", "suit": "S"},
                {"card": "S9", "suit": "S"},
                {"card": "CK", "suit": "C"},
                {"card": "DA", "suit": "D"},
                {"card": "D3", "suit": "D"},
            ]
        },
    ),
    # nobody declared on board 1: seat 0 deals, in both presets (004 turns the kitty, jokers skipped)
    (
        '{"op":"declare","preset":"yaoji2010","level":"2","bids":[]}',
        {"accepted": [], "trump": None, "declarer": None, "dealer_board1": 0},
    ),
    (
        '{"op":"declare","preset":"common","level":"2","bids":[{"seat":2,"cards":["RJ","RJ"]}],'
        '"kitty":["RJ","BJ","C7","S3","S4","S5","S6","S7"]}',
        {"accepted": [False], "trump": "C", "declarer": None, "dealer_board1": 0},
    ),
]


def test_the_shengji_calculator_answers_issue_34_s_rules() -> None:
    assert command_line("shengji", SHENGJI_ISSUE34) == [want for _, want in SHENGJI_ISSUE34]
