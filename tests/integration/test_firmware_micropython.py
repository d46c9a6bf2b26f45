"""The firmware's pure modules under real MicroPython (WebAssembly port, via Node), its heap budget
over a whole board, and its type check against the ESP32 stubs."""

import functools
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from deckhand.engines.common.cards import make_deck
from deckhand.engines.common.shuffle import seeded_shuffle
from deckhand.engines.registry import DEALT_RULESETS as RULESETS
from deckhand.engines.registry import ENTRIES, game
from deckhand.service.infra import outgoing

ROOT = Path(__file__).resolve().parents[2]
MP = ROOT / "tools" / "mp"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None or not (MP / "node_modules").exists(),
    reason="node and tools/mp/node_modules are installed by make",
)


SCREENED = [r for r in RULESETS if game(r).screen is not None]
BOARD_GAMES = [e.ruleset for e in ENTRIES if not e.dealt]
# Plies of a bot game the heap test plays through (each of seat 0's views answered by squares picked):
# Xiangqi's bot is slow; the others to their densest middle game.
BOARD_PLIES = {"xiangqi-2004": 24}


def board_views(seat: int = 0, ruleset: str = RULESETS[0]) -> list[dict]:
    """Every view message one handset receives over whole bot boards (as the server builds them:
    v2 screens; a game whose boards carry plays two, the second with its tribute and return), then
    the largest the protocol allows for: a 27-card two-deck hand and 5 options."""
    spec = game(ruleset)
    assert spec.screen is not None
    deck = make_deck(decks=spec.decks, jokers=spec.jokers)
    board = spec.new_board(seeded_shuffle(deck, "heap-board") * spec.deals_per_board, None)
    bot = spec.bot()
    messages: list[dict] = []
    version = 1
    boards = 2 if spec.carries else 1
    while True:
        status = "ended" if board.finished else "playing"
        messages.append(
            outgoing.view(
                ruleset=spec.ruleset,
                board="1",
                round_no=1,
                version=version,
                seat=seat,
                status=status,
                left_ms=3_600_000,
                screen=spec.screen(board, seat),
            )
        )
        if board.finished:
            boards -= 1
            if not boards:
                return [*messages, largest_view(version + 1)]
            board = spec.new_board(seeded_shuffle(deck, "heap-board-2"), board.result()["carry"])
            continue
        s = board.pending()[0]
        action = bot(board, s)
        assert action is not None
        board.apply(action)
        version += 1


@functools.cache  # Xiangqi's bot takes seconds: its views are made once for the tests that read them
def board_game_views(ruleset: str, seat: int = 0) -> list[dict]:
    """Seat 0's view messages over a bot game of a board game (its grid; the start lines at their
    longest and a 13-digit ``dl``, more than any game takes)."""
    spec = game(ruleset)
    assert spec.screen is not None
    board = spec.new_board([], None)
    bot = spec.bot()
    messages: list[dict] = []
    for version in range(1, BOARD_PLIES.get(ruleset, 150)):
        drawn = spec.screen(board, seat)
        drawn["l"] = [*drawn["l"], "You: " + "W" * 24 + " (seat 0)", "Deal commitment 3f9a 1c2b 77de 0a41"]
        status = "ended" if board.finished else "playing"
        messages.append(
            outgoing.view(
                ruleset=ruleset,
                board="KO-1-12",
                round_no=1,
                version=version,
                seat=seat,
                status=status,
                left_ms=3_600_000_000_000,
                screen=drawn,
            )
        )
        if board.finished:
            break
        board.apply(bot(board, board.pending()[0]))
    return messages


