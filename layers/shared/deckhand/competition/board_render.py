"""A board game's match exports (RULES.md §6.5): individuals, each match a series of games.

The same results document as a card game's (docs/competition.md "Exports of a match-play event"),
read in a board game's terms: a row of ``boards.csv`` per game (who moved first and how that was
decided, who won, how the game ended, each player's points 1 / ½ / 0), and a results page, Chinese
or English, that names players and game points (局分) and says where the lots came from. A game is
one board; the match keeps its games' points doubled (``mp`` 2 / 1 / 0 a game, summed as ``lp``):
these exports halve them. Whether the event is a board game is its rule set's spec's (a board of
pieces, not a deck); nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from ..engines.registry import game
from ..errors import DeckhandError
from .board_words import WORDS, Lang
from .match_doc import (
    IN_PLAY,
    STYLE,
    Cell,
    MatchView,
    as_map,
    as_seq,
    cell_text,
    csv_text,
    html_table,
    match_cells,
    match_views,
    team_names,
)

BOARD_MATCHES_COLUMNS = [
    "round",
    "table",
    "player_a",
    "name_a",
    "player_b",
    "name_b",
    "mp_a",
    "mp_b",
    "points_a",
    "points_b",
    "games",
    "lot",
    "kind",
    "deals",
]

BOARD_GAMES_COLUMNS = [
    "round",
    "table",
    "player_a",
    "player_b",
    "game",
    "board",
    "first",
    "first_by",
    "winner",
    "ended_by",
    "points_a",
    "points_b",
    "deals",
]

BOARD_STANDINGS_COLUMNS = ["place", "player", "name", "mp", "points", "opp_points", "decided_by", "deals"]


def is_board_game(doc: Mapping[str, Any]) -> bool:
    """The event's game is played on a board of pieces (its spec's ``Position``), not dealt. A document
    whose rule set is not known (none given) is one when a match carries ``head_to_head``."""
    try:
        return game(cell_text(doc.get("ruleset"))).position is not None
    except DeckhandError:
        return any("head_to_head" in as_map(m) for m in as_seq(doc.get("matches")))


class Game:
    """One game of a match: the match's entry for it (``result.games``, there once the match is
    decided) and its board's record (there once its round is done); either may be missing."""

    def __init__(self, m: MatchView, number: int, entry: Mapping[str, Any], board: Mapping[str, Any]) -> None:
        record = as_map(board.get("record"))
        ended = as_map(record.get("result"))
        self.number = number
        self.board = cell_text(board.get("board"))
        self.first = cell_text(entry.get("first") or record.get("first"))
        self.first_by = cell_text(record.get("first_by"))
        self.ended_by = cell_text(entry.get("ended_by") or ended.get("why"))
        doubled = as_map(entry.get("mp"))
        points = as_map(ended.get("points"))
        self.doubled: dict[str, int] = {}
        for side in (m.a, m.b):
            if side is not None and side in doubled:
                self.doubled[side] = int(doubled[side])
            elif side is not None and side in points:
                self.doubled[side] = round(2 * float(points[side]))
        self.over = len(self.doubled) == 2  # both players' points known: the game has ended
        a, b = self.doubled.get(m.a or "", 0), self.doubled.get(m.b or "", 0)
        self.winner = (m.a if a > b else m.b if b > a else None) or ""  # a draw, or not over: none


def games_of(m: MatchView) -> list[Game]:
    """The match's games in order: each game number its boards or its result name (a forfeited game
    may have no board)."""
    entries = [as_map(g) for g in as_seq(m.result.get("games"))]
    boards: dict[int, Mapping[str, Any]] = {}
    for b in m.boards:
        n = b.get("game")
        if isinstance(n, int):
            boards.setdefault(n, b)
    numbers = sorted(set(boards) | set(range(1, len(entries) + 1)))
    return [Game(m, n, entries[n - 1] if n <= len(entries) else {}, boards.get(n, {})) for n in numbers]


def doubled_points(m: MatchView, games: list[Game]) -> dict[str, int]:
    """Each player's points in the match, kept doubled: its games' summed; a bye's or a forfeit's
    played no game, so its result's ``lp`` give them — the match won by forfeit, every game of it won
    (4, i.e. 2 points, in a two-game round), 0 to the side that forfeited."""
    sides = [s for s in (m.a, m.b) if s is not None]
    if games:
        return {s: sum(g.doubled.get(s, 0) for g in games) for s in sides}
    lp = as_map(m.result.get("lp")) if m.kind in ("bye", "forfeit") else {}
    return {s: int(lp[s]) for s in sides if isinstance(lp.get(s), int)}


def points_text(doubled: int | None, half: str = ".5") -> str:
    """A score kept doubled as people write it: ``3`` → ``1.5`` (CSV) or ``1½`` (a page's ``half``)."""
    if doubled is None:
        return ""
    whole, odd = divmod(doubled, 2)
    if not odd:
        return str(whole)
    return f"{whole}{half}" if whole or half == ".5" else half


