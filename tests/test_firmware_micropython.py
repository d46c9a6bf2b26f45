"""The firmware's pure modules under real MicroPython (WebAssembly port, via Node), its heap budget
over a whole board, and its type check against the ESP32 stubs."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from deckhand.engines.bigtwo.board import BigTwoBoard
from deckhand.engines.bigtwo.bot import BigTwoBot
from deckhand.engines.common.cards import make_deck
from deckhand.engines.common.shuffle import seeded_shuffle

ROOT = Path(__file__).resolve().parents[1]
MP = ROOT / "tools" / "mp"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None or not (MP / "node_modules").exists(),
    reason="node and tools/mp/node_modules are installed by make",
)


def board_views(seat: int = 0) -> list[dict]:
    """Every view message one handset receives over a whole bot board (the shape the server sends)."""
    board = BigTwoBoard.from_order(seeded_shuffle(make_deck(), "heap-board"))
    bot = BigTwoBot("bold")
    messages = []
    version = 1
    while True:
        messages.append(
            {
                "t": "view",
                "b": "1",
                "r": 1,
                "v": version,
                "s": seat,
                "st": "ended" if board.finished else "playing",
                "dl": 1_800_000_010_000,
                "view": board.view(seat),
            }
        )
        if board.finished:
            return messages
        s = board.pending()[0]
        board.apply(bot.decide(board.seat_view(s)))
        version += 1


def run_micropython(tmp_path, *tests):
    data = tmp_path / "data"
    data.mkdir()
    with open(data / "board_views.jsonl", "w") as f:
        for m in board_views():
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
    assert "micropython: 13 passed, 0 failed" in proc.stdout


def test_handset_heap_budget_under_micropython(tmp_path):
    proc = run_micropython(tmp_path, ROOT / "device" / "tests" / "mp_test_heap.py")
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
