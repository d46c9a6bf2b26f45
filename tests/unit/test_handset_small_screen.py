"""The handset on the ESP32's 128x64 display (device/lib/deckhand_fw/layout.py): every screen is 8 rows
of at most 16 ASCII characters; a board game's window follows the cursor over every square with the
window's labels, the last move dotted and the turn with its seconds on the first row; a long hand
scrolls with the hand's cursor, the options with next, the status lines page by themselves; and the
ESP32 display draws those rows (inverse video for the cursor) instead of cutting the full screen."""

from __future__ import annotations

import copy
import functools
import importlib
import io
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from deckhand.engines.registry import ENTRIES, game
from deckhand.service.infra import outgoing

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "device" / "lib") not in sys.path:
    sys.path.insert(0, str(ROOT / "device" / "lib"))

from deckhand_fw import board as fw_board  # noqa: E402
from deckhand_fw import layout  # noqa: E402
from deckhand_fw.hal.host import HostHal  # noqa: E402
from deckhand_fw.handset import Handset  # noqa: E402
from test_board_grids import Ids, Sent  # noqa: E402

BOARD_GAMES = [e.ruleset for e in ENTRIES if not e.dealt]
PLIES = 6  # a few moves in: a last move to mark, pieces moved off their start


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


def small_handset() -> tuple[Handset, Clock]:
    hal = HostHal(small=True)
    clock = Clock()
    hal.ticks_ms = clock  # type: ignore[method-assign]
    handset = Handset(hal, Ids())
    handset.attach(Sent())
    return handset, clock


def board_view(ruleset: str) -> dict[str, Any]:
    """The view of the seat to move a few plies into a bot game, 41 s to decide (a copy: made once)."""
    return copy.deepcopy(made_view(ruleset))


@functools.cache  # Xiangqi's bot takes a second for these plies
def made_view(ruleset: str) -> dict[str, Any]:
    spec = game(ruleset)
    position = spec.new_board([], None)
    bot = spec.bot()
    for _ in range(PLIES):
        position.apply(bot(position, position.pending()[0]))
    seat = position.pending()[0]
    return outgoing.view(
        ruleset=ruleset,
        board="KO-1-12",
        round_no=1,
        version=PLIES + 1,
        seat=seat,
        status="playing",
        left_ms=41_000,
        screen=game(ruleset).screen(position, seat),  # type: ignore[misc]
    )


def fits(handset: Handset) -> tuple[list[str], list[tuple[int, int, int, str]]]:
    """The frame shown: exactly 8 rows of at most 16 ASCII characters, every mark inside them."""
    rows, marks = handset.hal.display.lines, handset.hal.display.marks
    assert len(rows) == layout.ROWS, rows
    for row in rows:
        assert len(row) <= layout.COLS and row.isascii(), rows
    for r, col, n, _ in marks:
        assert 0 <= r < layout.ROWS and col >= 0 and n >= 1 and col + n <= max(len(rows[r]), 1), (rows, marks)
    return rows, marks


def inverse(marks: list[Any]) -> set[tuple[int, int]]:
    return {(r, c + k) for r, c, n, kind in marks if kind == layout.INVERSE for k in range(n)}


def shown_cells(
    grid: dict[str, Any], rows: list[str], marks: list[Any], cursor: int | None = None
) -> dict[int, tuple[int, int]]:
    """Each cell of the grid on screen and where (row, column), read back from the rows: the rank label
    at the left, then the window's squares — checked to be the grid's glyphs and, with column labels,
    under their labels."""
    top, height = grid["y"], len(grid["r"])
    pad = max(len(str(top)), len(str(top - height + 1)))
    board_rows = [r for r in range(2, layout.ROWS) if rows[r][:pad].strip().lstrip("-").isdigit()]
    assert board_rows, rows
    width = max(len(r) for r in grid["r"])
    shown = min(width, layout.COLS - pad)
    if "x" in grid:
        labels = rows[1][pad : pad + shown]
        c0 = grid["x"].index(labels[0])
        assert labels == grid["x"][c0 : c0 + shown]
    else:  # the window's first column: the one whose rows read as the grid's (and the cursor's)
        fits_all = [
            k
            for k in range(width)
            if all(rows[r][pad:] == grid["r"][top - int(rows[r][:pad])][k : k + shown] for r in board_rows)
        ]
        if cursor is not None:
            i, j = cursor // grid["w"], cursor % grid["w"]
            fits_all = [
                k for k in fits_all if any(int(rows[r][:pad]) == top - i and (r, pad + j - k) in inverse(marks)
                                           for r in board_rows)
            ]  # fmt: skip
        assert fits_all, rows
        c0 = fits_all[0]
    out = {}
    for r in board_rows:
        i = top - int(rows[r][:pad])
        assert rows[r][pad:] == grid["r"][i][c0 : c0 + shown], (rows, i)
        for j in range(c0, min(len(grid["r"][i]), c0 + shown)):
            if grid["r"][i][j] != " ":
                out[i * grid["w"] + j] = (r, pad + j - c0)
    return out


