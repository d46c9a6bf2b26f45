"""The repository speaks only of itself: no tracked file or link names a place on the machine it was made on.

A link to an absolute path (or out of the clone) works on the machine that made it and breaks every
clean clone: one did, the type check's stubs folder committed as a link to a working copy.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Folders of a developer's machine or its tooling that never belong in the project's text.
MACHINE_PATHS = re.compile(r"/work/(main|wt|shared)\b|/tmp/bash_jobs|/opt/pypi")


def _tracked() -> list[tuple[str, str]]:
    """(mode, path) of every tracked file."""
    out = subprocess.run(["git", "ls-files", "-s", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    entries = []
    for record in out.decode().split("\0"):
        if record:
            meta, path = record.split("\t", 1)
            entries.append((meta.split()[0], path))
    return entries


def test_every_tracked_link_stays_inside_the_repository() -> None:
    escaping = []
    for mode, path in _tracked():
        if mode == "120000":
            target = os.readlink(ROOT / path) if (ROOT / path).is_symlink() else ""
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), target))
            if not target or os.path.isabs(target) or resolved.startswith(".."):
                escaping.append(f"{path} -> {target}")
    assert escaping == [], f"links out of the repository: {escaping}"


def test_no_tracked_text_names_a_folder_of_the_machine() -> None:
    found = []
    for mode, path in _tracked():
        if mode != "100644" and mode != "100755":
            continue
        try:
            text = (ROOT / path).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if MACHINE_PATHS.search(line) and path != "tests/contracts/test_repository_files.py":
                found.append(f"{path}:{number}")
    assert found == [], f"machine paths in: {found}"
