"""Exports of a match-play event: the three CSVs and the HTML page (docs/competition.md)."""

import csv
import io
import re
from html import escape
from pathlib import Path

from deckhand.competition.match_render import (
    MATCH_BOARDS_COLUMNS,
    MATCH_RESULTS_COLUMNS,
    MATCH_STANDINGS_COLUMNS,
    STEP_WORDS,
    match_boards_csv,
    match_results_csv,
    match_results_html,
    match_standings_csv,
)
from deckhand.competition.matchplay.entrants import Entrant, MatchResult, ResultKind
from deckhand.competition.matchplay.ranking import Step, rank
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

HOSTILE = "<script>alert('x')</script>"
NAMES = {"A": "Li & Wang", "B": 'Zhao, "Qian"', "C": "Sun & Zhou", "D": "Wu & Zheng", "E": HOSTILE}
SEATS = {"first": [0, 2], "second": [1, 3]}


def match(round_no, table, a, b, boards, result, *, players=None):
    return {
        "round": round_no,
        "table": table,
        "pairs": [a, b],
        "names": {a: NAMES.get(a, a), b: NAMES.get(b, b)},
        "seats": {a: [0, 2], b: [1, 3]},
        "players": players or {a: [f"{a.lower()}1", f"{a.lower()}2"], b: [f"{b.lower()}1", f"{b.lower()}2"]},
        "games": [1],
        "boards": boards,
        "result": result,
    }


def board(n, side, before, order, after, *, tribute=(), returns=(), penalties=(), ended_by="played"):
    return {
        "board": n,
        "game": 1,
        "level_side": side,
        "levels_before": before,
        "order": order,
        "levels_after": after,
        "tribute": [{"from": f, "to": t, "card": c} for f, t, c in tribute],
        "returns": [{"from": f, "to": t, "card": c} for f, t, c in returns],
        "ended_by": ended_by,
        "penalties": [list(p) for p in penalties],
    }


def played(a, b, levels, mp, lp):
    return {
        "levels": dict(zip((a, b), levels, strict=True)),
        "mp": dict(zip((a, b), mp, strict=True)),
        "lp": dict(zip((a, b), lp, strict=True)),
        "kind": "played",
    }


# Round 1, A v B: A goes 2 → 5 (1st and 2nd), B 2 → 4 on A's 5 (双下 tribute both ways), A 5 → 7.
A_V_B_BOARDS = [
    board(1, "A", {"A": "2", "B": "2"}, [0, 2, 1, 3], {"A": "5", "B": "2"}),
    board(
        2,
        "A",
        {"A": "5", "B": "2"},
        [1, 0, 3, 2],
        {"A": "5", "B": "4"},
        tribute=[(1, 0, "BJ"), (3, 2, "SA")],
        returns=[(0, 1, "S3"), (2, 3, "D4")],
        penalties=[(3, "warning")],
    ),
    board(
        3,
        "B",
        {"A": "5", "B": "4"},
        [0, 1, 2, 3],
        {"A": "7", "B": "4"},
        tribute=[(2, 1, "RJ")],
        returns=[(1, 2, "HT")],
    ),
]


def event_document():
    """Four rounds: A and B end level on match and level points, A ahead by head-to-head; a forfeit,
    a bye, and a match still in play in round 4."""
    matches = [
        match(1, "1", "A", "B", A_V_B_BOARDS, played("A", "B", ("7", "4"), (2, 0), (16, 10))),
        match(1, "2", "C", "D", [], played("C", "D", ("A", "4"), (2, 0), (19, 7))),
        match(2, "1", "A", "C", [], played("A", "C", ("5", "8"), (0, 2), (10, 16))),
        match(2, "2", "B", "D", [], played("B", "D", ("9", "6"), (2, 0), (16, 10))),
        match(3, "1", "A", "E", [], {"mp": {"A": 2, "E": 0}, "lp": {"A": 18, "E": 0}, "kind": "forfeit"}),
        match(3, "2", "B", "C", [], played("B", "C", ("9", "4"), (2, 0), (18, 8))),
        {
            "round": 3,
            "table": None,
            "pairs": ["D", None],
            "names": {"D": NAMES["D"]},
            "bye": True,
            "boards": [],
            "result": {"mp": {"D": 2}, "lp": {"D": 18}, "kind": "bye"},
        },
        match(
            4,
            "1",
            "A",
            "D",
            [board(1, "D", {"A": "2", "D": "2"}, [1, 3], {"A": "2", "D": "5"}, penalties=[(0, "violation")])],
            None,
        ),
    ]
    return {
        "ruleset": "guandan-2023",
        "event": {"name": "Harbour & Hills Cup", "format": "swiss"},
        "matches": matches,
        "standings": standings(matches),
        "deals": "secret",
    }


