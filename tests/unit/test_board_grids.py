"""The handset's board grid (docs/protocol.md, "Boards") for the four board games, over whole bot
games: every view of every seat fits 1 KiB in both languages; the firmware names every square as the
engine does; the squares offered first are exactly the pieces with a legal move; the last move is
marked; a move picked square by square through the firmware's chooser is the engine's move; and
Junqi's grid never names an enemy piece's rank."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from deckhand.engines.common.grid import square_names
from deckhand.engines.contract import Action, Board
from deckhand.engines.registry import ENTRIES, game
from deckhand.service.infra import outgoing
from deckhand_local.venue.terminal import CommandError, TerminalHandset

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "device" / "lib") not in sys.path:
    sys.path.insert(0, str(ROOT / "device" / "lib"))

from deckhand_fw import board as fw_board  # noqa: E402
from deckhand_fw.hal.host import HostHal  # noqa: E402
from deckhand_fw.handset import Handset  # noqa: E402

BOARD_GAMES = [e.ruleset for e in ENTRIES if not e.dealt]
# Plies played: the densest middle games (Xiangqi's bot is slow: its opening, the fullest board); Junqi's
# whole games below.
MAX_PLIES = {"xiangqi-2004": 20, "gomoku-renju": 200, "checkers-2004": 300}
LARGEST: dict[str, int] = {}


def view(ruleset: str, board: Board, seat: int, lang: str) -> dict[str, Any]:
    drawn = game(ruleset).screen(board, seat, lang)  # type: ignore[misc]
    # The start-of-board lines at their longest (a 24-character name, the commitment) ride along.
    drawn["l"] = [*drawn["l"], "You: " + "W" * 24 + " (seat 1)", "Deal commitment 3f9a 1c2b 77de 0a41"]
    return outgoing.view(
        ruleset=ruleset,
        board="KO-1-12",
        round_no=3,
        version=9999,
        seat=seat,
        status="ended" if board.finished else "playing",
        left_ms=3_600_000_000_000,
        screen=drawn,
    )


def size(message: dict[str, Any]) -> int:
    return len(json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode())


class Sent:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.messages.append(message)


class Ids:
    n = 0

    def next(self) -> str:
        self.n += 1
        return f"hs-{self.n}"


def picked_through_the_firmware(message: dict[str, Any], data: dict[str, str]) -> dict[str, Any]:
    """What the handset sends after picking the move's squares (touch) and pressing ok."""
    handset = Handset(HostHal(), Ids())
    sent = Sent()
    handset.attach(sent)
    handset.on_message(json.loads(json.dumps(message)))
    cells = square_names(message["grid"])
    option = message["ask"]["o"][0]["a"]
    for key in option["q"]:
        handset.on_input(f"sq:{cells[data[key]]}")
    handset.on_input("ok")
    assert len(sent.messages) == 1, handset.hal.display.lines
    return sent.messages[0]["a"]


def check_position(ruleset: str, board: Board, action: Any) -> None:
    spec = game(ruleset)
    for seat in range(2):
        for lang in ("en", "zh-CN"):
            message = view(ruleset, board, seat, lang)
            LARGEST[ruleset] = max(LARGEST.get(ruleset, 0), size(message))
            assert size(message) <= outgoing.MAX_BYTES, (ruleset, size(message))
        grid = message["grid"]
        # The firmware names the squares as the engine does, every one of them.
        names = {fw_board.name(grid, c): c for c in fw_board.squares(grid)}
        assert names == square_names(grid)
        assert set(names) == set(spec.plays_with.squares)  # type: ignore[union-attr]
        assert all(len(row) <= grid["w"] for row in grid["r"])
        if seat in board.pending() and not board.finished and "s" in grid:
            froms = {a.data["from"] for a in board.legal_actions(seat) if a.kind == "move"}
            assert set(grid["s"]) == {names[f] for f in froms}
        if action is not None and action.seat == seat and action.kind == "move":
            assert picked_through_the_firmware(message, action.data) == {"k": "move", "d": action.data}


def play(ruleset: str, plies: int | None) -> Board:
    spec = game(ruleset)
    board = spec.new_board([], None)
    bot = spec.bot()
    n = 0
    while True:
        action = None if board.finished else bot(board, board.pending()[0])
        check_position(ruleset, board, action)
        if action is None or (plies is not None and n >= plies):
            return board
        if action.kind == "move" and action.data:
            before = board
            board.apply(action)
            grid = view(ruleset, board, action.seat, "en")["grid"]
            cells = square_names(grid)
            marked = set(grid["m"])
            assert {cells[v] for v in action.data.values()} <= marked, (before, grid)
        else:
            board.apply(action)
        n += 1