def check_board(handset: Handset, grid: dict[str, Any]) -> None:
    rows, marks = fits(handset)
    cursor = handset.cursor
    cells = shown_cells(grid, rows, marks, cursor)
    if cursor is not None:
        assert cursor in cells and cells[cursor] in inverse(marks), (rows, cursor)
        # Its neighbours stay in view: the rows above and below, the squares left and right.
        w = grid["w"]
        i, j = cursor // w, cursor % w
        for di, dj in ((-1, 0), (1, 0), (0, -2), (0, 2), (0, -1), (0, 1)):
            near = (i + di) * w + j + dj
            if 0 <= j + dj < w and fw_board.is_square(grid, near):
                assert near in cells, (rows, fw_board.name(grid, cursor), fw_board.name(grid, near))
    # Every square of the last move on screen is dotted (or the cursor, or boxed as picked).
    for cell in grid.get("m", ()):
        if cell in cells and cell != cursor and cell not in handset.picked:
            r, c = cells[cell]
            assert (r, c, 1, layout.DOTS) in marks, (rows, cell)
    for cell in handset.picked:
        if cell in cells:
            r, c = cells[cell]
            assert (r, c, 1, layout.BOX) in marks


@pytest.mark.parametrize("ruleset", BOARD_GAMES)
def test_the_board_window_follows_the_cursor_over_every_square(ruleset: str) -> None:
    """The view comes: the last move in the window, dotted, and ``TURN 41s`` in inverse video; then the
    cursor over every square that may be picked first and, one picked, over every square of the board:
    always in the window with its neighbours, in inverse video, under the window's labels."""
    handset, clock = small_handset()
    message = board_view(ruleset)
    grid = message["grid"]
    handset.on_message(message)
    rows, marks = fits(handset)
    assert rows[0].startswith("TURN 41s") and (0, 0, 8, layout.INVERSE) in marks
    cells = shown_cells(grid, rows, marks)
    assert set(grid["m"]) & set(cells), rows
    check_board(handset, grid)
    clock.now += 5_000
    handset.tick()
    assert handset.hal.display.lines[0].startswith("TURN 36s")
    visited = set()
    for _ in range(len(fw_board.first_choices(grid, []))):
        handset.on_input("right")
        visited.add(handset.cursor)
        check_board(handset, grid)
    assert visited == set(fw_board.first_choices(grid, []))
    handset.on_input("select")
    assert handset.picked
    check_board(handset, grid)
    visited = set()
    for _ in range(len(fw_board.squares(grid))):
        handset.on_input("right")
        visited.add(handset.cursor)
        check_board(handset, grid)
        assert handset.hal.display.lines[0].startswith("TURN 36s")
    assert visited == set(fw_board.squares(grid))


def long_hand_view() -> dict[str, Any]:
    """The largest view the protocol allows for: a 27-card two-deck hand, 4 status lines, 5 options."""
    tokens = [s + r for r in "3456789TJQKA2" for s in "DCHS"]
    hand = [t for t in tokens[:13] for _ in range(2)][:25] + ["BJ", "RJ"]
    options = [{"l": f"Option {n}", "a": {"k": "play", "v": n, "c": True}} for n in range(5)]
    lines = [
        "Seat 2 to play",
        "Cards: 0:27 1:20 2:11 3:27",
        "Trick: \u2026, seat 1 10\u2660 10\u2660 10\u2665 10\u2665 10\u2663 10\u2663, seat 2 pass",
        "Levels: us 10, them A",
    ]
    return outgoing.view(
        ruleset="any-game",
        board="7",
        round_no=1,
        version=3,
        seat=0,
        status="playing",
        left_ms=30_000,
        screen={"h": hand, "l": lines, "ask": {"p": "Beat seat 1's plane or pass", "o": options}},
    )


