"""Write the results site: an index with the standings, a page per board, a score card per player,
a page per match (docs/results-site.md). Templates with autoescaping: no text from the export is
ever written as markup."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from . import model

ASSETS = Path(__file__).parent / "assets"


def environment() -> Environment:
    return Environment(
        loader=PackageLoader("deckhand_local.site", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def _safe(name: str) -> str:
    """A file name from an id: letters, digits, '-' and '_' only (ids come from the export)."""
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name) or "_"


def build_site(doc: Mapping[str, Any], out: Path, live: Mapping[str, Any] | None = None) -> list[Path]:
    """Every page of the site for ``doc`` under ``out``; returns the files written. ``live``: the
    round in play's public status — the venue's live site shows its progress and refreshes."""
    site = model.read(doc)
    site.live = model.read_live(live) if live else None
    for card in site.cards:
        card.player = _safe(card.player)
    for row in site.standings:
        if row.card is not None:
            row.card = f"players/{_safe(row.team)}.html"
    env = environment()
    written: list[Path] = []

    def write(path: str, template: str, root: str, **values: Any) -> None:
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(env.get_template(template).render(site=site, root=root, **values), encoding="utf-8")
        written.append(target)

    write("index.html", "index.html", "")
    for board in site.boards:
        for r in board.traveller:
            r.player = _safe(r.player)
        write(f"boards/{_safe(board.slug)}.html", "board.html", "../", board=board)
    for card in site.cards:
        write(f"players/{card.player}.html", "card.html", "../", card=card)
    for match in site.matches:
        write(f"matches/{_safe(match.slug)}.html", "match.html", "../", match=match)
    (out / "assets").mkdir(parents=True, exist_ok=True)
    for asset in sorted(ASSETS.iterdir()):
        shutil.copyfile(asset, out / "assets" / asset.name)
        written.append(out / "assets" / asset.name)
    return written
