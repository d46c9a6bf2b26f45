"""Files of a browser page's folder, served by the venue as they are."""

from __future__ import annotations

import re
from pathlib import Path

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
}
SEGMENT = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}")
Reply = tuple[int, dict[str, str], bytes]


def static_file(root: Path, relative: str) -> Reply:
    """A file of ``root`` (resolved) by its exact relative path, with its content type and ``nosniff``:
    no ``..``, no hidden files, no directory listing, no symbolic link out of the folder. The player's
    page's (venue/player_site.py) and the console's (console/app.py)."""
    parts = relative.split("/")
    if not all(SEGMENT.fullmatch(p) for p in parts):
        return _not_found()
    try:
        resolved = root.joinpath(*parts).resolve(strict=True)
        resolved.relative_to(root)  # a symbolic link pointing out of the folder: not served
    except (OSError, ValueError):
        return _not_found()
    content_type = TYPES.get(resolved.suffix)
    if content_type is None or not resolved.is_file():
        return _not_found()
    headers = {
        "Content-Type": content_type,
        "X-Content-Type-Options": "nosniff",
        # The vendored files change only with their pinned version; the page's own files with
        # every checkout: those are revalidated on each load.
        "Cache-Control": "public, max-age=86400" if parts[0] == "vendor" else "no-cache",
    }
    return 200, headers, resolved.read_bytes()


def _not_found() -> Reply:
    return 404, {"Content-Type": "application/json", "Cache-Control": "no-store"}, b'{"error": "not found"}'