def test_a_long_hand_scrolls_with_the_cursor_and_the_options_with_next() -> None:
    handset, clock = small_handset()
    message = long_hand_view()
    hand = message["h"]
    handset.on_message(message)
    rows, marks = fits(handset)
    assert rows[0] == "TURN 30s   b7 s0" and (0, 0, 8, layout.INVERSE) in marks
    assert "Beat seat 1's" in rows and "plane or pass" in rows  # the whole prompt, wrapped
    for i in range(len(hand)):
        if i:
            handset.on_input("right")
        if i % 4 == 0:
            handset.on_input("select")
        rows, marks = fits(handset)
        at = [(r, c, n) for r, c, n, kind in marks if kind == layout.INVERSE and 0 < r < layout.ROWS - 1]
        assert len(at) == 1, (rows, marks)
        r, c, n = at[0]
        assert rows[r][c : c + n] == layout.card(hand[i]), (i, rows)
        assert rows[r][c - 1] == ("*" if i % 4 == 0 else " ")
    assert any(row.endswith("^") for row in rows)  # the hand scrolled: more rows above
    for choice in range(6):
        rows, marks = fits(handset)
        r, c, n, _ = next(m for m in marks if m[0] == layout.ROWS - 1)
        assert rows[r][c : c + n] == f"Option {choice % 5}", rows
        assert (rows[r].startswith("<") or choice % 5 == 0) and (rows[r].endswith(">") or choice % 5 == 4)
        handset.on_input("next")
    # The status lines that do not fit are shown in turn, a page every few seconds.
    seen: list[str] = []
    for _ in range(12):
        seen.extend(fits(handset)[0])
        clock.now += layout.PAGE_MS
        handset.tick()
    for line in message["l"]:
        for part in layout.wrap(line, layout.COLS):
            assert part in seen, (part, seen)
    assert "10S 10S 10H" in " ".join(seen)  # suits in letters: the font has ASCII only


def test_a_refusal_and_a_stop_are_shown_in_inverse_video_above_the_options() -> None:
    handset, clock = small_handset()
    message = long_hand_view()
    handset.on_message(message)
    handset.on_input("sel:0")
    handset.awaiting = "hs-9"
    handset.on_message({"t": "reject", "msg": "hs-9", "code": "illegal_play", "why": "not a plane"})
    rows, marks = fits(handset)
    assert rows[-3:-1] == ["Refused:", "illegal_play:"], rows
    assert {(5, 0, 8, layout.INVERSE), (6, 0, 13, layout.INVERSE)} <= set(marks)
    clock.now += layout.PAGE_MS
    handset.tick()
    assert "not a plane" in fits(handset)[0][-3:-1]  # the rest of it, in turn
    handset.on_message({"t": "stopped", "b": "7", "why": "board stopped, referee called"})
    seen = []
    for _ in range(4):
        rows, marks = fits(handset)
        seen.extend(rows[-3:-1])
        assert (5, 0, len(rows[5]), layout.INVERSE) in marks or not rows[5]
        clock.now += layout.PAGE_MS
        handset.tick()
    assert {"STOPPED: board", "stopped, referee", "Refused:"} <= set(seen), seen


def test_plain_lines_are_wrapped_not_cut() -> None:
    hal = HostHal(small=True)
    hal.display.show(["CONFIG ERROR", "config.json: 'password' must be a string when 'username' is set"])
    words = " ".join(hal.display.lines).split()
    assert "'username'" in words and "set" in words and len(hal.display.lines) == 8