def standings(matches):
    """The standings the backend would give: ranking.rank over the finished matches."""
    history = []
    for m in matches:
        r = m["result"]
        if r is None:
            continue
        a, b = m["pairs"]
        kind = ResultKind(r["kind"])
        if b is None:
            history.append(MatchResult(m["round"], a, None, (r["mp"][a], 0), (r["lp"][a], 0), kind))
        else:
            history.append(
                MatchResult(m["round"], a, b, (r["mp"][a], r["mp"][b]), (r["lp"][a], r["lp"][b]), kind)
            )
    teams = [Entrant(t, reg) for reg, t in enumerate(NAMES, 1)]
    return [
        {
            "team": s.team,
            "name": NAMES[s.team],
            "place": s.place,
            "mp": s.mp,
            "lp": s.lp,
            "opp": s.opp,
            "decided_by": s.decided_by.value,
        }
        for s in rank(teams, history)
    ]


def rows(text):
    return list(csv.DictReader(io.StringIO(text, newline="")))


def test_the_example_event_is_a_head_to_head_tie():
    table = {s["team"]: s for s in event_document()["standings"]}
    assert (table["A"]["mp"], table["A"]["lp"]) == (table["B"]["mp"], table["B"]["lp"]) == (4, 44)
    assert [table[t]["place"] for t in "ABCDE"] == [1, 2, 3, 4, 5]
    assert table["A"]["decided_by"] == table["B"]["decided_by"] == "h2h"
    assert table["C"]["decided_by"] == "lp"


def test_match_results_csv_one_row_per_match():
    text = match_results_csv(event_document())
    assert next(csv.reader(io.StringIO(text, newline=""))) == MATCH_RESULTS_COLUMNS
    got = rows(text)
    assert len(got) == 8
    assert got[0] == {
        "round": "1",
        "table": "1",
        "pair_a": "A",
        "name_a": "Li & Wang",
        "pair_b": "B",
        "name_b": 'Zhao, "Qian"',
        "levels_a": "7",
        "levels_b": "4",
        "mp_a": "2",
        "mp_b": "0",
        "lp_a": "16",
        "lp_b": "10",
        "kind": "played",
        "deals": "secret",
    }
    forfeit, bye, in_play = got[4], got[6], got[7]
    assert (forfeit["kind"], forfeit["mp_a"], forfeit["lp_a"], forfeit["lp_b"], forfeit["levels_a"]) == (
        "forfeit",
        "2",
        "18",
        "0",
        "",
    )
    assert forfeit["name_b"] == HOSTILE  # CSV carries the text as given: escaping is the page's job
    assert bye == {
        **{k: "" for k in MATCH_RESULTS_COLUMNS},
        "round": "3",
        "pair_a": "D",
        "name_a": "Wu & Zheng",
        "mp_a": "2",
        "lp_a": "18",
        "kind": "bye",
        "deals": "secret",
    }
    assert in_play["kind"] == "in_play"
    assert [in_play[k] for k in ("levels_a", "mp_a", "mp_b", "lp_a", "lp_b")] == [""] * 5


