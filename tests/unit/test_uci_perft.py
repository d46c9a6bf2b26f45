"""The Xiangqi bench's UCI perft client (Fairy-Stockfish as the physical reference): the parsing of the
engine's lines, the FEN it is sent, and the pipe, against a stand-in engine (no binary needed)."""

from __future__ import annotations

import importlib.util
import stat
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "uci_perft.py"
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("uci_perft", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


uci = load()


def test_the_closing_line_of_a_perft_run_gives_the_count():
    assert uci.perft_nodes("Nodes searched: 3290240\n") == 3_290_240
    assert uci.perft_nodes("  Nodes searched:   44") == 44


def test_other_lines_give_no_count():
    for line in ("h2e2: 1920", "", "info string variant xiangqi", "readyok", "nodes searched 5"):
        assert uci.perft_nodes(line) is None


def test_a_closing_line_without_a_count_is_an_error():
    with pytest.raises(uci.UciError):
        uci.perft_nodes("Nodes searched: many")


def test_the_variants_are_the_values_of_the_uci_variant_option():
    lines = [
        "id name Fairy-Stockfish\n",
        "option name Threads type spin default 1 min 1 max 512\n",
        "option name UCI_Variant type combo default chess var chess var janggi var xiangqi\n",
        "uciok\n",
    ]
    assert uci.uci_variants(lines) == {"chess", "janggi", "xiangqi"}
    assert uci.uci_variants(["uciok"]) == set()


def test_our_fen_is_sent_with_six_fields_and_red_as_w():
    board = START.split()[0]
    assert uci.uci_fen(START) == START
    assert uci.uci_fen(f"{board} w") == START
    assert uci.uci_fen(f"{board} r") == START
    assert uci.uci_fen(f"{board} b - - 3 9") == f"{board} b - - 3 9"
    assert uci.uci_fen(f"{board} b - - 3") == f"{board} b - - 3 1"


ENGINE = """\
import sys
variants = {variants!r}
position = None
for line in sys.stdin:
    words = line.split()
    if words == ["uci"]:
        print("id name stand-in")
        print("option name UCI_Variant type combo default chess" + "".join(" var " + v for v in variants))
        print("uciok")
    elif words == ["isready"]:
        print("readyok")
    elif words[:2] == ["position", "fen"]:
        position = " ".join(words[2:])
    elif words[:2] == ["go", "perft"]:
        print("h2e2: 1")
        print()
        print("Nodes searched: " + str(len(position) * int(words[2])))
        print()
    elif words == ["quit"]:
        break
    sys.stdout.flush()
"""


def stand_in(tmp_path: Path, variants: list[str]) -> str:
    """An executable that answers as a UCI engine: perft counts the FEN's length times the depth."""
    path = tmp_path / "engine"
    path.write_text(f"#!{sys.executable}\n" + ENGINE.format(variants=variants))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_a_perft_run_over_the_pipe_returns_the_count_and_a_time(tmp_path: Path):
    engine = uci.UciPerft(stand_in(tmp_path, ["chess", "xiangqi"]))
    try:
        nodes, seconds = engine.timed(START.split()[0] + " w", 3, runs=2)
    finally:
        engine.close()
    assert nodes == len(START) * 3
    assert seconds > 0
    assert engine.process.returncode == 0


def test_an_engine_without_xiangqi_is_refused_clearly(tmp_path: Path):
    with pytest.raises(uci.UciError, match="large-board"):
        uci.UciPerft(stand_in(tmp_path, ["chess", "janggi"]))


@pytest.mark.parametrize("body", ["sys.exit(3)", "sys.stdin.readline(); sys.exit(3)"])
def test_an_engine_that_ends_is_an_error_not_a_hang(tmp_path: Path, body: str):
    """Ended before our first line (a broken pipe, or no answer) or after reading it (no answer)."""
    path = tmp_path / "engine"
    path.write_text(f"#!{sys.executable}\nimport sys\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    with pytest.raises(uci.UciError, match="exit status 3"):
        uci.UciPerft(str(path))
