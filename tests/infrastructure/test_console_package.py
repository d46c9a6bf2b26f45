"""The console's Lambda package (the Makefile's build-ConsoleFunction, run by `sam build`): the handler
imports from the package and the layer alone — the console's code, templates and browser files in it,
nothing of the venue or the command line — and serves its sign-in page."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# In the package and the layer only (no site-packages' deckhand_local, no repository on the path); the
# third-party dependencies are the venv's here (CONSOLE_PIP=: skips downloading Lambda's arm64 builds).
PROBE = """
import sys
sys.path[:0] = [{package!r}, {layer!r}]
sys.modules.pop("deckhand_local", None)
import os
os.environ.update(DECKHAND_CONSOLE_SETTINGS="unused", DECKHAND_TABLE="unused", AWS_DEFAULT_REGION="us-east-1",
                  POWERTOOLS_TRACE_DISABLED="1", POWERTOOLS_METRICS_NAMESPACE="Deckhand")
import app
import deckhand_local, deckhand_local.console.app
assert deckhand_local.__file__.startswith({package!r}), deckhand_local.__file__
assert "deckhand_local.venue" not in sys.modules and "deckhand_local.cli" not in sys.modules
assert (app.FILES / "vendor" / "htmx.min.js").is_file() and (app.FILES / "console.css").is_file()
from deckhand_local.console.aws import ConsoleFunction, Settings
from deckhand_local.console.cognito import CognitoSessions
settings = Settings.from_json('{{"region": "eu-west-1", "pool_id": "eu-west-1_X", "client_id": "c", '
                              '"domain": "d.auth.eu-west-1.amazoncognito.com", "url": "https://x/console/"}}')
sessions = CognitoSessions(settings.pool, lambda kid: None, None)
function = ConsoleFunction(settings, sessions, app.api.resolve, app.FILES)
status, headers, body = function.console.serve("GET", "/console/", {{}})
assert status == 200 and b'id="sign-in-account"' in body, body
status, headers, body = function.console.serve("GET", "/console/static/vendor/htmx.min.js", {{}})
assert status == 200, status
print("ok")
"""


def test_the_console_package_holds_what_its_handler_needs(tmp_path):
    package = tmp_path / "package"
    subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-s",
            "build-ConsoleFunction",
            f"ARTIFACTS_DIR={package}",
            "CONSOLE_PIP=:",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert (package / "app.py").read_text() == (ROOT / "functions" / "console" / "app.py").read_text()
    assert not list(package.rglob("__pycache__"))
    probe = PROBE.format(package=str(package), layer=str(ROOT / "layers" / "shared"))
    ran = subprocess.run(
        [sys.executable, "-I", "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 0 and ran.stdout.strip() == "ok", ran.stderr[-3000:]
