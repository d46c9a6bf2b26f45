"""Write the results site: an index with the standings, a page per board, a score card per player,
a page per match (docs/results-site.md), each in Chinese and in English. Templates with autoescaping:
no text from the export is ever written as markup, and every word comes from the catalogue
(words.py)."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from . import model
from .words import LANGS, STORAGE_KEY, Words

ASSETS = Path(__file__).parent / "assets"


def environment() -> Environment:
    return Environment(
        loader=PackageLoader("deckhand_local.site", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def safe_name(name: str) -> str:
    """A file name from an id (ids come from the export): letters, digits, '.', '-' and '_' kept —
    the service's ids use only those, so two ids never share a file — anything else, and the names
    '.' and '..', spelled out as ``~<hex>``."""
    out = "".join(c if (c.isascii() and c.isalnum()) or c in ".-_" else f"~{ord(c):x}" for c in name)
    return out if out.strip(".") else "~" + out.encode().hex()


def _prefix(lang: str) -> str:
    """Where a language's pages sit: the default's at the root, the others under ``<lang>/``."""
    return "" if lang == LANGS[0] else f"{lang}/"


def build_site(
    doc: Mapping[str, Any], out: Path, live: Mapping[str, Any] | None = None, *, refresh: bool = False
) -> list[Path]:
    """Every page of the site for ``doc`` under ``out``, in every language (docs/cli.md: Chinese at
    the root, English under ``en/``, each page linking to itself in the other); returns the files
    written. ``live``: the round in play's public status (its progress is shown); ``refresh``: the
    pages reload themselves (the venue's live site, until the event is finished)."""
    env = environment()
    written: list[Path] = []
    for lang in LANGS:
        site = model.read(doc, lang)
        site.live = model.read_live(live, Words(lang)) if live else None
        site.refresh = refresh
        written += _write_language(env, site, lang, out)
    (out / "assets").mkdir(parents=True, exist_ok=True)
    for asset in sorted(ASSETS.iterdir()):
        shutil.copyfile(asset, out / "assets" / asset.name)
        written.append(out / "assets" / asset.name)
    return written


def _write_language(env: Environment, site: model.Site, lang: str, out: Path) -> list[Path]:
    for card in site.cards:
        card.player = safe_name(card.player)
    for row in site.standings:
        if row.card is not None:
            row.card = f"players/{safe_name(row.team)}.html"
    prefix = _prefix(lang)
    others = [(other, _prefix(other)) for other in LANGS if other != lang]
    written: list[Path] = []

    def write(path: str, template: str, **values: Any) -> None:
        target = out / prefix / path
        target.parent.mkdir(parents=True, exist_ok=True)
        root = "../" * path.count("/")  # this language's root, from the page
        top = root + "../" * prefix.count("/")  # the site's root: the assets, the other languages
        switch = [(other, top + where + path) for other, where in others]
        page = env.get_template(template).render(
            site=site,
            root=root,
            top=top,
            lang=lang,
            w=Words(lang),
            switch=switch,
            storage=STORAGE_KEY,
            **values,
        )
        target.write_text(page, encoding="utf-8")
        written.append(target)

    write("index.html", "index.html")
    for board in site.boards:
        for r in board.traveller:
            r.player = safe_name(r.player)
        write(f"boards/{safe_name(board.slug)}.html", "board.html", board=board)
    for card in site.cards:
        write(f"players/{card.player}.html", "card.html", card=card)
    for match in site.matches:
        write(f"matches/{safe_name(match.slug)}.html", "match.html", match=match)
    return written
