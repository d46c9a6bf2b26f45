"""Reading a match event's results document, and the CSV and HTML pieces every export of it shares.

The document is the backend's (docs/competition.md "Exports of a match-play event"): these helpers
only read it and never raise on a match in play (``"result": null``), a bye or a board that ended
before everyone was out. Every name is the organiser's or a player's input: the HTML pieces escape
all text they show; the CSV writer keeps a cell from running as a formula.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Any

from .csv_cells import SafeWriter

IN_PLAY = "in_play"  # the ``kind`` the CSV gives a match whose result is not in yet
_ORDINALS = ("1st", "2nd", "3rd", "4th")


# --- reading the document -------------------------------------------------------------------------


def cell_text(value: Any) -> str:
    """A cell's text: None is empty, a list is its items separated by spaces."""
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return " ".join(cell_text(v) for v in value)
    return str(value)


def as_map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def as_seq(value: Any) -> Sequence[Any]:
    return value if isinstance(value, list | tuple) else ()


def _sides(match: Mapping[str, Any]) -> tuple[str | None, str | None]:
    pairs = list(as_seq(match.get("pairs")))
    pairs += [None] * (2 - len(pairs))
    a, b = pairs[0], pairs[1]
    return (None if a is None else str(a)), (None if b is None else str(b))


def _kind(match: Mapping[str, Any]) -> str:
    result = match.get("result")
    if not isinstance(result, Mapping):
        return IN_PLAY
    return cell_text(result.get("kind")) or ("bye" if match.get("bye") else "played")


class MatchView:
    """One match with the lookups every renderer needs: names, seats, players."""

    def __init__(self, match: Mapping[str, Any], names: Mapping[str, str]) -> None:
        self.raw = match
        self.a, self.b = _sides(match)
        self.kind = _kind(match)
        self.result = as_map(match.get("result"))
        own = as_map(match.get("names"))
        self.names = {t: cell_text(own.get(t)) or names.get(t, t) for t in (self.a, self.b) if t is not None}
        self.seat_team: dict[int, str] = {}
        self.seat_player: dict[int, str] = {}
        players = as_map(match.get("players"))
        for team, seats in as_map(match.get("seats")).items():
            for i, seat in enumerate(as_seq(seats)):
                if isinstance(seat, int):
                    self.seat_team[seat] = str(team)
                    team_players = as_seq(players.get(team))
                    if i < len(team_players):
                        self.seat_player[seat] = cell_text(team_players[i])

    @property
    def round(self) -> str:
        return cell_text(self.raw.get("round"))

    @property
    def table(self) -> str:
        return cell_text(self.raw.get("table"))

    @property
    def boards(self) -> list[Mapping[str, Any]]:
        return [b for b in as_seq(self.raw.get("boards")) if isinstance(b, Mapping)]

    def name(self, team: Any) -> str:
        if team is None:
            return ""
        return self.names.get(str(team), str(team))

    def side_value(self, key: str, team: str | None) -> str:
        """``result[key][team]`` as text (levels, mp, lp); empty when not there."""
        return "" if team is None else cell_text(as_map(self.result.get(key)).get(team))

    def seat_name(self, seat: Any) -> str:
        """``seat 2 · p3 · Li & Wang`` (as much of it as the document gives)."""
        parts = [f"seat {cell_text(seat)}"]
        if isinstance(seat, int):
            if seat in self.seat_player:
                parts.append(self.seat_player[seat])
            if seat in self.seat_team:
                parts.append(self.name(self.seat_team[seat]))
        return " · ".join(parts)

    def finishers(self, board: Mapping[str, Any]) -> list[tuple[str, Any]]:
        """(place, seat) in finishing order; with three out the fourth seat is last by elimination;
        seats not out when the board ended (a side finished 1st and 2nd) are listed as ``not out``."""
        order = [s for s in as_seq(board.get("order"))]
        out: list[tuple[str, Any]] = [
            (_ORDINALS[i] if i < len(_ORDINALS) else f"{i + 1}th", s) for i, s in enumerate(order)
        ]
        rest = [s for s in sorted(self.seat_team) if s not in order]
        if len(order) == 3 and len(rest) == 1:
            return [*out, ("4th", rest[0])]
        return out + [("not out", s) for s in rest]


def match_cells(m: MatchView) -> list[str]:
    """A match's row begins with where and who: round, table, each side's id and name."""
    return [m.round, m.table, m.a or "", m.name(m.a), m.b or "", m.name(m.b)]


def team_names(doc: Mapping[str, Any]) -> dict[str, str]:
    """Every pair's name the document gives (the matches' names, then the standings')."""
    names: dict[str, str] = {}
    for s in as_seq(doc.get("standings")):
        s = as_map(s)
        if s.get("team") is not None and s.get("name"):
            names[str(s["team"])] = cell_text(s["name"])
    for m in as_seq(doc.get("matches")):
        for team, name in as_map(as_map(m).get("names")).items():
            if name:
                names[str(team)] = cell_text(name)
    return names


def match_views(doc: Mapping[str, Any]) -> list[MatchView]:
    names = team_names(doc)
    return [MatchView(m, names) for m in as_seq(doc.get("matches")) if isinstance(m, Mapping)]


def csv_text(header: list[str], rows: Iterable[list[str]]) -> str:
    """Rows ending in ``\n``. A carriage return in a cell is written as a line feed: with this line
    ending Python's writer leaves a lone ``\r`` unquoted, and readers would split the row there."""
    out = io.StringIO()
    writer = SafeWriter(out)
    writer.writerow(header)
    writer.writerows([c.replace("\r\n", "\n").replace("\r", "\n") for c in row] for row in rows)
    return out.getvalue()


# --- HTML -----------------------------------------------------------------------------------------

STYLE = """
body{font-family:system-ui,sans-serif;margin:2rem;color:#222;max-width:72rem}
table{border-collapse:collapse;margin:0 0 1.5rem}
th,td{border:1px solid #ccc;padding:.25rem .6rem;text-align:left;vertical-align:top}
th{background:#f0f0f0}td.num{text-align:right}
caption{text-align:left;font-weight:600;padding:.3rem 0}
section.match{margin:0 0 1rem}p.kind{font-weight:600}
""".strip()

# A cell is text (escaped) or lines of text (each escaped, joined by <br>); nothing else reaches HTML.
Cell = str | list[str]


def _cell(value: Cell, *, num: bool = False) -> str:
    lines = [value] if isinstance(value, str) else value
    klass = ' class="num"' if num else ""
    return f"<td{klass}>{'<br>'.join(escape(line) for line in lines)}</td>"


def html_table(
    caption: str,
    headers: list[str],
    rows: list[list[Cell]],
    *,
    num: frozenset[int] = frozenset(),
    css_id: str = "",
) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(_cell(c, num=i in num) for i, c in enumerate(row)) + "</tr>" for row in rows
    )
    ident = f' id="{escape(css_id)}"' if css_id else ""
    return (
        f"<table{ident}><caption>{escape(caption)}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )
