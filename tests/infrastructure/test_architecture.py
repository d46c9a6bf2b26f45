"""ARCHITECTURE.md is the map of the code: it stays true, and the import check it promises works."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_ROOTS = (ROOT / "layers/shared/deckhand", ROOT / "local/deckhand_local")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def packages_in_code() -> set[str]:
    return {
        init.parent.relative_to(ROOT).as_posix()
        for root in PACKAGE_ROOTS
        for init in root.rglob("__init__.py")
        if "__pycache__" not in init.parts
    }


def packages_in_map() -> set[str]:
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    return set(re.findall(r"^### `([^`]+)`$", text, flags=re.MULTILINE))


def test_every_package_named_in_the_map_exists():
    assert packages_in_map() - packages_in_code() == set()


def test_every_package_of_the_code_is_in_the_map():
    assert packages_in_code() - packages_in_map() == set()


def test_the_map_names_only_files_and_folders_that_exist():
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:functions|device|tools|docs|tests|bench|web)/[\w/.-]*)`", text))
    assert named and {n for n in named if not (ROOT / n).exists()} == set()


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": f"{tree / 'layers/shared'}{os.pathsep}{tree / 'local'}"}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", str(tree / "pyproject.toml")],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def copy_of_the_code(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    ignore = shutil.ignore_patterns("__pycache__")
    for root in PACKAGE_ROOTS:
        shutil.copytree(root, tree / root.relative_to(ROOT), ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


@pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter is not installed (make installs it)")
def test_the_import_check_passes_on_the_code_and_fails_on_a_circle(tmp_path):
    tree = copy_of_the_code(tmp_path)
    clean = lint_imports(tree)
    assert clean.returncode == 0, clean.stdout + clean.stderr

    # storage sits at the bottom; make it reach up to boards, which already uses it: a circle.
    keys = tree / "layers/shared/deckhand/service/storage/keys.py"
    keys.write_text(keys.read_text(encoding="utf-8") + "\nfrom ..boards import store as _store  # noqa\n")
    broken = lint_imports(tree)
    assert broken.returncode != 0
    assert "BROKEN" in broken.stdout and "storage" in broken.stdout


@pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter is not installed (make installs it)")
def test_the_import_check_fails_on_a_circle_inside_one_package(tmp_path):
    tree = copy_of_the_code(tmp_path)
    boards = tree / "layers/shared/deckhand/service/boards"
    (boards / "circle_a.py").write_text("from . import circle_b  # noqa\n")
    (boards / "circle_b.py").write_text("from . import circle_a  # noqa\n")
    broken = lint_imports(tree)
    assert broken.returncode != 0
    assert "circle_a" in broken.stdout


def test_the_front_door_links_only_to_what_a_clone_has():
    for page in ("README.md", "ARCHITECTURE.md"):
        text = (ROOT / page).read_text(encoding="utf-8")
        assert "../" not in text, f"{page} points outside the project"
        links = re.findall(r"\]\(([^)#]+)\)", text)
        assert {link for link in links if not (ROOT / link).exists()} == set(), page


def test_the_readme_names_every_rule_set_and_its_doc():
    from deckhand.engines.registry import RULESETS, game

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    calculator = re.search(r"`deckhand rules --game ([a-z|-]+)`", text)
    assert calculator is not None
    for ruleset in RULESETS:
        assert f"`{ruleset}`" in text
        assert game(ruleset).alias in calculator.group(1).split("|")