def largest_view(version: int) -> dict:
    tokens = [s + r for r in "3456789TJQKA2" for s in "DCHS"]
    hand = [t for t in tokens[:13] for _ in range(2)][:25] + ["BJ", "RJ"]  # two decks: tokens come twice
    assert len(hand) == 27
    options = [{"l": f"Option {n}", "a": {"k": "play", "v": n, "c": True}} for n in range(5)]
    lines = [
        "Seat 2 to play",
        "Cards: 0:27 1:20 2:11 3:27",
        "Trick: \u2026, seat 1 10\u2660 10\u2660 10\u2665 10\u2665 10\u2663 10\u2663, seat 2 pass",
        "Levels: us 10, them A",
    ]
    return outgoing.view(
        ruleset="any-game",
        board="1",
        round_no=1,
        version=version,
        seat=0,
        status="playing",
        left_ms=3_600_000,
        screen={"h": hand, "l": lines, "ask": {"p": "Beat seat 1's plane or pass", "o": options}},
    )


def run_micropython(tmp_path, *tests, ruleset=RULESETS[0]):
    data = tmp_path / "data"
    data.mkdir()
    with open(data / "board_views.jsonl", "w") as f:
        views = board_game_views(ruleset) if ruleset in BOARD_GAMES else board_views(ruleset=ruleset)
        for m in views:
            f.write(json.dumps(m, separators=(",", ":"), ensure_ascii=False) + "\n")
    proc = subprocess.run(
        [NODE, str(MP / "run.mjs"), str(ROOT / "device" / "lib"), str(data), *map(str, tests)],
        cwd=MP,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    print(proc.stdout)
    return proc


def test_pure_modules_under_micropython(tmp_path):
    proc = run_micropython(tmp_path, ROOT / "device" / "tests" / "mp_test_pure.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "micropython: 27 passed, 0 failed" in proc.stdout


@pytest.mark.parametrize("ruleset", SCREENED + BOARD_GAMES)
def test_handset_heap_budget_under_micropython(tmp_path, ruleset):
    """Every game with a screen: a whole board's views (Guandan: 27-card two-deck hands, two boards with
    the tribute and return between; a board game's grid, each move sent by two squares picked) fit the
    heap budget and 1 KiB (the assertions of mp_test_heap)."""
    proc = run_micropython(tmp_path, ROOT / "device" / "tests" / "mp_test_heap.py", ruleset=ruleset)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "handset heap over a board" in proc.stdout


def test_a_failing_micropython_test_fails_the_run(tmp_path):
    bad = tmp_path / "mp_test_bad.py"
    bad.write_text("def test_fails():\n    assert 1 == 2\n")
    proc = run_micropython(tmp_path, bad)
    assert proc.returncode == 1 and "0 passed, 1 failed" in proc.stdout


def test_firmware_type_checks_against_the_esp32_stubs():
    pyright = MP / "node_modules" / ".bin" / "pyright"
    if not (ROOT / ".stubs" / "esp32").exists():
        pytest.skip(".stubs/esp32 is installed by make")
    proc = subprocess.run(
        [str(pyright), "-p", str(ROOT / "device" / "pyrightconfig.json"), "--pythonpath", "/bin/false"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 errors" in proc.stdout


EBOARD_GAMES = [r for r in BOARD_GAMES if not game(r).position.hidden]  # type: ignore[union-attr]


@pytest.mark.parametrize("ruleset", EBOARD_GAMES)
def test_electronic_board_under_micropython(tmp_path, ruleset):
    """The electronic-board app's tests, then its heap over a bot game's positions, each answered by a
    move sensed (every tenth by a position report): within the handset's budget, every message < 1 KiB."""
    proc = run_micropython(tmp_path, ROOT / "device" / "tests" / "mp_test_eboard.py", ruleset=ruleset)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "eboard heap over a game" in proc.stdout and "micropython: 7 passed, 0 failed" in proc.stdout


def test_small_screen_under_micropython(tmp_path):
    """The 128x64 display's layout painted on a real framebuf (a 27-card hand scrolled under the cursor,
    the options, plain lines wrapped), then the heap over a Xiangqi bot game's views answered through
    the buttons, every frame checked: 8 rows of 16 characters, the marks painted (mp_test_screen)."""
    script = ROOT / "device" / "tests" / "mp_test_screen.py"
    proc = run_micropython(tmp_path, script, ruleset="xiangqi-2004")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "small screen heap over a game" in proc.stdout and "micropython: 4 passed, 0 failed" in proc.stdout
