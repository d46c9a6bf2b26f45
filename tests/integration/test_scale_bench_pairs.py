"""``bench/scale_bench.py --pairs N`` (issue 41): a Swiss of matches through the handlers prints, per
round, the pairing and first deals, the match results and the standings, with the per-item write
counts, and ends with the closing line a checker reads. A tiny field on moto: seconds."""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

from deckhand.engines.registry import game
from deckhand.engines.spec import Competition

ROOT = Path(__file__).resolve().parents[2]
CLOSING = re.compile(
    r"^scale round (\d+): seat\+deal \d+\.\d s, score \d+\.\d s, standings \d+\.\d s, "
    r"total \d+\.\d s, max item writes (\d+)$"
)


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("scale_bench_of_pairs", ROOT / "bench" / "scale_bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_swiss_of_pairs_prints_each_round_and_its_closing_line(capsys):
    bench = _bench()
    args = argparse.Namespace(pairs=6, rounds=2, boards=1, ruleset=None, players=0)
    bench.run_pairs(args, "moto")
    out = capsys.readouterr().out.splitlines()
    closing = [m for m in map(CLOSING.match, out) if m]
    assert [int(m[1]) for m in closing] == [1, 2]
    assert all(int(m[2]) >= 1 for m in closing)  # the round's most written item, counted
    assert out[-2:] == [m[0] for m in closing]  # the closing lines end the output
    rounds = [line for line in out if line.startswith("  round ")]
    assert len(rounds) == 2 and all("3 matches" in line for line in rounds)
    assert sum("most written" in line for line in out) == 2
    played = re.search(r"pairs \((.+?)\)", out[0])
    assert played is not None and game(played[1]).competition is Competition.MATCH
