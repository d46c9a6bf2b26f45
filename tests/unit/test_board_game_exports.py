"""A board game's match exports read as a board game's (docs/competition.md, "A board game's
exports"): ``results.csv`` and ``standings.csv`` give players and game points (no levels, nothing
doubled), ``boards.csv`` a row per game — who moved first and how, who won, how it ended, each
player's points — and none of the card columns; the results page, Chinese and English, names players
and game points (局分) and says the lots came from each round's committed secret; the results site's
standings give game points, not the doubled level points the matches keep. The document is the
backend's export of a small knockout (the shape test_board_records_export_site.py reads from a real
one); a card game's exports stay as test_match_render.py has them."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import pytest
from deckhand.competition.board_render import (
    BOARD_GAMES_COLUMNS,
    BOARD_MATCHES_COLUMNS,
    BOARD_STANDINGS_COLUMNS,
    is_board_game,
)
from deckhand.competition.match_render import (
    MATCH_BOARDS_COLUMNS,
    MATCH_RESULTS_COLUMNS,
    MATCH_STANDINGS_COLUMNS,
    match_boards_csv,
    match_results_csv,
    match_results_html,
    match_standings_csv,
)
from deckhand_local.site import model

NAMES = {"ANN": "Li Lei", "BEN": "Han Meimei", "CAT": "<b>Cat</b>", "DAN": "Dan"}
COMMITMENT, SECRET = "c0ffee" * 10 + "beef", "5a17" * 16
CARD_ONLY = {"level_side", "level_played", "order_seats", "second", "third", "fourth", "tribute", "returns"}


def game(first: str, first_by: str, points: dict[str, float], why: str, number: int) -> dict[str, Any]:
    """A game's board as the export gives it once its round is done: its record's first mover, how
    that was decided and the result (moves, play and pictures left out: these exports do not read them)."""
    players = [first, next(p for p in points if p != first)]
    winner = max(points, key=lambda p: points[p]) if len(set(points.values())) == 2 else None
    record = {"players": players, "first": first, "first_by": first_by,
              "result": {"winner": winner, "why": why, "points": points}}  # fmt: skip
    return {"board": number, "game": number, "status": "ended", "deal": {"hands": [[], []]}, "record": record}


def entry(first: str, points: dict[str, float], why: str) -> dict[str, Any]:
    """The match's own entry for a game (``result.games``): its points doubled, who moved first."""
    doubled = {p: round(2 * x) for p, x in points.items()}
    return {"mp": doubled, "lp": dict(doubled), "ended_by": why, "first": first}


def knockout() -> dict[str, Any]:
    """Round 1: ANN beat BEN 1½:½ (a win, then a draw agreed); CAT and DAN level after their two games
    (max_games 2), CAT through by lot. Round 2, the final: ANN v CAT, its first game in play."""
    win, draw = {"ANN": 1.0, "BEN": 0.0}, {"ANN": 0.5, "BEN": 0.5}
    cat, dan = {"CAT": 1.0, "DAN": 0.0}, {"CAT": 0.0, "DAN": 1.0}
    first = {
        "round": 1, "table": "T1", "number": 1, "bracket": "W1-1", "head_to_head": {"max_games": 2, "lower_draw": "ANN"},
        "pairs": ["ANN", "BEN"], "names": {p: NAMES[p] for p in ("ANN", "BEN")}, "games": [1, 2],
        "boards": [game("ANN", "draw", win, "resignation", 1), game("BEN", "alternate", draw, "agreement", 2)],
        "result": {"levels": None, "mp": {"ANN": 2, "BEN": 0}, "lp": {"ANN": 3, "BEN": 1}, "kind": "played",
                   "games": [entry("ANN", win, "resignation"), entry("BEN", draw, "agreement")]},
    }  # fmt: skip
    second = {
        "round": 1, "table": "T2", "number": 2, "bracket": "W1-2", "head_to_head": {"max_games": 2, "lower_draw": "DAN"},
        "pairs": ["CAT", "DAN"], "names": {p: NAMES[p] for p in ("CAT", "DAN")}, "games": [1, 2],
        "boards": [game("DAN", "draw", dan, "time", 1), game("CAT", "alternate", cat, "checkmate", 2)],
        "result": {"levels": None, "mp": {"CAT": 2, "DAN": 0}, "lp": {"CAT": 2, "DAN": 2}, "kind": "played",
                   "games": [entry("DAN", dan, "time"), entry("CAT", cat, "checkmate")], "lot": "CAT"},
    }  # fmt: skip
    final = {
        "round": 2, "table": "T1", "number": 1, "bracket": "F", "head_to_head": {"max_games": 2, "lower_draw": "ANN"},
        "pairs": ["ANN", "CAT"], "names": {p: NAMES[p] for p in ("ANN", "CAT")}, "games": [1],
        "boards": [{"board": 1, "game": 1, "status": "playing"}], "result": None,
    }  # fmt: skip
    standings = [
        {"team": "ANN", "name": NAMES["ANN"], "place": 1, "mp": 2, "lp": 3, "opp": 1, "decided_by": "knockout"},
        {"team": "CAT", "name": NAMES["CAT"], "place": 1, "mp": 2, "lp": 2, "opp": 2, "decided_by": "knockout"},
        {"team": "BEN", "name": NAMES["BEN"], "place": 3, "mp": 0, "lp": 1, "opp": 3, "decided_by": "knockout"},
        {"team": "DAN", "name": NAMES["DAN"], "place": 3, "mp": 0, "lp": 2, "opp": 2, "decided_by": "knockout"},
    ]  # fmt: skip
    return {
        "ruleset": "xiangqi-2004",
        "event": {"name": "Harbour Board Cup", "format": "knockout"},
        "matches": [first, second, final],
        "standings": standings,
        "deals": "secret",
        "rounds": [{"round": 1, "commitment": COMMITMENT, "salt": SECRET}],
    }


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_board_game_is_told_by_its_rule_sets_spec():
    assert is_board_game(knockout())
    assert not is_board_game({**knockout(), "ruleset": "guandan-2023"})
    # No rule set known: a match of games between two players says so.
    assert is_board_game({"matches": knockout()["matches"]}) and not is_board_game({"matches": []})