# --- CSV ------------------------------------------------------------------------------------------


def board_matches_csv(doc: Mapping[str, Any]) -> str:
    """One row per match: each player's match points and points from the games (summed: ``1.5``;
    a bye's and a forfeit's: the match won by forfeit, ``2`` and ``0``), how many games were played,
    ``lot`` the player a level tie's lot chose; a bye has no player B, a match in play ``kind``
    ``in_play`` and no result."""
    deals = cell_text(doc.get("deals"))
    rows = []
    for m in match_views(doc):
        games = games_of(m)
        over = m.kind != IN_PLAY
        summed = doubled_points(m, games) if over else {}
        rows.append(
            [
                *match_cells(m),
                m.side_value("mp", m.a),
                m.side_value("mp", m.b),
                points_text(summed.get(m.a or "")),
                points_text(summed.get(m.b or "")),
                str(len(games)) if over and m.kind != "bye" else "",
                cell_text(m.result.get("lot")),
                m.kind,
                deals,
            ]
        )
    return csv_text(BOARD_MATCHES_COLUMNS, rows)


def halved(value: Any, half: str) -> str:
    """A standings' points kept doubled (a whole number), halved; anything else as given."""
    return points_text(value, half) if isinstance(value, int) else cell_text(value)


def board_games_csv(doc: Mapping[str, Any]) -> str:
    """One row per game: players by id, ``first`` the player who moved first and ``first_by`` how
    (``draw``, ``toss``, ``lot``, ``alternate``; empty until the round is done), ``winner`` (empty: a
    draw, or not over), ``ended_by`` (the engine's word or ``forfeit``), each player's points."""
    deals = cell_text(doc.get("deals"))
    rows = []
    for m in match_views(doc):
        for g in games_of(m):
            rows.append(
                [
                    m.round,
                    m.table,
                    m.a or "",
                    m.b or "",
                    str(g.number),
                    g.board,
                    g.first,
                    g.first_by,
                    g.winner,
                    g.ended_by,
                    points_text(g.doubled.get(m.a or "")) if g.over else "",
                    points_text(g.doubled.get(m.b or "")) if g.over else "",
                    deals,
                ]
            )
    return csv_text(BOARD_GAMES_COLUMNS, rows)


# --- HTML -----------------------------------------------------------------------------------------


class Say:
    """The page's words in one language; a key it does not know reads as the document's word."""

    def __init__(self, lang: Lang) -> None:
        self.words = WORDS[lang]

    def __call__(self, key: str, **values: Any) -> str:
        return self.words[key].format(**values)

    def known(self, key: str, fallback: str) -> str:
        return self.words.get(key, fallback)

    def bracket(self, label: str) -> str:
        """``W2-1`` → 胜者组第 2 轮第 1 场 / Winners' bracket, round 2, match 1; ``F`` → 决赛 / Final."""
        if f"bracket.{label}" in self.words:
            return self.words[f"bracket.{label}"]
        rnd, _, n = label[1:].partition("-")
        if label[:1] in ("W", "L") and rnd.isdigit() and n.isdigit():
            return self(f"bracket.{label[:1]}", round=rnd, n=n)
        return label


def _lots(doc: Mapping[str, Any], say: Say) -> str:
    """Where the lots came from, and each round's commitment and revealed secret (``rounds``, as the
    export gives them) in a table."""
    deals = cell_text(doc.get("deals"))
    sentence = say(f"lots.{deals}") if deals in ("secret", "organiser_seed") else ""
    rows: list[list[Cell]] = [
        [cell_text(as_map(r).get("round")), cell_text(as_map(r).get("commitment")), cell_text(as_map(r).get("salt"))]
        for r in as_seq(doc.get("rounds"))
    ]  # fmt: skip
    table = ""
    if rows:
        heads = [say("commitments.round"), say("commitments.commitment"), say("commitments.secret")]
        table = html_table(say("commitments"), heads, rows, num=frozenset({0}), css_id="commitments")
    return (f'<p class="deals">{escape(sentence)}</p>' if sentence else "") + table


def _standings(doc: Mapping[str, Any], say: Say) -> str:
    names = team_names(doc)
    rows: list[list[Cell]] = []
    for s in as_seq(doc.get("standings")):
        s = as_map(s)
        team = cell_text(s.get("team"))
        group = cell_text(s.get("group"))
        step = cell_text(s.get("decided_by"))
        rows.append(
            [
                f"{group} {cell_text(s.get('place'))}" if group else cell_text(s.get("place")),
                cell_text(s.get("name")) or names.get(team, team),
                cell_text(s.get("mp")),
                halved(s.get("lp"), "½"),
                halved(s.get("opp"), "½"),
                "" if step == "none" else say.known(f"step.{step}", step),
            ]
        )
    heads = ["place", "player", "mp", "points", "opp", "decided_by"]
    return html_table(
        say("standings"), [say(f"standings.{h}") for h in heads], rows, num=frozenset({0, 2, 3, 4}), css_id="standings"
    )  # fmt: skip


