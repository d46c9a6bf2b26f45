"""What the results pages show, read from an export (duplicate or match event) into plain rows.

The export is the only input, so any site can be rebuilt from it. Readers are tolerant: a field the
export lacks (an older export, a round in play) leaves its part of a page out rather than failing.
Hand records and play records appear only where the export carries them — the service puts them in
only once every table of the board's group has finished it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deckhand.competition.board_render import doubled_points, is_board_game, points_text
from deckhand.competition.match_render import IN_PLAY, MatchView, team_names
from deckhand.errors import DeckhandError

from .games import BracketMatch, GameView, game_points, read_bracket, read_games
from .words import ZH, Words

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = frozenset("HD")


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _seq(value: Any) -> Sequence[Any]:
    return value if isinstance(value, list | tuple) else []


def card_label(token: str, w: Words) -> tuple[str, bool]:
    """A card token as people read it (``SA`` → ``A♠``), and whether it is red."""
    if token in ("BJ", "RJ"):
        return (w.card(token), token == "RJ")
    if len(token) >= 2 and token[0] in SUITS:
        rank = token[1:].replace("T", "10")
        return f"{rank}{SUITS[token[0]]}", token[0] in RED
    return token, False


@dataclass
class Card:
    token: str
    label: str
    red: bool
    name: str  # in words, for a screen reader: 红桃10 / 10 of hearts


def cards(tokens: Any, w: Words) -> list[Card]:
    return [Card(str(t), *card_label(str(t), w), w.card(str(t))) for t in _seq(tokens)]


@dataclass
class TravellerRow:
    table: str
    seat: int
    player: str
    name: str
    score: Any
    mp: Any = ""
    mp_pct: Any = ""
    rank_points: Any = ""
    adjusted: str = ""


@dataclass
class PlayStep:
    seat: int
    kind: str
    cards: list[Card]


@dataclass
class TablePlay:
    table: str
    steps: list[PlayStep]
    deal_number: int = 1
    hands: list[list[Card]] | None = None  # this table's own deal, when a redeal made it differ
    kitty: list[Card] = field(default_factory=list)


def _int(value: Any, where: str) -> int:
    """A whole number of the export, or an error naming where it is (never a traceback)."""
    if isinstance(value, bool):
        raise DeckhandError(f"{where}: expected a whole number, got {value!r}")
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        raise DeckhandError(f"{where}: expected a whole number, got {value!r}") from None


def play_steps(steps: Any, w: Words) -> list[PlayStep]:
    """A play record's steps in words; a redeal (seat -1) reads as one."""
    out = []
    for s in _seq(steps):
        s = _map(s)
        seat = _int(s.get("s"), "play step seat")
        kind = str(s.get("t") or "")
        if kind == "redeal":
            out.append(PlayStep(seat, w("step.redeal", n=_int(s.get("n"), "redeal number") + 1), []))
        elif kind == "step":  # a game dealt in steps: the cards out when the next decision came
            out.append(PlayStep(seat, w("step.cards_out", n=_int(s.get("n"), "cards dealt")), []))
        else:
            out.append(PlayStep(seat, w.known(f"action.{kind}", kind), cards(s.get("c"), w)))
    return out


def table_play(p: Mapping[str, Any], w: Words) -> TablePlay:
    own = _map(p.get("deal"))
    hands = [cards(h, w) for h in _seq(own.get("hands"))] or None
    number = _int(p.get("deal_number") or 1, "play deal_number")
    return TablePlay(
        str(p.get("table")), play_steps(p.get("steps"), w), number, hands, cards(own.get("kitty"), w)
    )


@dataclass
class BoardPage:
    slug: str
    round: int
    board: str
    group: str
    hands: list[list[Card]] | None
    kitty: list[Card]
    deal_number: int | None
    traveller: list[TravellerRow]
    plays: list[TablePlay]


@dataclass
class CardRow:
    round: int
    board: str
    table: str
    seat: int
    opponents: list[str]
    score: Any
    mp: Any
    rank_points: Any
    board_slug: str


@dataclass
class ScoreCard:
    player: str
    name: str
    number: Any
    rows: list[CardRow]
    round_totals: list[tuple[int, float]]


@dataclass
class StandingRow:
    place: Any
    team: str
    name: str
    number: Any
    values: list[Any]
    decided_by: str  # in words
    group: str = ""
    card: str | None = None


@dataclass
class MatchBoardRow:
    game: Any
    board: Any
    level_side: str
    before: str
    after: str
    order: str
    tribute: str
    ended_by: str
    hands: list[list[Card]] | None = None  # the hand record, once the round is done
    steps: list[PlayStep] = field(default_factory=list)  # the play record
    trump: str = ""  # a game that declares trump: dealer, trump, declarer, points, kitty


def trump_summary(b: Mapping[str, Any], w: Words) -> str:
    """A board of a game that declares trump (its export has ``trump``): who dealt, the trump and who
    declared it, the defenders' points and what the kitty counted; "" for other games."""
    if "trump" not in b or "defender_points" not in b:
        return ""
    trump = b.get("trump")
    suit = w("trump.none") if trump is None else w("trump.suit", suit=SUITS.get(str(trump), str(trump)))
    declarer = b.get("declarer")
    declared = w("trump.declared", seat=declarer) if declarer is not None else ""
    kitty = " ".join(card_label(str(c), w)[0] for c in _seq(b.get("kitty")))
    kitty_text = w("trump.kitty", cards=kitty, times=b.get("kitty_multiplier")) if kitty else ""
    return w(
        "trump.summary",
        dealer=b.get("dealer"),
        trump=suit,
        declared=declared,
        points=b.get("defender_points"),
        kitty=kitty_text,
    )


@dataclass
class MatchPage:
    slug: str
    round: int
    table: str
    heading: str
    sentence: str
    boards: list[MatchBoardRow]
    games: list[GameView] = field(default_factory=list)  # a board game's games with their records


@dataclass
class Site:
    title: str
    header: list[tuple[str, str]]
    match: bool
    columns: list[tuple[str, str]]  # (short head, its full words)
    standings: list[StandingRow]
    steps_used: list[tuple[str, str]]  # (a tie-break step in words, what it means)
    boards: list[BoardPage] = field(default_factory=list)
    cards: list[ScoreCard] = field(default_factory=list)
    matches: list[MatchPage] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    live: Live | None = None
    refresh: bool = False
    bracket: list[tuple[str, list[BracketMatch]]] = field(default_factory=list)  # a board game's knockout
    individuals: bool = False  # a board game's match event: its entrants are players, not pairs


@dataclass
class LiveTable:
    table: str
    done: int
    total: int
    state: str


@dataclass
class Live:
    """The round in play as the public sees it: how far each table is (never a score of it)."""

    round: int
    status: str
    tables: list[LiveTable]
    commitment: str = ""  # published before the round's play: the salt that proves it comes after


def read_live(status: Mapping[str, Any], w: Words) -> Live:
    tables = []
    for t in _seq(status.get("tables")):
        t = _map(t)
        boards = [_map(b) for b in _seq(t.get("boards"))]
        if "match" in t:
            match = _map(t.get("match"))
            state = (
                w("live.match_over")
                if match.get("status") == "done"
                else w("live.game", n=int(match.get("games") or 0) + 1)
            )
        else:
            unplayed = sum(1 for b in boards if b.get("not_played"))
            state = (
                w("live.stopped")
                if any(b.get("status") == "stopped" for b in boards)
                else w("live.not_played", n=unplayed)
                if unplayed
                else ""
            )
        done = sum(1 for b in boards if b.get("status") == "ended")
        tables.append(LiveTable(str(t.get("table")), done, len(boards), state))
    commitment = status.get("commitment")
    return Live(
        int(status.get("round") or 0),
        w.known(f"live.status.{status.get('status')}", status.get("status")),
        tables,
        commitment if isinstance(commitment, str) else "",
    )