class FakeOled:
    """The SSD1306 driver's framebuf calls, read back as characters and inverse cells."""

    def __init__(self, width: int, height: int, i2c: object) -> None:
        assert (width, height) == (128, 64)
        self.chars: dict[tuple[int, int], str] = {}
        self.filled: set[tuple[int, int]] = set()
        self.inverse_text: dict[tuple[int, int], str] = {}
        self.shown = 0

    def fill(self, c: int) -> None:
        self.chars.clear()
        self.filled.clear()
        self.inverse_text.clear()

    def text(self, s: str, x: int, y: int, c: int = 1) -> None:
        assert x % 8 == 0 and y % 8 == 0 and 0 <= y < 64
        for k, ch in enumerate(s):
            assert x + 8 * k < 128, (s, x)
            (self.chars if c else self.inverse_text)[(y // 8, x // 8 + k)] = ch

    def fill_rect(self, x: int, y: int, w: int, h: int, c: int) -> None:
        assert x + w <= 128 and y + h <= 64 and h == 8
        for k in range(w // 8):
            self.filled.add((y // 8, x // 8 + k))

    def rect(self, x: int, y: int, w: int, h: int, c: int) -> None:
        assert x + w <= 128 and y + h <= 64

    def pixel(self, x: int, y: int, c: int) -> None:
        assert 0 <= x < 128 and 0 <= y < 64

    def show(self) -> None:
        self.shown += 1


@pytest.fixture
def esp32(monkeypatch: pytest.MonkeyPatch) -> Any:
    """hal/esp32.py on CPython, with machine, network and the ssd1306 driver faked."""
    monkeypatch.setitem(sys.modules, "machine", types.ModuleType("machine"))
    monkeypatch.setitem(sys.modules, "network", types.ModuleType("network"))
    driver = types.ModuleType("ssd1306")
    driver.SSD1306_I2C = FakeOled  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ssd1306", driver)
    monkeypatch.delitem(sys.modules, "deckhand_fw.hal.esp32", raising=False)
    return importlib.import_module("deckhand_fw.hal.esp32")


def test_the_esp32_display_draws_the_layout_with_the_cursor_in_inverse_video(esp32: Any) -> None:
    display = esp32.Display(object())
    hal = HostHal()
    hal.display = display
    handset = Handset(hal, Ids())
    handset.attach(Sent())
    message = board_view("xiangqi-2004")
    handset.on_message(message)
    for _ in range(3):
        handset.on_input("right")
    oled = display.oled
    assert oled.shown >= 4
    grid = message["grid"]
    cursor = handset.cursor
    glyph = grid["r"][cursor // grid["w"]][cursor % grid["w"]]
    cells = [cell for cell in oled.filled if 0 < cell[0] < 7]  # the board's rows
    assert len(cells) == 1 and oled.inverse_text[cells[0]] == glyph
    assert "".join(oled.inverse_text.get((7, k), "") for k in range(16)) == "Move"  # the option highlighted
    assert "".join(oled.chars.get((0, k), "") for k in range(8)) == "TURN 41s"
    # Plain lines (a start-up message) are wrapped into the rows, not cut at 16 characters.
    display.show(["Deckhand handset", "hs-T12-3", "no Wi-Fi: check the ssid in config.json"])
    text = ["".join(oled.chars.get((r, k), " ") for k in range(16)).rstrip() for r in range(8)]
    assert "config.json" in " ".join(text).split()


def test_the_terminal_shows_the_small_screen_and_takes_the_buttons() -> None:
    """``deckhand handset --small-screen``: the 8 rows of 16 in a frame, the marks under their rows, and
    ``press`` for the device's buttons."""
    from deckhand_local.venue.terminal import TerminalHandset

    term = TerminalHandset.__new__(TerminalHandset)
    term.thing, term.out, term._frames = "hs-1", io.StringIO(), -1
    term.hal = HostHal(small=True)
    term.app = Handset(term.hal, Ids())
    term.app.attach(Sent())
    term.app.on_message(board_view("xiangqi-2004"))
    term.command("press right right select right")
    assert term.app.picked and term.app.cursor is not None
    term.out = io.StringIO()
    term.show()
    shown = term.out.getvalue().splitlines()
    framed = [line[3:19] for line in shown if line.startswith("  |")]
    assert len(framed) == 8 and framed[0].startswith("TURN 41s")
    assert shown.count("  +" + "-" * 16 + "+") == 2
    under = [line for line in shown if line.startswith("   ")]
    assert under[0].strip() == "#" * 8  # the turn in inverse video
    assert any("*" in line for line in under)  # the square picked, boxed
    term.command("press jump")
    assert "press which button?" in term.out.getvalue()


def test_the_devices_docs_example_is_what_the_terminal_prints() -> None:
    """docs/devices.md, "On the ESP32's 128×64 display": the Xiangqi view of docs/protocol.md as it
    comes, then after left, select and left to i1, side by side as ``--small-screen`` prints them."""
    from deckhand.engines.contract import Action
    from deckhand_local.venue.terminal import TerminalHandset

    text = (ROOT / "docs" / "devices.md").read_text()
    section = text[text.index("### On the ESP32's 128×64 display") :]
    block = section[section.index("```\n") + 4 : section.index("```", section.index("```\n") + 4)]
    left = [line[:32].rstrip() for line in block.splitlines() if line[:32].strip()]
    right = [line[32:].rstrip() for line in block.splitlines() if line[32:].strip()]
    spec = game("xiangqi-2004")
    position = spec.new_board([], None)
    position.apply(Action(0, "move", data={"from": "h2", "to": "e2"}))
    position.apply(Action(1, "move", data={"from": "h9", "to": "g7"}))
    message = outgoing.view(
        ruleset="xiangqi-2004", board="KO-1-3", round_no=1, version=3, seat=0, status="playing",
        left_ms=41000, screen=spec.screen(position, 0),  # type: ignore[misc]
    )  # fmt: skip
    term = TerminalHandset.__new__(TerminalHandset)
    term.thing, term.out, term._frames = "hs-1", io.StringIO(), -1
    term.hal = HostHal(small=True)
    term.hal.ticks_ms = lambda: 0  # type: ignore[method-assign]
    term.app = Handset(term.hal, Ids())
    term.app.attach(Sent())
    term.app.on_message(message)

    def printed() -> list[str]:
        term.out = io.StringIO()
        term.show()
        return [line for line in term.out.getvalue().splitlines() if line.strip()]

    assert printed() == left
    term.command("press left select " + " ".join(["left"] * 9))
    assert printed() == right