def result_sentence(m: MatchView, say: Say) -> str:
    """The match's result: who won, its match points and the games' points summed (``1½:½``)."""
    if m.kind == IN_PLAY:
        return say("result.in_play")
    if m.kind == "bye":
        player = m.a if m.a is not None else m.b
        points = points_text(doubled_points(m, []).get(player or ""), "½")
        return say("result.bye", player=m.name(player), mp=m.side_value("mp", player), points=points)
    summed = doubled_points(m, games_of(m))
    score = say(
        "result.score",
        mp_a=m.side_value("mp", m.a),
        mp_b=m.side_value("mp", m.b),
        a=points_text(summed.get(m.a or ""), "½"),
        b=points_text(summed.get(m.b or ""), "½"),
    )
    mp = as_map(m.result.get("mp"))
    winner = next((s for s in (m.a, m.b) if s is not None and mp.get(s) == 2), None)
    if winner is None:
        return say("result.drawn", score=score)
    if m.kind == "forfeit":
        loser = m.b if winner == m.a else m.a
        return say("result.forfeit", loser=m.name(loser), winner=m.name(winner), score=score)
    return say("result.lot" if "lot" in m.result else "result.won", winner=m.name(winner), score=score)


def _games_table(m: MatchView, say: Say) -> str:
    rows: list[list[Cell]] = []
    for g in games_of(m):
        if not g.over:
            result = say("game.in_play")
        else:
            result = say("game.won", winner=m.name(g.winner)) if g.winner else say("game.drawn")
        rows.append(
            [
                str(g.number),
                m.name(g.first) if g.first else "",
                say.known(f"first_by.{g.first_by}", g.first_by) if g.first_by else "",
                result,
                say.known(f"why.{g.ended_by}", g.ended_by) if g.ended_by else "",
                *(points_text(g.doubled.get(s), "½") if g.over else "" for s in (m.a, m.b) if s is not None),
            ]
        )
    if not rows:
        return ""
    heads = [say(f"games.{h}") for h in ("game", "first", "first_by", "result", "ended_by")]
    heads += [say("games.points", player=m.name(s)) for s in (m.a, m.b) if s is not None]
    return html_table(say("games"), heads, rows, num=frozenset({0, 5, 6}))


def _match(m: MatchView, say: Say) -> str:
    if m.kind == "bye" or m.b is None:
        head = say("match.bye", player=m.name(m.a if m.a is not None else m.b))
    else:
        label = cell_text(m.raw.get("bracket"))
        a, b = m.name(m.a), m.name(m.b)
        head = say("match.head", table=m.table, a=a, b=b) if m.table else say("match.versus", a=a, b=b)
        head += say("match.stage", stage=say.bracket(label)) if label else ""
    parts = [f"<h3>{escape(head)}</h3>", f'<p class="kind">{escape(result_sentence(m, say))}</p>']
    parts.append(_games_table(m, say))
    return f'<section class="match">{"".join(parts)}</section>'


def board_results_html(doc: Mapping[str, Any], title: str = "Results", lang: Lang = "zh") -> str:
    """A self-contained page (no scripts, no external files; all text escaped) in ``lang``: the event,
    where the lots came from and each round's commitment, the standings (match points, game points,
    the step that fixed each place), then each round's matches game by game."""
    say = Say(lang)
    event = as_map(doc.get("event"))
    fmt = cell_text(event.get("format"))
    facts = [
        cell_text(event.get("name")),
        say("format", format=say.known(f"format.{fmt}", fmt)) if fmt else "",
        say("ruleset", ruleset=cell_text(doc.get("ruleset"))) if doc.get("ruleset") else "",
    ]
    intro = " · ".join(f for f in facts if f)
    rounds: dict[str, list[MatchView]] = {}
    for m in match_views(doc):
        rounds.setdefault(m.round, []).append(m)
    body = "".join(
        f'<h2 id="round-{escape(r)}">{escape(say("round", round=r))}</h2>' + "".join(_match(m, say) for m in ms)
        for r, ms in rounds.items()
    )  # fmt: skip
    return (
        f'<!DOCTYPE html>\n<html lang="{say("html_lang")}"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{escape(title)}</h1>"
        + (f'<p class="event">{escape(intro)}</p>' if intro else "")
        + _lots(doc, say)
        + f"<h2>{escape(say('standings'))}</h2>{_standings(doc, say)}"
        + f"<h2>{escape(say('matches'))}</h2>{body}</body></html>\n"
    )
