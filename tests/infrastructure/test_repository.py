"""The repository itself: what git must never pick up, and what `make` says while it installs."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="a git checkout")
@pytest.mark.parametrize(
    "path", [".deckhand/venue.json", ".deckhand/organisers.json", "out/bigtwo/results.json"]
)
def test_the_venue_state_and_results_are_never_committed(path):
    """`.deckhand/` holds the local API's token (and the venue's passwords): git ignores it."""
    proc = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT, check=False)
    assert proc.returncode == 0, f"{path} is not ignored by .gitignore"


def _recipe(target: str) -> list[str]:
    lines = (ROOT / "Makefile").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(target + ":"))
    recipe = []
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        recipe.append(line.strip())
    return recipe


@pytest.mark.parametrize("target", ["$(STAMP)", "$(STUBS)"])
def test_the_long_pip_installs_say_what_they_install_and_why_it_takes_time(target):
    """pip runs --quiet for minutes: an echo before it names what is installed and that it takes a while."""
    recipe = _recipe(target)
    first_pip = next(i for i, line in enumerate(recipe) if "pip install" in line)
    said = [line for line in recipe[:first_pip] if re.match(r"@echo ", line)]
    assert said, f"{target}: nothing is said before pip installs"
    assert any("minute" in line for line in said), said


def test_make_demo_writes_each_games_results_to_its_own_folder():
    (line,) = [line for line in _recipe("demo") if "deckhand demo" in line]
    assert "--game $(DEMO_GAME)" in line and "--out out/$(DEMO_GAME)" in line
    makefile = (ROOT / "Makefile").read_text()
    # GAME, and a preset of it (PRESET=common: the rule set shengji-common), each in its own folder.
    assert "DEMO_GAME = $(or $(GAME),bigtwo)$(if $(PRESET),-$(PRESET))" in makefile


def test_make_test_runs_pytest_on_every_core_and_names_the_slowest_tests():
    """`make test` keeps under 20 minutes on two cores: its checks side by side, pytest on every core
    (a module's tests that share a venue on one worker) and the 25 slowest tests printed to keep it so."""
    assert any("-j" in line and "checks" in line for line in _recipe("test"))
    (line,) = [line for line in _recipe("pytest") if "pytest" in line]
    assert "-n $(PYTEST_JOBS)" in line and "--dist loadgroup" in line and "--durations=25" in line
    (deep,) = [line for line in _recipe("test-deep") if "pytest" in line]
    assert "DECKHAND_TEST_DEPTH=" in deep


LINK = re.compile(r"(!?)\[[^\]]*\]\(([^)\s]+)\)")  # a Markdown link or picture: (the "!", its target)
PICTURE_BYTES = 200 * 1024  # each picture the README shows, at most (`make screenshots` keeps them so)


def test_every_file_and_picture_the_readme_links_is_in_the_repository():
    """The README's links to files of the repository lead somewhere, and its pictures are PNGs of a
    reasonable size; it shows the console (issue 37: "the README shows the console in a screenshot")."""
    text = (ROOT / "README.md").read_text()
    links = LINK.findall(text) + [("!", src) for src in re.findall(r'<img src="([^"]+)"', text)]
    local = [(bang, target) for bang, target in links if not re.match(r"[a-z]+:", target)]
    missing = [target for _, target in local if not (ROOT / target.split("#")[0]).exists()]
    assert missing == [], f"the README links files that are not there: {missing}"
    pictures = [ROOT / target for bang, target in local if bang]
    assert {ROOT / "docs/images/console-room.png", ROOT / "docs/images/player-page.png"} <= set(pictures)
    for picture in pictures:
        data = picture.read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n"), f"{picture.name} is not a PNG"
        assert len(data) <= PICTURE_BYTES, f"{picture.name}: {len(data) // 1024} KiB"


def test_the_readmes_pictures_are_redrawn_by_hand_never_by_make_test():
    """`make screenshots` starts a venue and a browser of its own: not a check `make test` runs."""
    assert _recipe("screenshots") == ["$(BIN)/python tools/screenshots.py"]
    checks = (ROOT / "Makefile").read_text().split("\nchecks:", 1)[1].splitlines()[0]
    assert "screenshots" not in checks and "screenshots" not in " ".join(_recipe("pytest"))
