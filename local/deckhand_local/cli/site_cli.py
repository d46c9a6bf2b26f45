"""``deckhand site EXPORT --out DIR``: the results site from an export (docs/results-site.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from deckhand.errors import DeckhandError

from ..site.build import build_site


def run_site(export: str, out: str, stdin: TextIO, stdout: TextIO) -> int:
    try:
        text = stdin.read() if export == "-" else Path(export).read_text(encoding="utf-8")
    except OSError as exc:
        raise DeckhandError(f"cannot read {export}: {exc.strerror}") from None
    try:
        doc: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DeckhandError(f"{export} is not JSON: {exc.msg} (line {exc.lineno})") from None
    if not isinstance(doc, dict) or not ({"results", "matches", "boards"} & set(doc)):
        raise DeckhandError(f"{export} is not an event's export (no results, boards or matches)")
    try:
        files = build_site(doc, Path(out))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DeckhandError(f"{export} is not a well-formed export: {type(exc).__name__} {exc}") from None
    pages = [f for f in files if f.suffix == ".html"]
    print(json.dumps({"out": out, "pages": len(pages), "index": str(Path(out) / "index.html")}), file=stdout)
    return 0
