"""Exports of a match-play event (RULES.md §4.3): three CSVs and a readable HTML results page.

The input is the event's results document (docs/competition.md "Exports of a match-play event"):
``matches`` (each with its boards and result), ``standings`` and ``deals``. Checking its shape is
the backend's job; these functions only read it, and they never raise on a match still in play
(``"result": null``), a bye (no opponent, no table) or a board that ended before everyone was out.
Every name is the organiser's or a player's input: the HTML page escapes all text it shows.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Any

from ..engines.common.cards import TOKENS
from .csv_cells import SafeWriter
from .matchplay.ranking import Step

IN_PLAY = "in_play"  # the ``kind`` the CSV gives a match whose result is not in yet

# The step of the ranking chain that fixed a place (``decided_by``), in a player's words.
STEP_WORDS: dict[Step, str] = {
    Step.NONE: "",
    Step.MP: "match points",
    Step.LP: "level points",
    Step.LD: "level difference",
    Step.H2H: "head-to-head",
    Step.OPP: "opponents' level points",
    Step.SHARED: "shared place",
    Step.LOT: "lot",
    Step.KNOCKOUT: "knockout round reached",
    Step.CUT: "stage reached",
}

_STEP_EXPLAINED: dict[Step, str] = {
    Step.MP: "more match points (2 a win, 1 a draw).",
    Step.LP: "equal match points; more level points.",
    Step.LD: "equal match points; a larger level difference.",
    Step.H2H: "equal match points and level points; more level points in the games among the tied pairs.",
    Step.OPP: "still tied; more opponents' level points (each opponent's total, once per game played).",
    Step.SHARED: "tied on every step: the place is shared.",
    Step.LOT: "tied on every step: the place was drawn by lot.",
    Step.KNOCKOUT: "a knockout: the later the round a pair was knocked out in, the better its place.",
    Step.CUT: "a staged event: pairs that played on (past a cut, or into the knockout) rank above the rest.",
}

# A bracket's match (``bracket`` in the document) in words.
_BRACKETS = {"F": "Final", "F2": "Reset final", "3rd": "3rd-place match"}


def bracket_words(label: str) -> str:
    """``W2-1`` → "Winners' bracket, round 2, match 1"; ``F`` → "Final"."""
    if label in _BRACKETS:
        return _BRACKETS[label]
    part = {"W": "Winners' bracket", "L": "Losers' bracket"}.get(label[:1])
    rnd, _, number = label[1:].partition("-")
    if part is None or not rnd.isdigit() or not number.isdigit():
        return label
    return f"{part}, round {rnd}, match {number}"


_ORDINALS = ("1st", "2nd", "3rd", "4th")
_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


# --- reading the document -------------------------------------------------------------------------


def _text(value: Any) -> str:
    """A cell's text: None is empty, a list is its items separated by spaces."""
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return " ".join(_text(v) for v in value)
    return str(value)


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _seq(value: Any) -> Sequence[Any]:
    return value if isinstance(value, list | tuple) else ()


def _step(value: Any) -> Step | None:
    for step in Step:
        if step.value == value:
            return step
    return None


def _step_words(value: Any) -> str:
    step = _step(value)
    return STEP_WORDS[step] if step is not None else _text(value)


def _sides(match: Mapping[str, Any]) -> tuple[str | None, str | None]:
    pairs = list(_seq(match.get("pairs")))
    pairs += [None] * (2 - len(pairs))
    a, b = pairs[0], pairs[1]
    return (None if a is None else str(a)), (None if b is None else str(b))


def _kind(match: Mapping[str, Any]) -> str:
    result = match.get("result")
    if not isinstance(result, Mapping):
        return IN_PLAY
    return _text(result.get("kind")) or ("bye" if match.get("bye") else "played")


