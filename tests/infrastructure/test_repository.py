"""The repository itself: what git must never pick up."""

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