def test_boards_csv_has_a_row_per_game_in_a_board_games_columns():
    text = match_boards_csv(knockout())
    header = next(csv.reader(io.StringIO(text, newline="")))
    assert header == BOARD_GAMES_COLUMNS and not CARD_ONLY & set(header)
    got = [{k: r[k] for k in BOARD_GAMES_COLUMNS if k != "deals"} for r in rows(text)]
    assert got == [
        {"round": "1", "table": "T1", "player_a": "ANN", "player_b": "BEN", "game": "1", "board": "1", "first": "ANN",
         "first_by": "draw", "winner": "ANN", "ended_by": "resignation", "points_a": "1", "points_b": "0"},
        {"round": "1", "table": "T1", "player_a": "ANN", "player_b": "BEN", "game": "2", "board": "2", "first": "BEN",
         "first_by": "alternate", "winner": "", "ended_by": "agreement", "points_a": "0.5", "points_b": "0.5"},
        {"round": "1", "table": "T2", "player_a": "CAT", "player_b": "DAN", "game": "1", "board": "1", "first": "DAN",
         "first_by": "draw", "winner": "DAN", "ended_by": "time", "points_a": "0", "points_b": "1"},
        {"round": "1", "table": "T2", "player_a": "CAT", "player_b": "DAN", "game": "2", "board": "2", "first": "CAT",
         "first_by": "alternate", "winner": "CAT", "ended_by": "checkmate", "points_a": "1", "points_b": "0"},
        # The final's game in play: no first mover or result in the export yet.
        {"round": "2", "table": "T1", "player_a": "ANN", "player_b": "CAT", "game": "1", "board": "1", "first": "",
         "first_by": "", "winner": "", "ended_by": "", "points_a": "", "points_b": ""},
    ]  # fmt: skip
    assert {r["deals"] for r in rows(text)} == {"secret"}


def test_a_game_read_from_the_match_alone_or_from_its_record_alone():
    """A round not yet done has no records (the match's entries say it all but how the first mover
    was decided); a forfeited game has no board (the entry alone)."""
    doc = knockout()
    first = doc["matches"][0]
    for b in first["boards"]:
        del b["record"]
    first["result"]["games"].append(entry("ANN", {"ANN": 0.0, "BEN": 1.0}, "forfeit"))
    got = [(r["game"], r["board"], r["first"], r["first_by"], r["winner"], r["ended_by"], r["points_a"])
           for r in rows(match_boards_csv(doc))[:3]]  # fmt: skip
    assert got == [("1", "1", "ANN", "", "ANN", "resignation", "1"), ("2", "2", "BEN", "", "", "agreement", "0.5"),
                   ("3", "", "ANN", "", "BEN", "forfeit", "0")]  # fmt: skip
    del doc["matches"][1]["result"]  # the records alone give the same rows
    assert rows(match_boards_csv(doc))[3:5] == rows(match_boards_csv(knockout()))[2:4]