class MatchView:
    """One match with the lookups every renderer needs: names, seats, players."""

    def __init__(self, match: Mapping[str, Any], names: Mapping[str, str]) -> None:
        self.raw = match
        self.a, self.b = _sides(match)
        self.kind = _kind(match)
        self.result = _map(match.get("result"))
        own = _map(match.get("names"))
        self.names = {t: _text(own.get(t)) or names.get(t, t) for t in (self.a, self.b) if t is not None}
        self.seat_team: dict[int, str] = {}
        self.seat_player: dict[int, str] = {}
        players = _map(match.get("players"))
        for team, seats in _map(match.get("seats")).items():
            for i, seat in enumerate(_seq(seats)):
                if isinstance(seat, int):
                    self.seat_team[seat] = str(team)
                    team_players = _seq(players.get(team))
                    if i < len(team_players):
                        self.seat_player[seat] = _text(team_players[i])

    @property
    def round(self) -> str:
        return _text(self.raw.get("round"))

    @property
    def table(self) -> str:
        return _text(self.raw.get("table"))

    @property
    def boards(self) -> list[Mapping[str, Any]]:
        return [b for b in _seq(self.raw.get("boards")) if isinstance(b, Mapping)]

    def name(self, team: Any) -> str:
        if team is None:
            return ""
        return self.names.get(str(team), str(team))

    def side_value(self, key: str, team: str | None) -> str:
        """``result[key][team]`` as text (levels, mp, lp); empty when not there."""
        return "" if team is None else _text(_map(self.result.get(key)).get(team))

    def seat_name(self, seat: Any) -> str:
        """``seat 2 · p3 · Li & Wang`` (as much of it as the document gives)."""
        parts = [f"seat {_text(seat)}"]
        if isinstance(seat, int):
            if seat in self.seat_player:
                parts.append(self.seat_player[seat])
            if seat in self.seat_team:
                parts.append(self.name(self.seat_team[seat]))
        return " · ".join(parts)

    def finishers(self, board: Mapping[str, Any]) -> list[tuple[str, Any]]:
        """(place, seat) in finishing order; with three out the fourth seat is last by elimination;
        seats not out when the board ended (a side finished 1st and 2nd) are listed as ``not out``."""
        order = [s for s in _seq(board.get("order"))]
        out: list[tuple[str, Any]] = [
            (_ORDINALS[i] if i < len(_ORDINALS) else f"{i + 1}th", s) for i, s in enumerate(order)
        ]
        rest = [s for s in sorted(self.seat_team) if s not in order]
        if len(order) == 3 and len(rest) == 1:
            return [*out, ("4th", rest[0])]
        return out + [("not out", s) for s in rest]


def team_names(doc: Mapping[str, Any]) -> dict[str, str]:
    """Every pair's name the document gives (the matches' names, then the standings')."""
    names: dict[str, str] = {}
    for s in _seq(doc.get("standings")):
        s = _map(s)
        if s.get("team") is not None and s.get("name"):
            names[str(s["team"])] = _text(s["name"])
    for m in _seq(doc.get("matches")):
        for team, name in _map(_map(m).get("names")).items():
            if name:
                names[str(team)] = _text(name)
    return names


def _matches(doc: Mapping[str, Any]) -> list[MatchView]:
    names = team_names(doc)
    return [MatchView(m, names) for m in _seq(doc.get("matches")) if isinstance(m, Mapping)]


def _transfers(items: Any, *, cards: bool = False) -> list[tuple[Any, Any, str]]:
    out = []
    for t in _seq(items):
        t = _map(t)
        card = _text(t.get("card"))
        out.append((t.get("from"), t.get("to"), _card_words(card) if cards else card))
    return out


def _penalties(items: Any) -> list[tuple[Any, str]]:
    out = []
    for p in _seq(items):
        p = list(_seq(p)) + [None, None]
        out.append((p[0], _text(p[1])))
    return out


def _card_words(token: str) -> str:
    """``SA`` → ``♠A``, ``HT`` → ``♥10``, ``BJ`` → ``small joker``; anything else as given."""
    if token not in TOKENS:
        return token
    if token == "BJ":
        return "small joker"
    if token == "RJ":
        return "big joker"
    rank = "10" if token[1] == "T" else token[1]
    return _SUIT_SYMBOLS[token[0]] + rank


# --- CSV ------------------------------------------------------------------------------------------

MATCH_RESULTS_COLUMNS = [
    "round",
    "table",
    "pair_a",
    "name_a",
    "pair_b",
    "name_b",
    "levels_a",
    "levels_b",
    "mp_a",
    "mp_b",
    "lp_a",
    "lp_b",
    "kind",
    "deals",
]

