"""Games are plugins: outside ``engines/`` no code names a game; everything asks the registry.

A new game then needs no edit of the service, API, CLI, competition core, venue or firmware (the
handset draws the screen the server sends). The registry's list of entries (inside ``engines/``) is
the one place that lists them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from deckhand.engines.registry import ENTRIES, RULESETS, game

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "layers" / "shared" / "deckhand"
# Where the platform lives: every Python file here must be free of game names (the firmware too).
FIRMWARE = ROOT / "device" / "lib"
# The local tools (the CLI and the venue) live outside the layer, and are platform too.
LOCAL = ROOT / "local" / "deckhand_local"
PLATFORM = [PACKAGE, LOCAL, ROOT / "functions", FIRMWARE]
# The one exception: the ``match-standings`` JSON contract (docs/cli.md) names its ranking chains
# after the rule documents; those lines say so, in this one module.
CONTRACT_NAMES = (PACKAGE / "competition" / "matchplay" / "ranking.py", "(JSON contract name)")


def _names() -> re.Pattern[str]:
    words = {"landlord", "guandan", "shengji", "tractor", "锄大地", "斗地主", "掼蛋", "升级"}
    # What the v1 firmware knew of the games: their actions and card orders by name.
    words |= {"_next_bid", "landlord_screen", "sort_hand", "3456789TJQKA2"}
    for entry in ENTRIES:
        spec = game(entry.ruleset)
        words |= {entry.ruleset, entry.alias, spec.name, spec.name.replace(" ", "")}
    return re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)), re.IGNORECASE)


def _platform_files() -> list[Path]:
    files = []
    for top in PLATFORM:
        for path in sorted(top.rglob("*.py")):
            relative = path.relative_to(PACKAGE) if path.is_relative_to(PACKAGE) else None
            if relative is not None and relative.parts[0] == "engines":
                continue
            files.append(path)
    return files


def test_no_game_name_outside_the_engines() -> None:
    names = _names()
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in _platform_files()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if names.search(line) and not (path == CONTRACT_NAMES[0] and line.endswith(CONTRACT_NAMES[1]))
    ]
    assert not found, "game names outside engines/:\n" + "\n".join(found)


def test_the_check_would_catch_a_name() -> None:
    assert _names().search('if ruleset == "bigtwo-2017":')
    assert _names().search("# Dou Dizhu only")
    assert len(_platform_files()) > 30
    firmware = [p for p in _platform_files() if p.is_relative_to(FIRMWARE)]
    assert {p.name for p in firmware} >= {"handset.py", "views.py", "cards.py", "protocol.py", "esp32.py"}
    local = {p.relative_to(LOCAL).as_posix() for p in _platform_files() if p.is_relative_to(LOCAL)}
    assert local >= {"cli/main.py", "cli/rules.py", "venue/simulated.py", "venue/terminal.py"}


def test_importing_the_registry_imports_no_engine() -> None:
    code = (
        "import sys, deckhand.engines.registry as r\n"
        "loaded = [m for m in sys.modules if m.startswith('deckhand.engines.') and m.count('.') >= 2]\n"
        "allowed = {'deckhand.engines.registry', 'deckhand.engines.spec', 'deckhand.engines.contract'}\n"
        "print(sorted(set(loaded) - allowed))\n"
        f"r.game({RULESETS[0]!r})\n"
        "print(sorted({m.split('.')[2] for m in sys.modules if m.startswith('deckhand.engines.')}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    before, after = out.splitlines()
    assert before == "[]"
    others = {e.module.rsplit(".", 1)[1] for e in ENTRIES[1:]}
    assert not others & set(eval(after)), "asking for one game imported another"


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.alias)
def test_a_game_imports_its_referee_and_screen_on_first_use(entry: Any) -> None:
    """A spec loads its board and bot; the referee's calculator and the screens come when first asked."""
    lazy = [entry.module + ".referee", entry.module + ".screen"]
    code = (
        "import sys, json\n"
        "from deckhand.engines.common.cards import make_deck\n"
        "from deckhand.engines.registry import game\n"
        f"spec = game({entry.ruleset!r})\n"
        f"before = [m in sys.modules for m in {lazy!r}]\n"
        "ops = spec.referee().ops()\n"
        "board = spec.new_board(make_deck(decks=spec.decks, jokers=spec.jokers) * spec.deals_per_board, None)\n"
        "drawn = spec.screen(board, 0)\n"
        f"print(json.dumps([before, [m in sys.modules for m in {lazy!r}], bool(ops), isinstance(drawn, dict)]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [[False, False], [True, True], True, True]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_entry_agrees_with_its_spec(ruleset: str) -> None:
    spec = game(ruleset)
    entry = next(e for e in ENTRIES if e.ruleset == ruleset)
    assert (spec.ruleset, spec.alias, spec.seats) == (entry.ruleset, entry.alias, entry.seats)
    assert spec.actions and all(a.kind for a in spec.actions)