def test_match_boards_csv_one_row_per_board():
    text = match_boards_csv(event_document())
    assert next(csv.reader(io.StringIO(text, newline=""))) == MATCH_BOARDS_COLUMNS
    got = rows(text)
    assert [(r["round"], r["table"], r["board"]) for r in got] == [
        ("1", "1", "1"),
        ("1", "1", "2"),
        ("1", "1", "3"),
        ("4", "1", "1"),
    ]
    second = got[1]
    assert second["level_side"] == "A" and second["level_played"] == "5"
    assert (second["levels_before_a"], second["levels_before_b"]) == ("5", "2")
    assert (second["levels_after_a"], second["levels_after_b"]) == ("5", "4")
    assert second["order_seats"] == "1 0 3 2"
    assert [second[k] for k in ("first", "second", "third", "fourth")] == [
        'Zhao, "Qian"',
        "Li & Wang",
        'Zhao, "Qian"',
        "Li & Wang",
    ]
    assert second["tribute"] == "1->0 BJ; 3->2 SA"
    assert second["returns"] == "0->1 S3; 2->3 D4"
    assert second["penalties"] == "3 warning"
    assert second["ended_by"] == "played" and second["game"] == "1"
    assert got[0]["tribute"] == "" and got[0]["penalties"] == ""
    # A side out 1st and 2nd ends the board: the other two places are empty.
    last = got[3]
    assert (last["pair_a"], last["pair_b"], last["level_side"], last["level_played"]) == ("A", "D", "D", "2")
    assert [last[k] for k in ("first", "second", "third", "fourth")] == ["Wu & Zheng", "Wu & Zheng", "", ""]


def test_match_standings_csv():
    text = match_standings_csv(event_document())
    assert next(csv.reader(io.StringIO(text, newline=""))) == MATCH_STANDINGS_COLUMNS
    got = rows(text)
    assert [(r["place"], r["team"], r["mp"], r["lp"], r["decided_by"]) for r in got] == [
        ("1", "A", "4", "44", "h2h"),
        ("2", "B", "4", "44", "h2h"),
        ("3", "C", "4", "43", "lp"),
        ("4", "D", "2", "35", "mp"),
        ("5", "E", "0", "0", "mp"),
    ]
    assert got[0]["name"] == "Li & Wang" and got[4]["name"] == HOSTILE
    assert all(r["opp"].isdigit() and r["deals"] == "secret" for r in got)


def text_of(html):
    """The page's text as a reader sees it (tags dropped, entities kept)."""
    return re.sub(r"<[^>]+>", " ", html)


def test_html_escapes_every_name_and_title():
    doc = event_document()
    doc["event"]["name"] = "<b>Cup</b>"
    doc["matches"][0]["players"]["A"] = ["<img src=x onerror=alert(1)>", "a2"]
    html = match_results_html(doc, "<i>Final</i>")
    assert "<script" not in html and "<img" not in html and "<b>Cup" not in html and "<i>" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "&lt;i&gt;Final&lt;/i&gt;" in html and "&lt;b&gt;Cup&lt;/b&gt;" in html
    assert "Li &amp; Wang" in html and "Li & Wang" not in html
    assert (
        html.startswith("<!DOCTYPE html>") and "<style>" in html and "src=" not in html.replace("src=x", "")
    )


def test_html_standings_say_what_decided_each_place():
    html = match_results_html(event_document(), "Harbour Cup")
    standings = html[html.index('id="standings"') : html.index("</table>", html.index('id="standings"'))]
    rows_ = re.findall(r"<tr>(.*?)</tr>", standings)[1:]
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", r) for r in rows_]
    assert [(c[0], c[1], c[5]) for c in cells] == [
        ("1", "Li &amp; Wang", "head-to-head"),
        ("2", "Zhao, &quot;Qian&quot;", "head-to-head"),
        ("3", "Sun &amp; Zhou", "level points"),
        ("4", "Wu &amp; Zheng", "match points"),
        ("5", "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;", "match points"),
    ]
    assert "level points in the games among the tied pairs" in html
    assert (
        "Deals: secret" in html and "Harbour &amp; Hills Cup · format: swiss · rule set: guandan-2023" in html
    )


def test_html_shows_each_match_board_by_board():
    html = match_results_html(event_document(), "Harbour Cup")
    text = text_of(html)
    assert text.index("Round 1") < text.index("Round 2") < text.index("Round 3") < text.index("Round 4")
    assert "Table 1: Li &amp; Wang v Zhao, &quot;Qian&quot;" in text
    assert "Li &amp; Wang: seat 0 (a1), seat 2 (a2)" in text
    assert "Li &amp; Wang wins: match points 2:0, level points 16:10, final levels 7:4." in text
    # levels climbing, the side whose level was played, who finished where
    assert "5 (Li &amp; Wang)" in text and "5 → 5" in text and "2 → 4" in text
    assert "1st: seat 1 · b1 · Zhao, &quot;Qian&quot;" in text
    assert "4th: seat 2 · a2 · Li &amp; Wang" in text
    # tributes and returns (cards in a player's words), penalties
    assert "seat 1 · b1 · Zhao, &quot;Qian&quot; → seat 0 · a1 · Li &amp; Wang: small joker" in text
    assert "→ seat 2 · a2 · Li &amp; Wang: ♠A" in text
    assert "seat 0 · a1 · Li &amp; Wang → seat 1 · b1 · Zhao, &quot;Qian&quot;: ♠3" in text
    assert "big joker" in text and "♥10" in text
    assert "seat 3 · b2 · Zhao, &quot;Qian&quot;: warning" in text