MATCH_BOARDS_COLUMNS = [
    "round",
    "table",
    "pair_a",
    "pair_b",
    "game",
    "board",
    "level_side",
    "level_played",
    "levels_before_a",
    "levels_before_b",
    "levels_after_a",
    "levels_after_b",
    "order_seats",
    "first",
    "second",
    "third",
    "fourth",
    "tribute",
    "returns",
    "penalties",
    "ended_by",
    "deals",
]

MATCH_STANDINGS_COLUMNS = ["place", "team", "name", "mp", "lp", "opp", "decided_by", "deals"]


def _csv(header: list[str], rows: Iterable[list[str]]) -> str:
    """Rows ending in ``\n``. A carriage return in a cell is written as a line feed: with this line
    ending Python's writer leaves a lone ``\r`` unquoted, and readers would split the row there."""
    out = io.StringIO()
    writer = SafeWriter(out)
    writer.writerow(header)
    writer.writerows([c.replace("\r\n", "\n").replace("\r", "\n") for c in row] for row in rows)
    return out.getvalue()


def match_results_csv(doc: dict[str, Any]) -> str:
    """One row per match, in the document's order. A bye has no table, no pair B and no levels; a
    match still in play has ``kind`` ``in_play`` and no result columns."""
    deals = _text(doc.get("deals"))
    rows = [
        [
            m.round,
            m.table,
            m.a or "",
            m.name(m.a),
            m.b or "",
            m.name(m.b),
            m.side_value("levels", m.a),
            m.side_value("levels", m.b),
            m.side_value("mp", m.a),
            m.side_value("mp", m.b),
            m.side_value("lp", m.a),
            m.side_value("lp", m.b),
            m.kind,
            deals,
        ]
        for m in _matches(doc)
    ]
    return _csv(MATCH_RESULTS_COLUMNS, rows)


def _transfer_summary(items: Any) -> str:
    return "; ".join(f"{_text(f)}->{_text(t)} {card}" for f, t, card in _transfers(items))


def match_boards_csv(doc: dict[str, Any]) -> str:
    """One row per board played. Levels before and after per pair; the finishing order as seats
    (``0 2 1 3``, first out first) and as the pairs' names by place; tribute and returns as
    ``from->to card`` (seats, card tokens) separated by ``; ``; penalties as ``seat kind``."""
    deals = _text(doc.get("deals"))
    rows = []
    for m in _matches(doc):
        for b in m.boards:
            before, after = _map(b.get("levels_before")), _map(b.get("levels_after"))
            side = b.get("level_side")
            by_place = [""] * 4
            for i, seat in enumerate(_seq(b.get("order"))[:4]):
                team = m.seat_team.get(seat) if isinstance(seat, int) else None
                by_place[i] = m.name(team)
            rows.append(
                [
                    m.round,
                    m.table,
                    m.a or "",
                    m.b or "",
                    _text(b.get("game")),
                    _text(b.get("board")),
                    _text(side),
                    _text(before.get(side)) if isinstance(side, str) else "",
                    _text(before.get(m.a)) if m.a else "",
                    _text(before.get(m.b)) if m.b else "",
                    _text(after.get(m.a)) if m.a else "",
                    _text(after.get(m.b)) if m.b else "",
                    _text(b.get("order")),
                    *by_place,
                    _transfer_summary(b.get("tribute")),
                    _transfer_summary(b.get("returns")),
                    "; ".join(f"{_text(s)} {k}" for s, k in _penalties(b.get("penalties"))),
                    _text(b.get("ended_by")),
                    deals,
                ]
            )
    return _csv(MATCH_BOARDS_COLUMNS, rows)


def match_standings_csv(doc: dict[str, Any]) -> str:
    """One row per pair, best first; ``decided_by`` is the ranking step's name (``mp``, ``lp``,
    ``ld``, ``h2h``, ``opp``, ``shared``, ``lot``, ``none``)."""
    deals = _text(doc.get("deals"))
    names = team_names(doc)
    rows = []
    for s in _seq(doc.get("standings")):
        s = _map(s)
        team = _text(s.get("team"))
        rows.append(
            [
                _text(s.get("place")),
                team,
                _text(s.get("name")) or names.get(team, team),
                _text(s.get("mp")),
                _text(s.get("lp")),
                _text(s.get("opp")),
                _text(s.get("decided_by")),
                deals,
            ]
        )
    return _csv(MATCH_STANDINGS_COLUMNS, rows)


