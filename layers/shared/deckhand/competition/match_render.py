"""Exports of a match-play event (RULES.md §4.3): three CSVs and a readable HTML results page.

The input is the event's results document (docs/competition.md "Exports of a match-play event"):
``matches`` (each with its boards and result), ``standings`` and ``deals``. Checking its shape is
the backend's job; these functions only read it, and they never raise on a match still in play
(``"result": null``), a bye (no opponent, no table) or a board that ended before everyone was out.
Every name is the organiser's or a player's input: the HTML page escapes all text it shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from ..engines.common.cards import TOKENS
from .board_render import (
    BOARD_STANDINGS_COLUMNS,
    board_games_csv,
    board_matches_csv,
    board_results_html,
    halved,
    is_board_game,
)
from .board_words import Lang
from .match_doc import IN_PLAY as IN_PLAY  # the site reads these from here
from .match_doc import STYLE, Cell, as_map, as_seq, cell_text, csv_text, html_table, match_cells, match_views
from .match_doc import MatchView as MatchView
from .match_doc import team_names as team_names
from .matchplay.ranking import Step

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


_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


# --- reading the document -------------------------------------------------------------------------


def _step(value: Any) -> Step | None:
    for step in Step:
        if step.value == value:
            return step
    return None


def _step_words(value: Any) -> str:
    step = _step(value)
    return STEP_WORDS[step] if step is not None else cell_text(value)


def _transfers(items: Any, *, cards: bool = False) -> list[tuple[Any, Any, str]]:
    out = []
    for t in as_seq(items):
        t = as_map(t)
        card = cell_text(t.get("card"))
        out.append((t.get("from"), t.get("to"), _card_words(card) if cards else card))
    return out


def _penalties(items: Any) -> list[tuple[Any, str]]:
    out = []
    for p in as_seq(items):
        p = list(as_seq(p)) + [None, None]
        out.append((p[0], cell_text(p[1])))
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


def match_results_csv(doc: dict[str, Any]) -> str:
    """One row per match, in the document's order. A bye has no table, no pair B and no levels; a
    match still in play has ``kind`` ``in_play`` and no result columns. A board game's: its own
    columns (board_render.py)."""
    if is_board_game(doc):
        return board_matches_csv(doc)
    deals = cell_text(doc.get("deals"))
    rows = [
        [
            *match_cells(m),
            m.side_value("levels", m.a),
            m.side_value("levels", m.b),
            m.side_value("mp", m.a),
            m.side_value("mp", m.b),
            m.side_value("lp", m.a),
            m.side_value("lp", m.b),
            m.kind,
            deals,
        ]
        for m in match_views(doc)
    ]
    return csv_text(MATCH_RESULTS_COLUMNS, rows)


def _transfer_summary(items: Any) -> str:
    return "; ".join(f"{cell_text(f)}->{cell_text(t)} {card}" for f, t, card in _transfers(items))


def match_boards_csv(doc: dict[str, Any]) -> str:
    """One row per board played. Levels before and after per pair; the finishing order as seats
    (``0 2 1 3``, first out first) and as the pairs' names by place; tribute and returns as
    ``from->to card`` (seats, card tokens) separated by ``; ``; penalties as ``seat kind``. A board
    game's: one row per game, in its own columns (board_render.py)."""
    if is_board_game(doc):
        return board_games_csv(doc)
    deals = cell_text(doc.get("deals"))
    rows = []
    for m in match_views(doc):
        for b in m.boards:
            before, after = as_map(b.get("levels_before")), as_map(b.get("levels_after"))
            side = b.get("level_side")
            by_place = [""] * 4
            for i, seat in enumerate(as_seq(b.get("order"))[:4]):
                team = m.seat_team.get(seat) if isinstance(seat, int) else None
                by_place[i] = m.name(team)
            rows.append(
                [
                    m.round,
                    m.table,
                    m.a or "",
                    m.b or "",
                    cell_text(b.get("game")),
                    cell_text(b.get("board")),
                    cell_text(side),
                    cell_text(before.get(side)) if isinstance(side, str) else "",
                    cell_text(before.get(m.a)) if m.a else "",
                    cell_text(before.get(m.b)) if m.b else "",
                    cell_text(after.get(m.a)) if m.a else "",
                    cell_text(after.get(m.b)) if m.b else "",
                    cell_text(b.get("order")),
                    *by_place,
                    _transfer_summary(b.get("tribute")),
                    _transfer_summary(b.get("returns")),
                    "; ".join(f"{cell_text(s)} {k}" for s, k in _penalties(b.get("penalties"))),
                    cell_text(b.get("ended_by")),
                    deals,
                ]
            )
    return csv_text(MATCH_BOARDS_COLUMNS, rows)