def test_html_byes_forfeits_and_matches_in_play():
    text = text_of(match_results_html(event_document(), "Cup"))
    assert "Bye: Wu &amp; Zheng" in text
    assert "no opponent this round and scores as a forfeit win, 2 match points and 18 level points" in text
    assert "Forfeit: &lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; forfeited; Li &amp; Wang wins" in text
    assert "In play: no result yet." in text
    # the board of the match in play: D out 1st and 2nd, A's seats not out, A's violation
    assert "1st: seat 1 · d1 · Wu &amp; Zheng" in text and "2nd: seat 3 · d2 · Wu &amp; Zheng" in text
    assert "not out: seat 0 · a1 · Li &amp; Wang" in text
    assert "seat 0 · a1 · Li &amp; Wang: violation" in text


def test_a_draw_and_a_bare_document():
    doc = {"matches": [match(1, "3", "A", "B", [], played("A", "B", ("6", "6"), (1, 1), (13, 13)))]}
    assert "Draw: match points 1:1, level points 13:13, final levels 6:6." in match_results_html(doc)
    empty: dict = {}
    assert (
        rows(match_results_csv(empty))
        == rows(match_boards_csv(empty))
        == rows(match_standings_csv(empty))
        == []
    )
    assert "<h2>Standings</h2>" in match_results_html(empty)


def test_every_ranking_step_has_words():
    assert set(STEP_WORDS) == set(Step)
    assert STEP_WORDS[Step.H2H] == "head-to-head" and STEP_WORDS[Step.LP] == "level points"


# --- property: rendering never raises on a valid document -----------------------------------------

LEVELS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "A+"]
CARDS = ["S3", "HT", "DA", "C2", "BJ", "RJ", "SQ"]
TEXT = st.text(min_size=1, max_size=12)


@st.composite
def boards(draw, a, b):
    out = []
    for n in range(1, draw(st.integers(0, 4)) + 1):
        seats = draw(st.permutations([0, 1, 2, 3]))
        order = seats[: draw(st.sampled_from([2, 3, 4]))]
        before = {a: draw(st.sampled_from(LEVELS)), b: draw(st.sampled_from(LEVELS))}
        after = {a: draw(st.sampled_from(LEVELS)), b: draw(st.sampled_from(LEVELS))}
        moves = st.tuples(st.integers(0, 3), st.integers(0, 3), st.sampled_from(CARDS))
        out.append(
            board(
                n,
                draw(st.sampled_from([a, b])),
                before,
                order,
                after,
                tribute=draw(st.lists(moves, max_size=2)),
                returns=draw(st.lists(moves, max_size=2)),
                penalties=draw(
                    st.lists(
                        st.tuples(st.integers(0, 3), st.sampled_from(["warning", "violation", "foul"])),
                        max_size=2,
                    )
                ),
                ended_by=draw(st.sampled_from(["played", "foul", "time"])),
            )
        )
    return out


