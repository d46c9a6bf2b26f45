"""The browser's board layouts (docs/protocol.md, "Board layouts"), drawn by each board game from its
own geometry: every square a layout names is a square of the seat's grid, every glyph of the grid is
a piece or an empty square it names, in both languages and for both seats, over a few bot moves; the
lines are the boards' (Gomoku's 30, Xiangqi's river and palaces, Junqi's railways); Junqi's layout
names the enemy's glyphs only as "a piece" or its shown flag; and only a client's message carries it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from deckhand.engines.common.grid import square_names
from deckhand.engines.contract import Board
from deckhand.engines.registry import ENTRIES, game
from deckhand.service.infra import messaging, outgoing

BOARD_GAMES = [e.ruleset for e in ENTRIES if not e.dealt]
EMPTY = ". "


def played(ruleset: str, plies: int) -> Board:
    g = game(ruleset)
    board = g.new_board([], None)
    bot = g.bot()
    for _ in range(plies):
        if board.finished:
            break
        seat = board.pending()[0]
        action = bot(board, seat)
        assert action is not None
        board.apply(action)
    return board


def drawn(ruleset: str, board: Board, seat: int, lang: str) -> tuple[dict[str, Any], dict[str, Any]]:
    g = game(ruleset)
    assert g.screen is not None and g.layout is not None
    grid = g.screen(board, seat, lang)["grid"]  # type: ignore[arg-type]
    return grid, g.layout(board, seat, lang, grid)  # type: ignore[arg-type]


@pytest.mark.parametrize("ruleset", BOARD_GAMES)
@pytest.mark.parametrize("lang", ["zh-CN", "en"])
def test_a_layout_names_only_its_grids_squares_and_every_glyph(ruleset, lang):
    for plies in (0, 4):
        board = played(ruleset, plies)
        for seat in (0, 1):
            grid, layout = drawn(ruleset, board, seat, lang)
            names = set(square_names(grid))
            named = {n for line in layout["lines"] for n in line[:2]}
            named |= {n for _, _, squares in layout["spots"] for n in squares}
            named |= {n for w in layout["words"] for n in w[:2]} | set(layout["path"])
            assert named <= names, named - names
            glyphs = {g for row in grid["r"] for g in row} - set(EMPTY)
            assert glyphs <= set(layout["pieces"]) | set(layout["empty"]), glyphs
            for name, colour, face in layout["pieces"].values():
                assert name and colour in ("red", "black", "white", "blue") and isinstance(face, str)
            if lang == "en":
                assert not any("\u4e00" <= ch <= "\u9fff" for ch in json.dumps(layout, ensure_ascii=False))


def test_the_boards_lines():
    board = played("gomoku-renju", 0)
    _, layout = drawn("gomoku-renju", board, 0, "en")
    assert len(layout["lines"]) == 30  # 15 across, 15 down, each one line
    _, layout = drawn("xiangqi-2004", played("xiangqi-2004", 0), 0, "zh-CN")
    lines = {(a, b) for a, b, _ in layout["lines"]}
    assert ("a9", "a0") in lines and ("i9", "i0") in lines  # the side files cross the river
    assert ("b4", "b0") in lines and ("b9", "b5") in lines  # the others stop at it
    assert {("d0", "f2"), ("f0", "d2"), ("d7", "f9"), ("f7", "d9")} <= lines  # the palaces
    assert [w[2] for w in layout["words"]] == ["楚 河", "汉 界"]
    assert layout["pieces"]["N"] == ["红马", "red", "马"] and layout["pieces"]["k"] == ["黑将", "black", "将"]
    _, layout = drawn("xiangqi-2004", played("xiangqi-2004", 0), 1, "en")
    assert layout["flip"] and layout["pieces"]["N"] == ["red horse", "red", "H"]
    _, layout = drawn("junqi-2004", played("junqi-2004", 0), 0, "en")
    rails = {(a, b) for a, b, style in layout["lines"] if style == "rail"}
    assert {("a2", "e2"), ("a6", "e6"), ("a7", "e7"), ("a11", "e11"), ("a11", "a2"), ("e11", "e2")} <= rails
    assert ("c7", "c6") in rails or ("c6", "c7") in rails
    kinds = {kind: set(squares) for kind, _, squares in layout["spots"]}
    assert kinds["ring"] == {"b3", "d3", "c4", "b5", "d5", "b8", "d8", "c9", "b10", "d10"}
    assert kinds["arch"] == {"b1", "d1", "b12", "d12"}


def test_the_checkers_path_is_the_chain_in_order():
    board = played("checkers-2004", 12)
    path = list(board.seat_view(0).moves[-1])  # type: ignore[attr-defined]
    _, layout = drawn("checkers-2004", board, 0, "en")
    assert layout["path"] == path and len(path) >= 2


@pytest.mark.parametrize("seat", [0, 1])
def test_junqi_names_no_enemy_rank(seat):
    _, layout = drawn("junqi-2004", played("junqi-2004", 8), seat, "en")
    own, enemy = ("red", "blue")[seat], ("red", "blue")[1 - seat]
    theirs = {glyph: p for glyph, p in layout["pieces"].items() if p[1] == enemy}
    assert theirs == {"?": ["enemy piece", enemy, ""], "f": ["enemy flag", enemy, "Flag"]}
    assert all(p[1] == own for glyph, p in layout["pieces"].items() if glyph not in theirs)


def test_only_a_clients_view_carries_the_layout_and_may_pass_1_kib():
    board = played("checkers-2004", 0)
    g = game("checkers-2004")
    screen = g.screen(board, 0, "en")  # type: ignore[misc]
    layout = g.layout(board, 0, "en", screen["grid"])  # type: ignore[misc]
    common = {"ruleset": "checkers-2004", "board": "1", "round_no": 1, "version": 1, "seat": 0}
    handset = outgoing.view(**common, status="playing", left_ms=0, screen=screen)
    client = outgoing.view(**common, status="playing", left_ms=0, screen=screen, layout=layout)
    assert "layout" not in handset and client["layout"] == layout
    assert len(messaging.encode(client)) > messaging.MAX_MESSAGE_BYTES  # a browser has no 1 KiB limit
    with pytest.raises(ValueError, match="exceeds 1024"):
        messaging.encode({**handset, "l": ["x" * 1024]})  # a handset's still has
