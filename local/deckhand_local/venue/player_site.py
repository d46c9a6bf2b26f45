"""The player's browser page (web/player/) served by the venue under ``/play/``, with
``/play/config.json`` telling the page where the broker's WebSocket listener is.

Only files under the page's folder are served, by their exact relative path (no ``..``, no hidden
files, no directory listing), with their content type and ``nosniff``; the page itself may load
nothing but its own files and connect nowhere but over WebSocket (its Content-Security-Policy).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..static_files import Reply, static_file
from .lambdas import repository_root

PREFIX = "/play/"
HOST = re.compile(r"([A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(:[0-9]{1,5})?")
POLICY = (
    "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self'; "
    "script-src 'self'; worker-src 'self' blob:; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"
)


def page_folder() -> Path:
    return repository_root() / "web" / "player"


class PlayerSite:
    def __init__(self, ws_port: int | None, ws_host: str = "127.0.0.1", root: Path | None = None) -> None:
        """``ws_port``: the broker's WebSocket listener (None: none, the page is told so);
        ``ws_host``: the address it listens on (a wildcard one is reached by the page's own host)."""
        self.root = (root or page_folder()).resolve()
        self.ws_port = ws_port
        self.ws_host = ws_host

    def serve(self, target: str, host_header: str | None = None) -> Reply:
        path = unquote(urlsplit(target).path)
        if path == PREFIX.rstrip("/"):
            return 301, {"Location": PREFIX, "Cache-Control": "no-cache"}, b""
        if path == PREFIX + "config.json":
            return self._config(host_header)
        if not path.startswith(PREFIX):
            return _not_found()
        reply = static_file(self.root, path.removeprefix(PREFIX) or "index.html")
        if reply[1].get("Content-Type", "").startswith("text/html"):
            reply[1]["Content-Security-Policy"] = POLICY
            reply[1]["Referrer-Policy"] = "no-referrer"  # the join token is in the fragment, never sent
        return reply

    def _config(self, host_header: str | None) -> Reply:
        """The broker's WebSocket address as the page reaches it: the listener's own host, or the host
        the page was loaded from when the listener takes every interface."""
        host = self.ws_host
        if host in ("0.0.0.0", "::", ""):
            match = HOST.fullmatch(host_header or "")
            host = match.group(1) if match else "127.0.0.1"
        body = {"ws": f"ws://{host}:{self.ws_port}" if self.ws_port is not None else None}
        headers = {"Content-Type": "application/json", "Cache-Control": "no-store"}
        return 200, headers, json.dumps(body).encode()


def _not_found() -> Reply:
    return 404, {"Content-Type": "application/json", "Cache-Control": "no-store"}, b'{"error": "not found"}'
