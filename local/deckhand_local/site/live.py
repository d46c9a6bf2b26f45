"""The venue's live results site (for a projector in the hall and players' phones): the pages of
`deckhand site` built from the event's public export, with the round in play's progress, rebuilt
when the export changes and refreshed by the browser until the event is finished.

Only what the public may see: the export and the round status are asked as a viewer with no role
in the event (service/organiser/disclosure.py): nothing of a round in play but how far each table is. What
is fetched is kept for a few seconds, so a hall full of phones costs one export every few seconds.
"""

from __future__ import annotations

import hashlib
import json
import logging
import mimetypes
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .build import ASSETS, build_site, safe_name
from .words import LANGS

# GET an API path as the public viewer → (status, JSON body).
Fetch = Callable[[str], tuple[int, Any]]
Reply = tuple[int, dict[str, str], bytes]
_EVENT = re.compile(r"^/site/([A-Za-z0-9_.-]{1,64})(/.*)?$")
_LANGS = "|".join(re.escape(lang) for lang in LANGS[1:])  # the other languages' folders (words.py)
_PAGE = re.compile(rf"^/(?:(?:{_LANGS})/)?(?:[a-z]+/)?[A-Za-z0-9_.~-]+\.html$")  # en/boards/r1-b1-g1.html
_ASSET = re.compile(r"^/assets/([a-z]+\.(?:css|js))$")
FRESH_SECONDS = 3.0
log = logging.getLogger(__name__)


def _text(status: int, message: str) -> Reply:
    return status, {"Content-Type": "text/plain; charset=utf-8"}, message.encode()


class LiveSite:
    def __init__(
        self, fetch: Fetch, root: Path | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.fetch = fetch
        self.root = root or Path(tempfile.mkdtemp(prefix="deckhand-site-"))
        self.clock = clock
        self.lock = threading.Lock()
        self.built: dict[str, tuple[str, Path, float]] = {}  # event → (digest, folder, when checked)
        self.previous: dict[str, Path] = {}  # event → the folder before: a page being read may be in it

    def serve(self, path: str) -> Reply:
        """(status, headers, body) for a GET of ``/site/<event>/<page>``."""
        try:
            return self._serve(path.split("?", 1)[0])
        except Exception:  # a page that cannot be built is a 500, never a dropped connection
            log.exception("the live site could not serve %s", path)
            return _text(500, "the page could not be built; try again")

    def _serve(self, path: str) -> Reply:
        match = _EVENT.match(path)
        if match is None or match.group(1).strip(".") == "":
            return _text(404, "no such page: /site/<event>/ shows an event's results")
        event_id, page = match.group(1), match.group(2)
        if page is None:  # /site/cup → /site/cup/: the pages' relative links need the slash
            return 301, {"Location": f"/site/{event_id}/"}, b""
        asset = _ASSET.match(page)
        if asset is not None:  # the same for every event: no export needed
            kind = mimetypes.guess_type(asset.group(1))[0] or "application/octet-stream"
            return 200, {"Content-Type": f"{kind}; charset=utf-8"}, (ASSETS / asset.group(1)).read_bytes()
        page = page + "index.html" if page.endswith("/") else page  # / and /en/: the index
        if not _PAGE.match(page):
            return _text(404, "no such page")
        folder = self._build(event_id)
        if folder is None:
            return _text(404, f"no event {event_id}")
        target = folder / page.lstrip("/")
        if not target.is_file():
            return _text(404, "no such page (yet): a round's boards appear once it is done")
        return 200, {"Content-Type": "text/html; charset=utf-8"}, target.read_bytes()

    def _build(self, event_id: str) -> Path | None:
        with self.lock:
            known = self.built.get(event_id)
            if known is not None and self.clock() - known[2] < FRESH_SECONDS:
                return known[1]
            status, export = self.fetch(f"/events/{event_id}/export")
            if status != 200:
                return None
            event = export.get("event") or {}
            live = None
            current = int(event.get("current_round") or 0)
            if current and event.get("status") in ("dealing", "playing"):
                code, answer = self.fetch(f"/events/{event_id}/rounds/{current}")
                live = answer if code == 200 else None
            digest = hashlib.sha256(json.dumps([export, live], sort_keys=True).encode()).hexdigest()
            if known is not None and known[0] == digest:
                self.built[event_id] = (digest, known[1], self.clock())
                return known[1]
            folder = self.root / safe_name(event_id) / digest[:16]
            build_site(export, folder, live, refresh=event.get("status") != "finished")
            self.built[event_id] = (digest, folder, self.clock())
            if known is not None and known[1] != folder:
                older = self.previous.get(event_id)
                if older is not None and older != folder:
                    shutil.rmtree(older, ignore_errors=True)  # two builds back: nobody reads it now
                self.previous[event_id] = known[1]
            return folder
