"""The board games' records (docs/export.md, "Game records"): a real game played by the engines' bots
and ended by the clock is replayed from its steps into moves in each game's notations, a picture per
action and the engine's own result; Xiangqi's text record reads back to the same moves."""

from __future__ import annotations

from typing import Any

import pytest
from deckhand.engines.common.game_record import RecordError
from deckhand.engines.contract import Action, Board
from deckhand.engines.registry import game
from deckhand.engines.xiangqi.record import parse_text

BOARD_GAMES = ["xiangqi-2004", "gomoku-renju", "junqi-2004", "checkers-2004"]
NAMES = ["Li Lei", 'Han "Mei" Mei']


def step_of(action: Action) -> dict[str, Any]:
    step: dict[str, Any] = {"s": action.seat, "t": action.kind}
    if action.data is not None:
        step["d"] = action.data
    if action.timeout:
        step["to"] = True
    return step


def played(
    ruleset: str, plies: int = 24, carry: dict[str, Any] | None = None
) -> tuple[Board, list[dict[str, Any]]]:
    """A game of ``plies`` bot actions, then seat 0's clock runs out while seat 1 plays on."""
    g = game(ruleset)
    board = g.new_board([], carry)
    bot = g.bot()
    steps = []
    for n in range(2000):
        if board.finished:
            break
        (seat,) = board.pending()[:1]
        action = bot(board, seat) if n < plies or seat == 1 else board.default_action(seat)
        assert action is not None
        board.apply(action)
        steps.append(step_of(action))
    assert board.finished
    return board, steps


def recorded(
    ruleset: str, plies: int, carry: dict[str, Any] | None = None
) -> tuple[Board, list[dict[str, Any]], dict[str, Any]]:
    """A played game (``played``), its steps and its record."""
    board, steps = played(ruleset, plies, carry)
    position = game(ruleset).position
    assert position is not None and position.record is not None
    return board, steps, position.record(carry, steps, NAMES, {})


@pytest.mark.parametrize("ruleset", BOARD_GAMES)
def test_a_played_game_replays_to_the_engine_s_own_result(ruleset):
    position = game(ruleset).position
    assert position is not None and position.record is not None
    carry = {"seed": "s" * 64, "options": None, "last": [None, None]} if position.seeded else None
    carry = {k: v for k, v in (carry or {}).items() if v is not None} or None
    board, steps = played(ruleset, carry=carry)
    rec = position.record(carry, steps, NAMES, {"Event": "Cup", "Round": "1.1.1"})
    result = board.result()
    points = [float(p) for p in result["points"]]
    assert rec["result"]["points"] == points and rec["result"]["why"] == result["why"]
    assert rec["result"]["winner"] == 1  # seat 0's clock ran out
    assert [m["n"] for m in rec["moves"]] == list(range(1, len(steps) + 1))
    assert len(rec["frames"]) == len(steps) + 1
    assert any(m.get("timeout") for m in rec["moves"])
    # A changed step does not replay (or replays to another game).
    bad = [dict(s) for s in steps]
    bad[-1]["s"] = 1 - bad[-1]["s"]
    with pytest.raises(RecordError):
        position.record(carry, bad, NAMES, {})


def test_xiangqi_moves_are_written_in_iccs_and_chinese_notation_as_the_engine_writes_them():
    position = game("xiangqi-2004").position
    assert position is not None and position.record is not None
    opening = [("h2", "e2"), ("h9", "g7"), ("h0", "g2"), ("i9", "h9")]
    steps = [{"s": i % 2, "t": "move", "d": {"from": a, "to": b}} for i, (a, b) in enumerate(opening)]
    steps.append({"s": 0, "t": "resign"})
    rec = position.record(None, steps, NAMES, {"Event": "Cup", "Round": "2.1.3"})
    assert [m.get("chinese") for m in rec["moves"]] == ["炮二平五", "马8进7", "马二进三", "车9平8", None]
    assert [m.get("iccs") for m in rec["moves"]][:4] == ["h2e2", "h9g7", "h0g2", "i9h9"]
    # The last picture: Red's cannon on e2 (row 7 from the top, file e), the last move marked.
    last = rec["frames"][-2]
    assert last["rows"][7][4] == "0炮" and last["marks"] == [[0, 8], [0, 7]]
    assert rec["result"] == {"winner": 1, "why": "resignation", "points": [0.0, 1.0]}
    tags, moves = parse_text(rec["text"])
    assert moves == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert tags == {"Event": "Cup", "Round": "2.1.3", "Red": NAMES[0], "Black": NAMES[1], "Result": "0-1",
                    "Format": "ICCS", "Termination": "resignation"}  # fmt: skip
    assert "1. H2-E2 H9-G7 2. H0-G2 I9-H9 0-1" in rec["text"]


def test_a_long_xiangqi_game_s_text_reads_back_to_its_moves_and_its_chinese_is_the_engine_s():
    board, _, rec = recorded("xiangqi-2004", 60)
    assert [m["chinese"] for m in rec["moves"] if "chinese" in m] == board.record()  # type: ignore[attr-defined]
    assert parse_text(rec["text"])[1] == board.moves  # type: ignore[attr-defined]


def test_gomoku_stones_carry_their_move_numbers():
    _, _, rec = recorded("gomoku-renju", 15)
    stones = [m for m in rec["moves"] if m["kind"] == "move"]
    assert stones[0]["point"] == "H8" and [s["number"] for s in stones] == list(range(1, len(stones) + 1))
    cells = [c for row in rec["frames"][-1]["rows"] for c in row if c]
    assert sorted(int(c[1:]) for c in cells) == list(range(1, len(stones) + 1))
    assert rec["frames"][-1]["rows"][7][7] == "01"  # H8, Black's first
    assert all(c[0] == str((int(c[1:]) - 1) % 2) for c in cells)  # Black's odd, White's even


def test_checkers_moves_carry_their_whole_chain():
    from deckhand.engines.checkers.star import parse_point

    _, steps, rec = recorded("checkers-2004", 40)
    moves = [m for m in rec["moves"] if m["kind"] == "move"]
    assert moves and all(m["path"][0] == s["d"]["from"] and m["path"][-1] == s["d"]["to"]
                         for m, s in zip(moves, [s for s in steps if s["t"] == "move"], strict=True))  # fmt: skip
    assert any(len(m["path"]) > 2 for m in moves)  # a jump chain, landing by landing
    assert all(parse_point(p) >= 0 for m in moves for p in m["path"])


def test_junqi_records_reveal_every_piece_after_the_game():
    from deckhand.engines.junqi.pieces import COUNTS

    _, _, rec = recorded("junqi-2004", 40, {"seed": "ab" * 32})
    setups = [m["setup"] for m in rec["moves"] if m["kind"] == "setup"]
    assert len(setups) == 2 and all(len(s) == sum(COUNTS.values()) for s in setups)
    moves = [m for m in rec["moves"] if m["kind"] == "move"]
    assert moves and all(m["piece"] in COUNTS for m in moves)
    assert all(m["outcome"] in ("attacker", "defender", "both") for m in moves if "met" in m)
    start = rec["frames"][2]  # both setups placed: every piece shown, 25 a side
    cells = [c for row in start["rows"] for c in row if c]
    assert sorted(c[0] for c in cells) == ["0"] * 25 + ["1"] * 25