def _names(doc: Mapping[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """Names and registration numbers by player or pair id, from whatever the export carries."""
    names: dict[str, str] = {}
    numbers: dict[str, Any] = {}
    for key in ("players", "registrations", "pairs"):
        for p in _seq(doc.get(key)):
            p = _map(p)
            pid = str(p.get("id") or p.get("player") or "")
            if pid:
                if p.get("name"):
                    names[pid] = str(p["name"])
                if p.get("number") is not None:
                    numbers[pid] = p["number"]
    for s in [*_seq(_map(doc.get("standings")).get("standings")), *_seq(doc.get("standings"))]:
        s = _map(s)
        pid = str(s.get("player") or s.get("team") or "")
        if pid and s.get("name"):
            names.setdefault(pid, str(s["name"]))
    for m in _seq(doc.get("matches")):
        for pid, name in _map(_map(m).get("names")).items():
            names.setdefault(str(pid), str(name))
    return names, numbers


def _header(doc: Mapping[str, Any], w: Words) -> tuple[str, list[tuple[str, str]]]:
    event = _map(doc.get("event"))
    title = str(event.get("name") or w("site.results"))
    rows = []
    for key, label in (("start", "date"), ("grade", "grade"), ("ruleset", "ruleset"), ("format", "format")):
        value = event.get(key) or (doc.get(key) if key == "ruleset" else None)
        if key == "format":  # a match event's is its match format (the event's own says who plays: pvp, pva)
            value = _map(event.get("match")).get("format") or value
        if value:
            shown = w.date(str(value)) if key == "start" else str(value)
            if key in ("grade", "format"):  # a value of the rules (C1 stays C1; unrated, swiss in words)
                shown = w.known(f"{key}.{value}", value)
            rows.append((w(f"header.{label}"), shown))
    if event.get("rounds"):
        rows.append((w("header.rounds"), str(event["rounds"])))
    return title, rows


def _step_words(value: Any, prefix: str, w: Words) -> tuple[str, str]:
    """A tie-break step (``mp``, ``beaten_opponents``, …) in words, and what it means ("" for none)."""
    if value is None or value == "none":
        return "", ""
    if prefix.startswith("board_") and f"{prefix}.{value}" not in w.words:  # a board game's own words
        prefix = prefix.removeprefix("board_")  # where it has them, the card games' elsewhere
    return w.known(f"{prefix}.{value}", value), w.known(f"{prefix}_explained.{value}", "")


def bracket_words(label: str, w: Words) -> str:
    """``W2-1`` → "Winners' bracket, round 2, match 1"; ``F`` → "Final" (in the reader's words)."""
    if label in ("F", "F2", "3rd"):
        return w(f"bracket.{label}")
    rnd, _, number = label[1:].partition("-")
    if label[:1] not in ("W", "L") or not rnd.isdigit() or not number.isdigit():
        return label
    return w(f"bracket.{label[:1]}", round=rnd, n=number)


def result_sentence(m: MatchView, w: Words, board: bool = False) -> str:
    """A match's result in one sentence (match_render's, in the reader's words); a board game's
    (``board``) bye and forfeit in game points, the match won by forfeit (board_render's)."""
    if m.kind == IN_PLAY:
        return w("result.in_play")
    unplayed = {t: points_text(x, "½") for t, x in doubled_points(m, []).items()} if board else {}
    if m.kind == "bye":
        team = m.a if m.a is not None else m.b
        if board:
            return w(
                "result.board_bye",
                team=m.name(team),
                mp=m.side_value("mp", team),
                points=unplayed.get(str(team), ""),
            )
        return w("result.bye", team=m.name(team), mp=m.side_value("mp", team), lp=m.side_value("lp", team))
    mp_a, mp_b = m.side_value("mp", m.a), m.side_value("mp", m.b)
    # A board game's: its games' points, as its bracket shows them (a forfeit's: the result's).
    points = game_points(m) or unplayed or None
    if points is not None:
        score = w(
            "result.games", mp_a=mp_a, mp_b=mp_b, a=points.get(str(m.a), ""), b=points.get(str(m.b), "")
        )
    else:
        score = w(
            "result.score", mp_a=mp_a, mp_b=mp_b, lp_a=m.side_value("lp", m.a), lp_b=m.side_value("lp", m.b)
        )
    mp = _map(m.result.get("mp"))
    winner = next((t for t in (m.a, m.b) if t is not None and mp.get(t) == 2), None)
    if m.kind == "forfeit":
        if winner is None:
            return w("result.forfeit", score=score)
        loser = m.b if winner == m.a else m.a
        return w("result.forfeit_by", loser=m.name(loser), winner=m.name(winner), score=score)
    levels = ""
    if m.result.get("levels") is not None:
        levels = w("result.levels", a=m.side_value("levels", m.a), b=m.side_value("levels", m.b))
    if winner is None:
        return w("result.draw", score=score, levels=levels)
    return w("result.win", winner=m.name(winner), score=score, levels=levels)


def board_slug(round_no: Any, board: Any, group: Any) -> str:
    return f"r{round_no}-b{board}-g{group}"


def read(doc: Mapping[str, Any], lang: str = ZH) -> Site:
    """The site's content from an export (module doc): the API's (``deckhand event export``) or the
    demo's results.json, of a duplicate or a match event, in the words of ``lang``."""
    w = Words(lang)
    results = _map(doc.get("results"))
    if "matches" in results:  # the API's export of a match event: the document sits in "results"
        doc = {**results, **{k: v for k, v in doc.items() if k != "results" and k != "standings"}}
    title, header = _header(doc, w)
    if "matches" in doc:
        return _read_match(doc, title, header, w)
    return _read_duplicate(doc, title, header, w)


def _adjusted(r: Mapping[str, Any], w: Words) -> str:
    """What a referee did to a seat's score, in words ("" for nothing)."""
    parts = []
    if r.get("not_played"):  # the referee ended the board: the table could not play it
        parts.append(w("adjusted.not_played"))
    if r.get("artificial"):  # the score is not compared: the seat's share was given
        kind = w.known(f"artificial.{r['artificial']}", str(r["artificial"]).replace("_", " "))
        parts.append(w("adjusted.artificial", kind=kind))
    if "adjusted_from" in r:
        by = w("adjusted.by", by=r["adjusted_by"]) if r.get("adjusted_by") else ""
        parts.append(w("adjusted.was", score=r["adjusted_from"]) + by)
    return w("adjusted.join").join(parts)


def _read_duplicate(doc: Mapping[str, Any], title: str, header: list[tuple[str, str]], w: Words) -> Site:
    names, numbers = _names(doc)
    results = _map(doc.get("results")) or doc
    standings_doc = _map(doc.get("standings"))
    compared: dict[tuple[str, int, str, int, str], Mapping[str, Any]] = {}
    for c in _seq(standings_doc.get("boards")):
        c = _map(c)
        for r in _seq(c.get("results")):
            r = _map(r)
            compared[(str(c.get("board")), _int(c.get("round"), "standings round"), str(c.get("group")), _int(c.get("seat"), "standings seat"),
                      str(r.get("player")))] = r  # fmt: skip
    boards: list[BoardPage] = []
    card_rows: dict[str, list[CardRow]] = defaultdict(list)
    for b in _seq(results.get("boards")):
        b = _map(b)
        rnd, board, group = _int(b.get("round"), "boards[].round"), str(b.get("board")), str(b.get("group"))
        slug = board_slug(rnd, board, group)
        rows = []
        by_table: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
        for r in _seq(b.get("results")):
            r = _map(r)
            by_table[str(r.get("table"))].append(r)
        for r in _seq(b.get("results")):
            r = _map(r)
            player, seat, table = (
                str(r.get("player")),
                _int(r.get("seat"), "results[].seat"),
                str(r.get("table")),
            )
            c = compared.get((board, rnd, group, seat, player), {})
            adjusted = _adjusted(r, w)
            rows.append(TravellerRow(table, seat, player, names.get(player, player), r.get("score"),
                                     c.get("mp", ""), c.get("mp_pct", ""), c.get("rank_points", ""), adjusted))  # fmt: skip
            opponents = [names.get(str(o.get("player")), str(o.get("player"))) for o in by_table[table]
                         if o is not r]  # fmt: skip
            if r.get("ai"):
                continue  # an AI seat has no score card
            card_rows[player].append(CardRow(rnd, board, table, seat, opponents, r.get("score"), c.get("mp", ""),
                                             c.get("rank_points", ""), slug))  # fmt: skip
        rows.sort(key=lambda x: (x.table, x.seat))
        deal = _map(b.get("deal"))
        hands = [cards(h, w) for h in _seq(deal.get("hands"))] or None
        plays = [table_play(_map(p), w) for p in _seq(b.get("play"))]
        boards.append(BoardPage(slug, rnd, board, group, hands, cards(deal.get("kitty"), w), deal.get("deal_number"),
                                rows, plays))  # fmt: skip
    table_rows = _seq(standings_doc.get("standings"))
    standings = []
    steps_used: list[tuple[str, str]] = []
    for s in table_rows:
        s = _map(s)
        pid = str(s.get("player"))
        tie = s.get("tie_break")
        words, meaning = _step_words(
            _map(tie).get("decided_by") if isinstance(tie, Mapping) else tie, "tiebreak", w
        )
        if words and (words, meaning) not in steps_used:
            steps_used.append((words, meaning))
        standings.append(StandingRow(s.get("place"), pid, names.get(pid, pid), numbers.get(pid, ""),
                                     [s.get("total")], words, card=f"players/{pid}.html"))  # fmt: skip
    unresolved = w("tiebreak.unresolved")
    steps_used.sort(key=lambda step: step[0] == unresolved)  # the playoff last, as in the chain
    cards_out = []
    for pid, rows_ in sorted(card_rows.items()):
        rows_.sort(key=lambda x: (x.round, x.board))
        totals: dict[int, float] = defaultdict(float)
        for row in rows_:
            if isinstance(row.rank_points, int | float):
                totals[row.round] += float(row.rank_points)
        cards_out.append(
            ScoreCard(pid, names.get(pid, pid), numbers.get(pid, ""), rows_, sorted(totals.items()))
        )
    columns = [(w("standings.total"), w("standings.total_full"))]
    return Site(title, header, False, columns, standings, steps_used, boards, cards_out,
                rounds=[dict(_map(r)) for r in _seq(doc.get("rounds"))])  # fmt: skip


def _read_match(doc: Mapping[str, Any], title: str, header: list[tuple[str, str]], w: Words) -> Site:
    names = team_names(doc)
    _, numbers = _names(doc)
    standings = []
    used: list[tuple[str, str]] = []
    board = is_board_game(doc)  # its standings' points are games' points, kept doubled: shown halved
    for s in _seq(doc.get("standings")):
        s = _map(s)
        team = str(s.get("team"))
        words, meaning = _step_words(s.get("decided_by"), "board_ranking" if board else "ranking", w)
        if words and (words, meaning) not in used:
            used.append((words, meaning))
        values = [s.get("mp"), s.get("lp"), s.get("opp")]
        if board:
            values[1:] = [points_text(v, "½") if isinstance(v, int) else v for v in values[1:]]
        standings.append(StandingRow(s.get("place"), team, str(s.get("name") or names.get(team, team)),
                                     numbers.get(team, ""), values, words, str(s.get("group") or "")))  # fmt: skip
    matches = []
    views = []
    for i, raw in enumerate(_seq(doc.get("matches"))):
        m = MatchView(_map(raw), names)
        label = str(_map(raw).get("bracket") or "")
        teams = [t for t in (m.a, m.b) if t is not None]
        heading = w("match.versus").join(m.name(t) for t in teams) + (
            f" ({bracket_words(label, w)})" if label else ""
        )
        rows = []
        slug = f"r{m.round}-m{i + 1}"
        views.append((m, f"matches/{slug}.html"))
        games = read_games(m, slug, w, str(doc.get("ruleset") or ""))
        for b in [] if games else m.boards:
            before, after = _map(b.get("levels_before")), _map(b.get("levels_after"))
            rows.append(MatchBoardRow(
                b.get("game", ""), b.get("board", ""), m.name(b.get("level_side")) if b.get("level_side") else "",
                " – ".join(str(before.get(t, "")) for t in teams), " – ".join(str(after.get(t, "")) for t in teams),
                " ".join(str(x) for x in _seq(b.get("order"))),
                "; ".join(f"{_map(t).get('from')}→{_map(t).get('to')} {card_label(str(_map(t).get('card')), w)[0]}"
                          for t in _seq(b.get("tribute"))),
                w.known(f"ended.{b.get('ended_by')}", b.get("ended_by") or "") if b.get("ended_by") else "",
                [cards(h, w) for h in _seq(_map(b.get("deal")).get("hands"))] or None,
                play_steps(b.get("play"), w),
                trump_summary(b, w),
            ))  # fmt: skip
        matches.append(MatchPage(slug, int(m.round or 0), m.table, heading,
                                 result_sentence(m, w, board), rows, games))  # fmt: skip
    shown = ("mp", "points", "opp_points") if board else ("mp", "lp", "opp")
    columns = [(w(f"standings.{c}"), w(f"standings.{c}_full")) for c in shown]
    return Site(
        title,
        header,
        True,
        columns,
        standings,
        used,
        matches=matches,
        bracket=read_bracket(views, w, bracket_words),
        individuals=any(game_points(m) is not None for m, _ in views),
    )
