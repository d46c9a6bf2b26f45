"""The venue's live results site (for a projector in the hall and players' phones): the pages of
`deckhand site` built from the event's public export, with the round in play's progress, rebuilt
when the export changes and refreshed by the browser.

Only what the public may see: the export and the round status are asked as a viewer with no role
in the event (service/disclosure.py): nothing of a round in play but how far each table is.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
import re
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .build import build_site

# GET an API path as the public viewer → (status, JSON body).
Fetch = Callable[[str], tuple[int, Any]]
_EVENT = re.compile(r"^/site/([A-Za-z0-9_.-]{1,64})(/.*)?$")
_PAGE = re.compile(r"^/(?:[a-z]+/)?[A-Za-z0-9_.-]+\.(?:html|css|js)$")


class LiveSite:
    def __init__(self, fetch: Fetch, root: Path | None = None) -> None:
        self.fetch = fetch
        self.root = root or Path(tempfile.mkdtemp(prefix="deckhand-site-"))
        self.lock = threading.Lock()
        self.built: dict[str, tuple[str, Path]] = {}  # event → (digest of what it was built from, folder)

    def serve(self, path: str) -> tuple[int, str, bytes]:
        """(status, content type, body) for a GET of ``/site/<event>/<page>``."""
        match = _EVENT.match(path.split("?", 1)[0])
        if match is None:
            return 404, "text/plain; charset=utf-8", b"no such page: /site/<event>/ for an event's results"
        event_id, page = match.group(1), match.group(2) or "/"
        if page == "/":
            page = "/index.html"
        if not _PAGE.match(page):
            return 404, "text/plain; charset=utf-8", b"no such page"
        folder = self._build(event_id)
        if folder is None:
            return 404, "text/plain; charset=utf-8", f"no event {event_id}".encode()
        target = folder / page.lstrip("/")
        if not target.is_file():
            return 404, "text/plain; charset=utf-8", b"no such page (yet)"
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        return 200, f"{kind}; charset=utf-8", target.read_bytes()

    def _build(self, event_id: str) -> Path | None:
        status, export = self.fetch(f"/events/{event_id}/export")
        if status != 200:
            return None
        event = export.get("event") or {}
        live = None
        current = int(event.get("current_round") or 0)
        if current and event.get("status") in ("dealing", "playing"):
            code, live = self.fetch(f"/events/{event_id}/rounds/{current}")
            live = live if code == 200 else None
        digest = hashlib.sha256(json.dumps([export, live], sort_keys=True).encode()).hexdigest()
        with self.lock:
            known = self.built.get(event_id)
            if known is not None and known[0] == digest:
                return known[1]
            folder = self.root / event_id / digest[:16]
            build_site(export, folder, live)
            self.built[event_id] = (digest, folder)
            return folder