def test_results_and_standings_csv_give_game_points_not_levels():
    doc = knockout()
    doc["matches"].append({"round": 1, "table": None, "pairs": ["EVE", "ANN"], "names": {"EVE": "Eve"}, "forfeit": True,
                           "boards": [], "result": {"mp": {"EVE": 2, "ANN": 0}, "lp": {"EVE": 4, "ANN": 0}, "kind": "forfeit"}})  # fmt: skip
    text = match_results_csv(doc)
    assert next(csv.reader(io.StringIO(text, newline=""))) == BOARD_MATCHES_COLUMNS
    got = [[r[k] for k in ("player_a", "name_b", "mp_a", "mp_b", "points_a", "points_b", "games", "lot", "kind")]
           for r in rows(text)]  # fmt: skip
    assert got == [
        ["ANN", "Han Meimei", "2", "0", "1.5", "0.5", "2", "", "played"],
        ["CAT", "Dan", "2", "0", "1", "1", "2", "CAT", "played"],
        ["ANN", "<b>Cat</b>", "", "", "", "", "", "", "in_play"],
        # A withdrawn player's: no game played, the match won by forfeit (both games: 4 doubled).
        ["EVE", "Li Lei", "2", "0", "2", "0", "0", "", "forfeit"],
    ]
    text = match_standings_csv(doc)
    assert next(csv.reader(io.StringIO(text, newline=""))) == BOARD_STANDINGS_COLUMNS
    got = [
        [r[k] for k in ("place", "player", "mp", "points", "opp_points", "decided_by")] for r in rows(text)
    ]
    assert got == [["1", "ANN", "2", "1.5", "0.5", "knockout"], ["1", "CAT", "2", "1", "1", "knockout"],
                   ["3", "BEN", "0", "0.5", "1.5", "knockout"], ["3", "DAN", "0", "1", "1", "knockout"]]  # fmt: skip


# (language, words the page must have, words of a card game's page it must not)
PAGES = [
    ("zh", ['<html lang="zh-CN">', "赛制：单败淘汰赛", ">选手<", ">局分<", ">对手局分<",
            "Li Lei 获胜：比赛分 2:0，局分 1½:½。", "&lt;b&gt;Cat&lt;/b&gt; 经抽签获胜：比赛分 2:0，局分 1:1",
            "T1 台：Li Lei 对 Han Meimei（胜者组第 1 轮第 1 场）", "（决赛）", "进行中：尚无结果。",
            ">抽签序号小者<", ">与上一局交换先后<", ">认输<", ">议和<", ">超时<", ">和棋<", ">Li Lei 胜<",
            "取自每轮的秘密", COMMITMENT, SECRET, "淘汰赛中止步的轮次"]),
    ("en", ['<html lang="en">', "format: knockout", ">Player<", ">Game points<", "Li Lei wins: match points 2:0, games 1½:½.",
            "wins by lot: match points 2:0, games 1:1", "(Final)", ">the lower draw number<", ">resignation<",
            ">Drawn<", "drawn from each round&#x27;s secret", COMMITMENT, SECRET]),
]  # fmt: skip
CARD_WORDS = [
    "Pair",
    "组合",
    "level points",
    "级分",
    "Deals:",
    "Level played",
    "Finishing order",
    "Tribute",
    "<script",
]


@pytest.mark.parametrize(("lang", "words"), PAGES, ids=[p[0] for p in PAGES])
def test_the_results_page_names_players_game_points_and_the_lots(lang, words):
    html = match_results_html(knockout(), "Harbour <Board> Cup", lang)
    missing = [w for w in words if w not in html]
    assert not missing, missing
    assert not [w for w in CARD_WORDS if w in html]
    assert "<h1>Harbour &lt;Board&gt; Cup</h1>" in html and "<b>" not in html
    standings = html[html.index('id="standings"') : html.index("</table>", html.index('id="standings"'))]
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", r) for r in re.findall(r"<tr>(.*?)</tr>", standings)[1:]]
    # Game points and opponents' game points halved from the doubled standings: 3 → 1½.
    assert [c[1:5] for c in cells] == [["Li Lei", "2", "1½", "½"], ["&lt;b&gt;Cat&lt;/b&gt;", "2", "1", "1"],
                                       ["Han Meimei", "0", "½", "1½"], ["Dan", "0", "1", "1"]]  # fmt: skip


def test_the_page_is_chinese_unless_asked_and_a_card_games_stays_as_it_was():
    assert match_results_html(knockout()) == match_results_html(knockout(), "Results", "zh")
    card = {**knockout(), "ruleset": "guandan-2023"}
    for m in card["matches"]:
        del m["head_to_head"]
    page = text_of(match_results_html(card))
    assert "Deals: secret" in page and "Pair" in page and "level points 3:1" in page
    for render, columns in ((match_boards_csv, MATCH_BOARDS_COLUMNS), (match_results_csv, MATCH_RESULTS_COLUMNS),
                            (match_standings_csv, MATCH_STANDINGS_COLUMNS)):  # fmt: skip
        assert next(csv.reader(io.StringIO(render(card)))) == columns