@st.composite
def documents(draw):
    n = draw(st.integers(1, 6))
    teams = [f"T{i}" for i in range(n)]
    names = {t: draw(TEXT) for t in teams}
    matches = []
    for round_no in range(1, draw(st.integers(1, 3)) + 1):
        order = draw(st.permutations(teams))
        for i in range(0, len(order) - 1, 2):
            a, b = order[i], order[i + 1]
            kind = draw(st.sampled_from(["played", "forfeit", "in_play"]))
            mp = draw(st.sampled_from([(2, 0), (1, 1), (0, 2)]))
            lp = draw(st.tuples(st.integers(0, 26), st.integers(0, 26)))
            result = None
            if kind == "played":
                levels = draw(st.tuples(st.sampled_from(LEVELS), st.sampled_from(LEVELS)))
                result = played(a, b, levels, mp, lp)
            elif kind == "forfeit":
                result = {"mp": {a: 2, b: 0}, "lp": {a: 18, b: 0}, "kind": "forfeit"}
            m = match(
                round_no, str(i // 2 + 1), a, b, draw(boards(a, b)) if kind != "forfeit" else [], result
            )
            m["names"] = {a: names[a], b: names[b]}
            m["players"] = {a: [draw(TEXT), draw(TEXT)], b: [draw(TEXT), draw(TEXT)]}
            matches.append(m)
        if len(order) % 2:
            t = order[-1]
            matches.append(
                {
                    "round": round_no,
                    "table": None,
                    "pairs": [t, None],
                    "names": {t: names[t]},
                    "bye": True,
                    "boards": [],
                    "result": {"mp": {t: 2}, "lp": {t: 18}, "kind": "bye"},
                }
            )
    table = [
        {
            "team": t,
            "name": names[t],
            "place": i + 1,
            "mp": draw(st.integers(0, 6)),
            "lp": draw(st.integers(0, 80)),
            "opp": draw(st.integers(0, 300)),
            "decided_by": draw(st.sampled_from([s.value for s in Step])),
        }
        for i, t in enumerate(teams)
    ]
    return {
        "ruleset": "guandan-2023",
        "event": {"name": draw(TEXT), "format": "swiss"},
        "matches": matches,
        "standings": table,
        "deals": draw(st.sampled_from(["secret", "organiser_seed"])),
    }


@settings(max_examples=examples(120), deadline=None)
@given(documents(), TEXT)
def test_rendering_never_raises(doc, title):
    results, boards_, table = (
        rows(match_results_csv(doc)),
        rows(match_boards_csv(doc)),
        rows(match_standings_csv(doc)),
    )
    assert len(results) == len(doc["matches"])
    assert len(boards_) == sum(len(m["boards"]) for m in doc["matches"])
    assert [r["team"] for r in table] == [s["team"] for s in doc["standings"]]
    assert all(r["kind"] in ("played", "forfeit", "bye", "in_play") for r in results)
    html = match_results_html(doc, title)
    assert html.startswith("<!DOCTYPE html>") and html.endswith("</html>\n")
    for name in [title, doc["event"]["name"], *(s["name"] for s in doc["standings"])]:
        assert escape(name) in html


def test_a_carriage_return_in_a_name_does_not_split_a_row():
    doc = {"matches": [match(1, "1", "A", "B", [], None)]}
    doc["matches"][0]["names"]["A"] = "Li\rWang\r\nX"
    got = rows(match_results_csv(doc))
    assert len(got) == 1 and got[0]["name_a"] == "Li\nWang\nX" and got[0]["kind"] == "in_play"


def test_the_documented_columns_are_the_exported_ones():
    text = (Path(__file__).parents[2] / "docs" / "competition.md").read_text(encoding="utf-8")
    section = re.sub(r",\s+", ",", text[text.index("### Exports of a match-play event") :])
    for columns in (MATCH_RESULTS_COLUMNS, MATCH_BOARDS_COLUMNS, MATCH_STANDINGS_COLUMNS):
        assert f"`{','.join(columns)}`" in section


def test_html_names_bracket_matches_and_group_places():
    from deckhand.competition.match_render import bracket_words

    result = {"mp": {"A": 2, "B": 0}, "lp": {"A": 18, "B": 0}, "kind": "forfeit"}
    final = {**match(2, "T1", "A", "B", [], result), "bracket": "F2"}
    third = {**match(2, "T2", "C", "D", [], result), "bracket": "L3-2"}
    standings = [
        {"team": "A", "group": "A", "place": 1, "mp": 2, "lp": 18, "opp": 0, "decided_by": "knockout"},
        {"team": "C", "group": "B", "place": 1, "mp": 2, "lp": 18, "opp": 0, "decided_by": "cut"},
    ]
    page = match_results_html({"ruleset": "guandan-2023", "matches": [final, third], "standings": standings})
    assert "(Reset final)" in page and "(Losers&#x27; bracket, round 3, match 2)" in page
    assert ">A 1<" in page and ">B 1<" in page and "stage reached" in page
    assert (
        bracket_words("W2-1") == "Winners' bracket, round 2, match 1"
        and bracket_words("3rd") == "3rd-place match"
    )
    assert bracket_words("odd") == "odd"