def match_standings_csv(doc: dict[str, Any]) -> str:
    """One row per pair, best first; ``decided_by`` is the ranking step's name (``mp``, ``lp``,
    ``ld``, ``h2h``, ``opp``, ``shared``, ``lot``, ``none``). A board game's: one per player, its
    game points and opponents' halved from the doubled ``lp`` and ``opp`` (board_render.py)."""
    board = is_board_game(doc)
    deals = cell_text(doc.get("deals"))
    names = team_names(doc)
    rows = []
    for s in as_seq(doc.get("standings")):
        s = as_map(s)
        team = cell_text(s.get("team"))
        rows.append(
            [
                cell_text(s.get("place")),
                team,
                cell_text(s.get("name")) or names.get(team, team),
                cell_text(s.get("mp")),
                *(halved(s.get(k), ".5") if board else cell_text(s.get(k)) for k in ("lp", "opp")),
                cell_text(s.get("decided_by")),
                deals,
            ]
        )
    return csv_text(BOARD_STANDINGS_COLUMNS if board else MATCH_STANDINGS_COLUMNS, rows)


# --- HTML -----------------------------------------------------------------------------------------


def _deals_sentence(deals: Any) -> str:
    if deals == "secret":
        return "Deals: secret — each round's deals were committed to before play and revealed after."
    if deals == "organiser_seed":
        return "Deals: from the organiser's seed — anyone with the seed could know every board."
    return f"Deals: {cell_text(deals)}" if deals else ""


def _standings_html(doc: Mapping[str, Any]) -> str:
    names = team_names(doc)
    rows: list[list[Cell]] = []
    used: list[Step] = []
    for s in as_seq(doc.get("standings")):
        s = as_map(s)
        team = cell_text(s.get("team"))
        step = _step(s.get("decided_by"))
        if step is not None and step in _STEP_EXPLAINED and step not in used:
            used.append(step)
        group = cell_text(s.get("group"))
        rows.append(
            [
                f"{group} {cell_text(s.get('place'))}" if group else cell_text(s.get("place")),
                cell_text(s.get("name")) or names.get(team, team),
                cell_text(s.get("mp")),
                cell_text(s.get("lp")),
                cell_text(s.get("opp")),
                _step_words(s.get("decided_by")),
            ]
        )
    table = html_table(
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
    mp = as_map(m.result.get("mp"))
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


def _board_rows(m: MatchView) -> list[list[Cell]]:
    rows: list[list[Cell]] = []
    for b in m.boards:
        before, after = as_map(b.get("levels_before")), as_map(b.get("levels_after"))
        side = b.get("level_side")
        played_at = ""
        if isinstance(side, str):
            played_at = f"{cell_text(before.get(side))} ({m.name(side)})"
        climb = [
            f"{cell_text(before.get(t))} → {cell_text(after.get(t))}" if t in before or t in after else ""
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
                cell_text(b.get("game")),
                cell_text(b.get("board")),
                played_at,
                *climb,
                finish or "—",
                tribute or "—",
                returns or "—",
                penalties or "—",
                cell_text(b.get("ended_by")),
            ]
        )
    return rows


def _match_html(m: MatchView) -> str:
    if m.kind == "bye" or (m.b is None and m.a is not None):
        head = f"Bye: {m.name(m.a)}"
    else:
        table = f"Table {m.table}: " if m.table else ""
        label = cell_text(m.raw.get("bracket"))
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
        parts.append(html_table("Boards", headers, rows, num=frozenset({0, 1})))
    return f'<section class="match">{"".join(parts)}</section>'


def match_results_html(doc: dict[str, Any], title: str = "Results", lang: Lang | None = None) -> str:
    """A self-contained page: the standings with the step that decided each place, then each round's
    matches board by board (levels climbing, finishing order by seat and pair, tribute and returns,
    penalties); byes, forfeits and matches in play shown as such. No scripts, no external files.
    A board game's is its own page (board_render.py), in ``lang`` (Chinese unless asked in English);
    a card game's is in English."""
    if is_board_game(doc):
        return board_results_html(doc, title, lang or "zh")
    event = as_map(doc.get("event"))
    facts = [
        cell_text(event.get("name")),
        f"format: {cell_text(event.get('format'))}" if event.get("format") else "",
        f"rule set: {cell_text(doc.get('ruleset'))}" if doc.get("ruleset") else "",
    ]
    intro = " · ".join(f for f in facts if f)
    deals = _deals_sentence(doc.get("deals"))
    rounds: dict[str, list[MatchView]] = {}
    for m in match_views(doc):
        rounds.setdefault(m.round, []).append(m)
    body = "".join(
        f'<h2 id="round-{escape(r)}">Round {escape(r)}</h2>' + "".join(_match_html(m) for m in ms)
        for r, ms in rounds.items()
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{escape(title)}</h1>"
        + (f'<p class="event">{escape(intro)}</p>' if intro else "")
        + (f'<p class="deals">{escape(deals)}</p>' if deals else "")
        + f"<h2>Standings</h2>{_standings_html(doc)}<h2>Matches</h2>{body}</body></html>\n"
    )
