"""The Lambda layer holds the run-time code only: the local tools (``local/deckhand_local``: the CLI
and the venue) sit outside it, the layer never imports them, and their dependencies (moto, amqtt,
paho-mqtt, PyYAML) are neither imported by the layer nor installed into it."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYER = ROOT / "layers" / "shared"
PACKAGE = LAYER / "deckhand"
LOCAL_TOOLS = "deckhand_local"
# Top-level modules of the local tools' dependencies, and their distribution names.
LOCAL_MODULES = {LOCAL_TOOLS, "moto", "amqtt", "paho", "yaml"}
LOCAL_DISTRIBUTIONS = {"moto", "amqtt", "paho-mqtt", "pyyaml"}


def imported_modules(source: str) -> set[str]:
    """Every absolute module an import statement of ``source`` names, at any depth (lazy imports too)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def forbidden_imports(source: str) -> set[str]:
    return {m for m in imported_modules(source) if m.split(".")[0] in LOCAL_MODULES}


def test_no_layer_module_imports_the_local_tools_or_their_dependencies():
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 30
    found = {}
    for path in files:
        text = path.read_text(encoding="utf-8")
        bad = forbidden_imports(text)
        # importlib.import_module("deckhand_local…") and the like: the name does not appear at all.
        if LOCAL_TOOLS in text:
            bad.add(LOCAL_TOOLS)
        if bad:
            found[str(path.relative_to(ROOT))] = sorted(bad)
    assert not found, f"the layer imports the local tools or their dependencies: {found}"


def test_the_local_tools_are_not_in_the_layer():
    assert not (PACKAGE / "venue").exists() and not (PACKAGE / "cli").exists()
    assert not list(LAYER.rglob(f"{LOCAL_TOOLS}/__init__.py"))
    assert (ROOT / "local" / LOCAL_TOOLS / "venue" / "local.py").is_file()
    assert (ROOT / "local" / LOCAL_TOOLS / "cli" / "main.py").is_file()


def test_the_layer_requirements_list_none_of_the_local_tools_dependencies():
    lines = (LAYER / "requirements.txt").read_text(encoding="utf-8").splitlines()
    names = {re.split(r"[\[=<>~! ;]", line.strip(), maxsplit=1)[0].lower() for line in lines}
    names.discard("")
    names = {n for n in names if not n.startswith("#")}
    assert names, "the layer's requirements.txt lists nothing"
    assert not names & LOCAL_DISTRIBUTIONS, names & LOCAL_DISTRIBUTIONS


def test_the_check_would_catch_an_import():
    assert forbidden_imports("from deckhand_local.venue.local import Venue") == {"deckhand_local.venue.local"}
    assert forbidden_imports("def f():\n    import paho.mqtt.client as mqtt\n") == {"paho.mqtt.client"}
    assert forbidden_imports("from moto import mock_aws\nimport yaml") == {"moto", "yaml"}
    assert not forbidden_imports("from ..service import models\nimport networkx")