def test_the_documented_columns_are_the_board_games():
    text = (Path(__file__).parents[2] / "docs" / "competition.md").read_text(encoding="utf-8")
    section = re.sub(r",\s+", ",", text[text.index("#### A board game's exports") :])
    for columns in (BOARD_MATCHES_COLUMNS, BOARD_GAMES_COLUMNS, BOARD_STANDINGS_COLUMNS):
        assert f"`{','.join(columns)}`" in section


# (language, the standings' columns, the knockout step's meaning) on the results site
SITE = [
    ("zh-CN", ["比赛分", "局分", "对手局分"], "淘汰赛：选手被淘汰的轮次越晚，名次越前。"),
    ("en", ["MP", "Pts", "Opp. pts"], "a knockout: the later the round a player was knocked out in, the better the place."),
]  # fmt: skip


@pytest.mark.parametrize(("lang", "columns", "meaning"), SITE, ids=[s[0] for s in SITE])
def test_the_sites_standings_give_a_board_games_points_halved(lang, columns, meaning):
    site = model.read(knockout(), lang)
    assert [short for short, _ in site.columns] == columns
    assert [s.values for s in site.standings] == [
        [2, "1½", "½"],
        [2, "1", "1"],
        [0, "½", "1½"],
        [0, "1", "1"],
    ]
    assert [m for _, m in site.steps_used] == [meaning]
    # A card game's standings as they were: level points, opponents' level points, as kept.
    card = {**knockout(), "ruleset": "guandan-2023"}
    site = model.read(card, lang)
    assert [s.values for s in site.standings] == [[2, 3, 1], [2, 2, 2], [0, 1, 3], [0, 2, 2]]
    assert [short for short, _ in site.columns] == [
        model.Words(lang)(f"standings.{c}") for c in ("mp", "lp", "opp")
    ]


def test_a_swiss_draw_and_a_bye_in_a_board_games_words():
    doc = knockout()
    first = doc["matches"][0]
    first["result"]["mp"] = {"ANN": 1, "BEN": 1}  # a Swiss's match: two games, level, drawn
    first["result"]["games"][0] = entry("ANN", {"ANN": 0.5, "BEN": 0.5}, "agreement")
    bye = {"round": 1, "table": None, "pairs": ["EVE", None], "names": {"EVE": "Eve"}, "bye": True, "boards": [],
           "result": {"mp": {"EVE": 2}, "lp": {"EVE": 4}, "kind": "bye"}}  # fmt: skip
    forfeit = {"round": 1, "table": None, "pairs": ["FAY", "EVE"], "names": {"FAY": "Fay"}, "forfeit": True,
               "boards": [], "result": {"mp": {"FAY": 2, "EVE": 0}, "lp": {"FAY": 4, "EVE": 0}, "kind": "forfeit"}}  # fmt: skip
    doc["matches"] += [bye, forfeit]
    zh, en = (text_of(match_results_html(doc, "Cup", lang)) for lang in ("zh", "en"))
    assert "和局：比赛分 1:1，局分 1:1。" in zh and "Draw: match points 1:1, games 1:1." in en
    # The bye and the forfeit: the match won by forfeit, both its games (kept doubled: 4), 2 game points.
    assert "轮空：Eve 本轮无对手，按对方弃权获胜计，得 2 比赛分、2 局分。" in zh
    assert (
        "Bye: Eve has no opponent this round and scores as a forfeit win, 2 match points and 2 game points."
        in en
    )
    assert "Fay 获胜，比赛分 2:0，局分 2:0。" in zh and "Fay wins, match points 2:0, games 2:0." in en
    got = [[r[k] for k in ("player_a", "player_b", "points_a", "points_b", "games", "kind")]
           for r in rows(match_results_csv(doc))[-2:]]  # fmt: skip
    assert got == [["EVE", "", "2", "", "", "bye"], ["FAY", "EVE", "2", "0", "0", "forfeit"]]
    for lang, words in (
        ("zh-CN", ["得 2 比赛分、2 局分。", "局分 2:0"]),
        ("en", ["and 2 game points.", "games 2:0"]),
    ):
        site = [p.sentence for p in model.read(doc, lang).matches][-2:]
        assert [w in s for w, s in zip(words, site, strict=True)] == [True, True], site
        assert not [s for s in site if "级分" in s or "level points" in s], site
