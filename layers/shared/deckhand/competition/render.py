"""Standings as CSV and as a readable HTML results page (``deckhand standings --format``)."""

from __future__ import annotations

import io
from html import escape
from typing import Any

from .csv_cells import SafeWriter


def standings_csv(doc: dict[str, Any]) -> str:
    """One row per player, best first: place, player, total, tie_break, and the player's registered
    name (empty when the standings carry none)."""
    out = io.StringIO()
    writer = SafeWriter(out)
    writer.writerow(["place", "player", "total", "tie_break", "name"])
    for s in doc["standings"]:
        writer.writerow(
            [s["place"], s["player"], f"{s['total']:.2f}", s["tie_break"] or "", s.get("name") or ""]
        )
    return out.getvalue()


def board_results_csv(doc: dict[str, Any]) -> str:
    """One row per player per board comparison."""
    out = io.StringIO()
    writer = SafeWriter(out)
    writer.writerow(["round", "board", "group", "seat", "player", "mp", "mp_pct", "place", "rank_points"])
    for b in doc["boards"]:
        for r in b["results"]:
            writer.writerow(
                [
                    b["round"],
                    b["board"],
                    b["group"],
                    b["seat"],
                    r["player"],
                    r["mp"],
                    f"{r['mp_pct']:.2f}",
                    r["place"],
                    f"{r['rank_points']:.2f}",
                ]
            )
    return out.getvalue()


_STYLE = """
body{font-family:system-ui,sans-serif;margin:2rem;color:#222;max-width:60rem}
table{border-collapse:collapse;margin:0 0 1.5rem}
th,td{border:1px solid #ccc;padding:.25rem .6rem;text-align:right}
th{background:#f0f0f0}td.name{text-align:left}
caption{text-align:left;font-weight:600;padding:.3rem 0}
""".strip()


def _table(caption: str, headers: list[str], rows: list[list[str]], *, css_id: str = "") -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="name">{escape(c)}</td>' if i == 1 else f"<td>{escape(c)}</td>"
            for i, c in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    ident = f' id="{escape(css_id)}"' if css_id else ""
    return f"<table{ident}><caption>{escape(caption)}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _named(player: str, name: str | None) -> str:
    """A player as people read them: the registered name and the id (``Li Wei (P03)``), or the id."""
    return f"{name} ({player})" if name and name != player else player


def results_html(doc: dict[str, Any], *, title: str = "Results", extra_sections: str = "") -> str:
    """A self-contained page: the standings, then every board comparison. No scripts, no external files."""
    standings = _table(
        "Standings",
        ["Place", "Player", "Total", "Tie-break"],
        [
            [str(s["place"]), _named(s["player"], s.get("name")), f"{s['total']:.2f}", s["tie_break"] or ""]
            for s in doc["standings"]
        ],
        css_id="standings",
    )
    names = {s["player"]: s.get("name") for s in doc["standings"]}
    boards = "".join(
        _table(
            f"Round {b['round']} · board {b['board']} · group {b['group']} · seat {b['seat']}",
            ["Place", "Player", "MP", "MP %", "Rank points"],
            [
                [
                    str(r["place"]),
                    _named(r["player"], names.get(r["player"])),
                    str(r["mp"]),
                    f"{r['mp_pct']:.2f}",
                    f"{r['rank_points']:.2f}",
                ]
                for r in b["results"]
            ],
        )
        for b in doc["boards"]
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{escape(title)}</h1>{standings}{extra_sections}<h2>Board results</h2>{boards}</body></html>\n"
    )