# --- HTML -----------------------------------------------------------------------------------------

_STYLE = """
body{font-family:system-ui,sans-serif;margin:2rem;color:#222;max-width:72rem}
table{border-collapse:collapse;margin:0 0 1.5rem}
th,td{border:1px solid #ccc;padding:.25rem .6rem;text-align:left;vertical-align:top}
th{background:#f0f0f0}td.num{text-align:right}
caption{text-align:left;font-weight:600;padding:.3rem 0}
section.match{margin:0 0 1rem}p.kind{font-weight:600}
""".strip()

# A cell is text (escaped) or lines of text (each escaped, joined by <br>); nothing else reaches HTML.
_Cell = str | list[str]


def _cell(value: _Cell, *, num: bool = False) -> str:
    lines = [value] if isinstance(value, str) else value
    klass = ' class="num"' if num else ""
    return f"<td{klass}>{'<br>'.join(escape(line) for line in lines)}</td>"


def _html_table(
    caption: str,
    headers: list[str],
    rows: list[list[_Cell]],
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


def _deals_sentence(deals: Any) -> str:
    if deals == "secret":
        return "Deals: secret — each round's deals were committed to before play and revealed after."
    if deals == "organiser_seed":
        return "Deals: from the organiser's seed — anyone with the seed could know every board."
    return f"Deals: {_text(deals)}" if deals else ""


def _standings_html(doc: Mapping[str, Any]) -> str:
    names = team_names(doc)
    rows: list[list[_Cell]] = []
    used: list[Step] = []
    for s in _seq(doc.get("standings")):
        s = _map(s)
        team = _text(s.get("team"))
        step = _step(s.get("decided_by"))
        if step is not None and step in _STEP_EXPLAINED and step not in used:
            used.append(step)
        group = _text(s.get("group"))
        rows.append(
            [
                f"{group} {_text(s.get('place'))}" if group else _text(s.get("place")),
                _text(s.get("name")) or names.get(team, team),
                _text(s.get("mp")),
                _text(s.get("lp")),
                _text(s.get("opp")),
                _step_words(s.get("decided_by")),
            ]
        )
    table = _html_table(
        "Standings",
        ["Place", "Pair", "Match points", "Level points", "Opponents' level points", "Place decided by"],
        rows,
        num=frozenset({0, 2, 3, 4}),
        css_id="standings",
    )
    legend = "".join(
        f"<li><b>{escape(STEP_WORDS[step])}</b>: {escape(_STEP_EXPLAINED[step])}</li>"
        for step in sorted(used, key=list(Step).index)
    )
    return table + (f'<ul class="steps">{legend}</ul>' if legend else "")


def result_sentence(m: MatchView) -> str:
    mp = _map(m.result.get("mp"))
    if m.kind == IN_PLAY:
        return "In play: no result yet."
    if m.kind == "bye":
        team = m.a if m.a is not None else m.b
        return (
            f"Bye: {m.name(team)} has no opponent this round and scores as a forfeit win, "
            f"{m.side_value('mp', team)} match points and {m.side_value('lp', team)} level points."
        )
    score = (
        f"match points {m.side_value('mp', m.a)}:{m.side_value('mp', m.b)}, "
        f"level points {m.side_value('lp', m.a)}:{m.side_value('lp', m.b)}"
    )
    winner = next((t for t in (m.a, m.b) if t is not None and mp.get(t) == 2), None)
    if m.kind == "forfeit":
        loser = m.b if winner == m.a else m.a
        if winner is None:
            return f"Forfeit: {score}."
        return f"Forfeit: {m.name(loser)} forfeited; {m.name(winner)} wins, {score}."
    levels = ""
    if m.result.get("levels") is not None:
        levels = f", final levels {m.side_value('levels', m.a)}:{m.side_value('levels', m.b)}"
    if winner is None:
        return f"Draw: {score}{levels}."
    return f"{m.name(winner)} wins: {score}{levels}."


def _board_rows(m: MatchView) -> list[list[_Cell]]:
    rows: list[list[_Cell]] = []
    for b in m.boards:
        before, after = _map(b.get("levels_before")), _map(b.get("levels_after"))
        side = b.get("level_side")
        played_at = ""
        if isinstance(side, str):
            played_at = f"{_text(before.get(side))} ({m.name(side)})"
        climb = [
            f"{_text(before.get(t))} → {_text(after.get(t))}" if t in before or t in after else ""
            for t in (m.a, m.b)
            if t is not None
        ]
        finish = [f"{place}: {m.seat_name(seat)}" for place, seat in m.finishers(b)]
        tribute = [
            f"{m.seat_name(f)} → {m.seat_name(t)}: {card}"
            for f, t, card in _transfers(b.get("tribute"), cards=True)
        ]
        returns = [
            f"{m.seat_name(f)} → {m.seat_name(t)}: {card}"
            for f, t, card in _transfers(b.get("returns"), cards=True)
        ]
        penalties = [f"{m.seat_name(s)}: {k}" for s, k in _penalties(b.get("penalties"))]
        rows.append(
            [
                _text(b.get("game")),
                _text(b.get("board")),
                played_at,
                *climb,
                finish or "—",
                tribute or "—",
                returns or "—",
                penalties or "—",
                _text(b.get("ended_by")),
            ]
        )
    return rows


def _match_html(m: MatchView) -> str:
    if m.kind == "bye" or (m.b is None and m.a is not None):
        head = f"Bye: {m.name(m.a)}"
    else:
        table = f"Table {m.table}: " if m.table else ""
        label = _text(m.raw.get("bracket"))
        stage = f" ({bracket_words(label)})" if label else ""
        head = f"{table}{m.name(m.a)} v {m.name(m.b)}{stage}"
    who = []
    for team in (m.a, m.b):
        seats = [s for s in sorted(m.seat_team) if team is not None and m.seat_team[s] == team]
        if seats:
            sitting = ", ".join(
                f"seat {s}" + (f" ({m.seat_player[s]})" if s in m.seat_player else "") for s in seats
            )
            who.append(f"{m.name(team)}: {sitting}")
    parts = [f"<h3>{escape(head)}</h3>"]
    if who:
        parts.append(f'<p class="seats">{"<br>".join(escape(w) for w in who)}</p>')
    parts.append(f'<p class="kind">{escape(result_sentence(m))}</p>')
    rows = _board_rows(m)
    if rows:
        headers = ["Game", "Board", "Level played (side)"]
        headers += [f"Levels of {m.name(t)}" for t in (m.a, m.b) if t is not None]
        headers += ["Finishing order", "Tribute", "Returns", "Penalties", "Ended by"]
        parts.append(_html_table("Boards", headers, rows, num=frozenset({0, 1})))
    return f'<section class="match">{"".join(parts)}</section>'


def match_results_html(doc: dict[str, Any], title: str = "Results") -> str:
    """A self-contained page: the standings with the step that decided each place, then each round's
    matches board by board (levels climbing, finishing order by seat and pair, tribute and returns,
    penalties); byes, forfeits and matches in play shown as such. No scripts, no external files."""
    event = _map(doc.get("event"))
    facts = [
        _text(event.get("name")),
        f"format: {_text(event.get('format'))}" if event.get("format") else "",
        f"rule set: {_text(doc.get('ruleset'))}" if doc.get("ruleset") else "",
    ]
    intro = " · ".join(f for f in facts if f)
    deals = _deals_sentence(doc.get("deals"))
    rounds: dict[str, list[MatchView]] = {}
    for m in _matches(doc):
        rounds.setdefault(m.round, []).append(m)
    body = "".join(
        f'<h2 id="round-{escape(r)}">Round {escape(r)}</h2>' + "".join(_match_html(m) for m in ms)
        for r, ms in rounds.items()
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{escape(title)}</h1>"
        + (f'<p class="event">{escape(intro)}</p>' if intro else "")
        + (f'<p class="deals">{escape(deals)}</p>' if deals else "")
        + f"<h2>Standings</h2>{_standings_html(doc)}<h2>Matches</h2>{body}</body></html>\n"
    )