@pytest.mark.parametrize("ruleset", BOARD_GAMES)
def test_every_board_view_fits_and_the_firmware_sends_the_engines_moves(ruleset: str) -> None:
    play(ruleset, MAX_PLIES.get(ruleset))
    print(ruleset, "largest view", LARGEST[ruleset], "B")


@pytest.mark.parametrize("seed", ["grid-a", "grid-b", "grid-c"])
def test_junqi_grids_never_name_an_enemy_rank_over_whole_games(seed: str) -> None:
    """Every cell of a seat's grid on an enemy piece is ``?`` (its flag ``f`` once shown, D8), whatever
    the enemy holds there; the seat's own pieces are there by rank."""
    spec = game("junqi-2004")
    board = spec.new_board([], {"seed": seed})
    bot = spec.bot()
    own_glyphs = set("123456789BMF")
    while True:
        for seat in range(2):
            for lang in ("en", "zh-CN"):
                grid = view("junqi-2004", board, seat, lang)["grid"]
                cells = square_names(grid)
                shown = board.seat_view(seat).flag_shown[1 - seat]
                for sq, cell in enumerate(board.cells):  # type: ignore[attr-defined]
                    name = spec.plays_with.squares[sq]  # type: ignore[union-attr]
                    glyph = grid["r"][cells[name] // grid["w"]][cells[name] % grid["w"]]
                    if cell is not None and cell[0] != seat and board.phase == "setup":  # type: ignore[attr-defined]
                        assert glyph in ".oH", (name, glyph)  # the other's setup is not shown at all
                    elif cell is not None and cell[0] != seat:
                        assert glyph == ("f" if name == shown else "?"), (name, glyph)
                    elif cell is not None:
                        assert glyph in own_glyphs
        if board.finished:
            break
        board.apply(bot(board, board.pending()[0]))


def test_the_protocol_docs_example_is_what_the_server_sends_and_the_handset_answers() -> None:
    """docs/protocol.md, "Boards": the Xiangqi view after h2e2 h9g7 and the handset's move i0-i1."""
    text = (ROOT / "docs" / "protocol.md").read_text()
    section = text[text.index("### Boards") : text.index("### Language")]
    shown, answer = (json.loads(block) for block in re.findall(r"```json\n(.*?)```", section, re.S))
    spec = game("xiangqi-2004")
    board = spec.new_board([], None)
    board.apply(Action(0, "move", data={"from": "h2", "to": "e2"}))
    board.apply(Action(1, "move", data={"from": "h9", "to": "g7"}))
    message = outgoing.view(
        ruleset="xiangqi-2004",
        board="KO-1-3",
        round_no=1,
        version=3,
        seat=0,
        status="playing",
        left_ms=41000,
        screen=spec.screen(board, 0),  # type: ignore[misc]
    )
    assert message == shown and f"{size(message)} bytes" in section
    assert picked_through_the_firmware(message, {"from": "i0", "to": "i1"}) == answer["a"]


def test_a_person_moves_from_the_terminal_by_naming_the_squares() -> None:
    """``deckhand handset``'s ``move h2 e2``: the squares picked on the firmware as the board names them
    and the move option sent; a square the grid does not offer first is refused before anything goes."""
    spec = game("xiangqi-2004")
    board = spec.new_board([], None)
    term = TerminalHandset.__new__(TerminalHandset)
    term.out, term._frames, term.hal = io.StringIO(), -1, HostHal()
    term.app = Handset(term.hal, Ids())
    sent = Sent()
    term.app.attach(sent)
    term.app.on_message(outgoing.view(
        ruleset="xiangqi-2004", board="1", round_no=1, version=1, seat=0, status="playing", left_ms=0,
        screen=spec.screen(board, 0),  # type: ignore[misc]
    ))  # fmt: skip
    with pytest.raises(CommandError):
        term._move(["e5", "e6"])  # no piece there
    with pytest.raises(CommandError):
        term._move(["h2"])  # a move takes two squares
    assert sent.messages == []
    term.command("move H2 e2")
    assert sent.messages[-1]["a"] == {"k": "move", "d": {"from": "h2", "to": "e2"}}
    board.apply(Action(0, "move", data=sent.messages[-1]["a"]["d"]))  # the engine takes it as sent
