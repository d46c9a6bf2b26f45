"""The results site (docs/results-site.md) from real exports: a duplicate event's standings with
names, board pages with the hand record and traveller, score cards; a match event's matches; every
name escaped; every page in Chinese (at the root) and English (under en/), each linking to its twin;
readable at 390 px without sideways scrolling and with the standings whole, checked in headless
Chromium."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from backend import THINGS, DeviceBot, run_round
from deckhand.service.duplicate import rounds, scoring
from deckhand.service.organiser import events
from deckhand.service.organiser.disclosure import last_round_shown
from deckhand_local.site.build import build_site

HOSTILE = "<script>alert('x')</script>"


def export_of(event_id: str) -> dict[str, Any]:
    """The JSON export as the API gives it (service/api.py ``export``)."""
    event = events.get_event(event_id)
    shown = last_round_shown(event)
    return {
        "event": {"name": event.name, "ruleset": event.ruleset, "grade": event.grade, "rounds": event.rounds},
        ("pairs" if event.match is not None else "players"): scoring.registrations(event),
        "rounds": scoring.revealed_rounds(event_id, shown),
        "results": scoring.results_export(event, shown),
        "standings": scoring.compute_standings(event, shown),
    }


@pytest.fixture
def cup_site(backend, tmp_path):
    from backend import CUP_EVENT

    events.create_event({**CUP_EVENT, "name": "Harbour & Cup"})
    names = {f"P{i}": f"Player {i}" for i in range(1, 9)}
    names["P3"] = HOSTILE
    events.register_players("cup", [{"id": p, "name": n} for p, n in names.items()])
    events.register_tables("cup", [{"id": "A", "seats": THINGS[:4]}, {"id": "B", "seats": THINGS[4:]}])
    bots = [DeviceBot(backend, t) for t in THINGS]
    for _ in (1, 2):
        rounds.request_next_round(backend.rt, "cup")
        run_round(backend, bots)
    doc = json.loads(json.dumps(export_of("cup")))  # as a file holds it
    out = tmp_path / "site"
    files = build_site(doc, out)
    return out, doc, files


def test_a_duplicate_event_site_has_standings_boards_and_score_cards(cup_site):
    out, doc, files = cup_site
    for lang in ("", "en/"):
        index = (out / lang / "index.html").read_text()
        assert '<meta name="viewport"' in index and "Harbour &amp; Cup" in index
        assert HOSTILE not in index and "&lt;script&gt;" in index, "names are escaped"
        assert "Player 1" in index and 'id="commitments"' in index
        boards = sorted((out / lang / "boards").glob("*.html"))
        assert len(boards) == 4  # 2 rounds × 2 boards, one group
        page = (out / lang / "boards" / "r1-b1-g1.html").read_text()
        assert page.count('class="hand"') == 4
        assert page.count("<tr>") >= 1 + 8, "the traveller: every table's four seats"
        card = (out / lang / "players" / "P1.html").read_text()
        assert card.count("boards/r") == 4
    assert all(f.exists() for f in files)
    en = (out / "en" / "boards" / "r1-b1-g1.html").read_text()
    assert 'aria-label="Hand record"' in en and "Play at table A" in en and "Play at table B" in en
    assert "Round totals" in (out / "en" / "players" / "P1.html").read_text()
    zh = (out / "boards" / "r1-b1-g1.html").read_text()
    assert 'aria-label="牌谱"' in zh and "第 A 桌的出牌记录" in zh and "第 B 桌的出牌记录" in zh
    assert "各轮合计" in (out / "players" / "P1.html").read_text()


def _pages(out: Path) -> list[Path]:
    """The Chinese pages (the site's root, en/ left out)."""
    return sorted(p for p in out.rglob("*.html") if p.relative_to(out).parts[0] != "en")


def _visible_text(page: str) -> str:
    """What a reader sees of a page: its title and body text, without markup, scripts or names."""
    body = re.sub(r"<script.*?</script>|<code>.*?</code>", " ", page, flags=re.S)
    return re.sub(r"<[^>]+>", " ", body)


def test_every_page_is_in_chinese_with_its_english_twin_a_link_away(cup_site):
    out, _, _ = cup_site
    pages = _pages(out)
    assert len(pages) == 1 + 4 + 8
    english_words = re.compile(r"\b(Round|Board|Seat|Table|Standings|Player|Score|Hand record|Traveller|"
                               r"Place|Rank points|Kitty|Generated|Back|Next|All|play|pass)\b")  # fmt: skip
    for zh in pages:
        rel = zh.relative_to(out).as_posix()
        en = out / "en" / rel
        assert en.is_file(), f"{rel} has no English twin"
        zh_text, en_text = zh.read_text(), en.read_text()
        assert '<html lang="zh-CN"' in zh_text and '<html lang="en"' in en_text
        up = "../" * rel.count("/")
        # the switch: a real link, named, to the same page in the other language, and back
        assert (f'<a class="switch" data-switch href="{up}../{rel}" hreflang="zh-CN" lang="zh-CN" '
                'aria-label="用中文阅读本页"') in en_text  # fmt: skip
        assert (f'<a class="switch" data-switch href="{up}en/{rel}" hreflang="en" lang="en" '
                'aria-label="Read this page in English"') in zh_text  # fmt: skip
        assert f'<link rel="alternate" hreflang="en" href="{up}en/{rel}">' in zh_text
        assert f'<script src="{up}assets/lang.js">' in zh_text and f'src="{up}../assets/lang.js"' in en_text
        seen = _visible_text(zh_text).replace("Player ", "").replace("Harbour &amp; Cup", "")
        seen = seen.replace(">English<", "").replace("Deckhand", "").replace("deckhand verify", "")
        found = english_words.findall(seen.replace("English", ""))
        assert not found, f"{rel}: English words on the Chinese page: {found[:5]}"
        assert "<th>" not in zh_text and "<th>" not in en_text, "every header cell has its scope"
    index = (out / "index.html").read_text()
    assert "排名" in index and "名次依据" in index and "核验发牌" in index
    assert "<dd>不计级别（练习或俱乐部赛）</dd>" in index and "<dd>unrated" not in index
    assert "<dd>unrated (practice or club event)</dd>" in (out / "en" / "index.html").read_text()
    assert "Standings" in (out / "en" / "index.html").read_text()


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


# Measured after load: whether the page scrolls sideways, and whether the standings table (where
# there is one) is whole in the window — no column cut off, none behind a scroll of its own.
_PROBE = """<script>
document.body.dataset.overflow = String(document.documentElement.scrollWidth > window.innerWidth);
var standings = document.getElementById("standings");
if (standings) {
  var right = Math.max.apply(null, Array.prototype.map.call(standings.querySelectorAll("th, td"),
    function (cell) { return cell.getBoundingClientRect().right; }));
  document.body.dataset.standingsWhole = String(right <= window.innerWidth
    && standings.getBoundingClientRect().right <= window.innerWidth
    && standings.parentElement.scrollWidth <= standings.parentElement.clientWidth);
}
</script></body>"""


def _render(page: Path, width: int, tmp: Path, shot: Path) -> str:
    """The page's DOM after load at ``width`` px, with whether the page scrolls sideways and whether
    the standings are whole (``_PROBE``). The page is opened in its own language (``?lang=``): the
    profile remembers a reader's choice."""
    probe = page.with_name(f"probe-{width}-{page.name}")
    lang = re.search(r'<html lang="([^"]+)"', page.read_text())
    query = f"?lang={lang.group(1)}" if lang else ""
    probe.write_text(page.read_text().replace("</body>", _PROBE))
    base = [
        chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--hide-scrollbars", f"--window-size={width},900", f"--user-data-dir={tmp / 'profile'}",
    ]  # fmt: skip
    shot_run = subprocess.run(
        [*base, f"--screenshot={shot}", page.as_uri() + query],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert shot_run.returncode == 0, shot_run.stderr[-2000:]
    dom = subprocess.run(
        [*base, "--dump-dom", probe.as_uri() + query],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert dom.returncode == 0, dom.stderr[-2000:]
    probe.unlink()
    return dom.stdout


@pytest.mark.skipif(
    chromium() is None, reason="no Chromium on this machine (.ci/run installs Debian's chromium)"
)
def test_the_site_reads_on_a_phone_and_a_desktop_without_sideways_scrolling(cup_site, tmp_path):
    out, _, _ = cup_site
    for lang in ("", "en/"):
        for page in ("index.html", "boards/r1-b1-g1.html", "players/P1.html"):
            for width in (390, 1280) if page == "index.html" else (390,):
                shot = tmp_path / f"{lang[:2]}{Path(page).stem}-{width}.png"
                dom = _render(out / lang / page, width, tmp_path, shot)
                assert 'data-overflow="false"' in dom, (lang, page, width)
                assert f'<html lang="{lang[:2] or "zh-CN"}"' in dom, "the page stays in its language"
                if page == "index.html":
                    assert 'data-standings-whole="true"' in dom, (
                        lang,
                        width,
                        "a standings column is cut off",
                    )
                assert shot.stat().st_size > 5_000, "a screenshot with something on it"
    # The play record's replay buttons work once the script has run.
    dom = _render(out / "boards" / "r1-b1-g1.html", 390, tmp_path, tmp_path / "replay.png")
    assert 'class="replay-controls"' in dom and "hidden" not in dom.split('class="replay-controls"')[1][:20]


@pytest.mark.skipif(chromium() is None, reason="no Chromium on this machine")
def test_the_language_chosen_is_remembered_for_the_next_page(cup_site, tmp_path):
    """A ``?lang=`` parameter (as the switch's click) stores the choice; the next page opened in the
    other language goes to its twin, in the same browser profile."""
    out, _, _ = cup_site

    def opened(url: str) -> str:
        run = subprocess.run(
            [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             f"--user-data-dir={tmp_path / 'reader'}", "--dump-dom", url],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr[-2000:]
        return run.stdout

    board = out / "boards" / "r1-b1-g1.html"
    assert '<html lang="zh-CN"' in opened(board.as_uri()), "Chinese by default"
    assert '<html lang="en"' in opened((out / "index.html").as_uri() + "?lang=en")
    english = opened(board.as_uri())
    assert '<html lang="en"' in english and "Play at table A" in english, "remembered: the English twin"
    assert '<html lang="zh-CN"' in opened((out / "en" / "index.html").as_uri() + "?lang=zh-CN")
    assert '<html lang="zh-CN"' in opened((out / "en" / "players" / "P1.html").as_uri())


@pytest.mark.skipif(chromium() is None, reason="no Chromium on this machine")
def test_the_widest_standings_a_match_event_prints_are_whole_on_a_phone(tmp_path):
    """Group, pair, number, three totals and the step that decided: eight columns in 390 px, in
    both languages (the last column was cut off before)."""
    doc = {
        "event": {"name": "Harbour Pairs", "ruleset": "guandan-2023", "rounds": 3},
        "matches": [],
        "standings": [{"team": f"T{i}", "name": f"Pair {i}a & Pair {i}b", "place": i, "mp": 12, "lp": 115,
                       "opp": 311, "decided_by": step, "group": "A"}
                      for i, step in enumerate(["mp", "h2h", "opp", "knockout"], start=1)],
    }  # fmt: skip
    out = tmp_path / "site"
    build_site(doc, out)
    for lang in ("", "en/"):
        dom = _render(out / lang / "index.html", 390, tmp_path, tmp_path / f"{lang[:2]}wide.png")
        assert 'data-overflow="false"' in dom and 'data-standings-whole="true"' in dom, lang
        assert dom.count('<th scope="col"') == 8 and dom.count('<th scope="row"') == 4


def test_a_match_event_site_has_each_match_board_by_board(backend, tmp_path):
    from test_backend_match import play, prepare

    bots = prepare(backend)
    rounds.request_next_round(backend.rt, "league")
    play(bots)
    doc = json.loads(json.dumps(export_of("league")))
    out = tmp_path / "site"
    build_site(doc, out)
    index = (out / "en" / "index.html").read_text()
    assert "Match points" in index and "Level points" in index and "Place decided by" in index
    assert "How ties are broken" in index and "more match points (2 a win, 1 a draw)." in index
    zh = (out / "index.html").read_text()
    assert "比赛分" in zh and "级分" in zh and "名次依据" in zh and "同分时如何排名" in zh
    assert "match points" not in zh and " v " not in zh and " 对 " in zh
    matches = sorted((out / "en" / "matches").glob("*.html"))
    assert len(matches) == 2
    page = matches[0].read_text()
    assert "Levels before" in page and "Round 1" in page
    zh_page = (out / "matches" / matches[0].name).read_text()
    assert "打前级数" in zh_page and "第 1 轮" in zh_page and "Levels before" not in zh_page
    if chromium() is None:
        return
    for lang in ("", "en/"):
        for name in ("index.html", f"matches/{matches[0].name}"):
            dom = _render(out / lang / name, 390, tmp_path, tmp_path / f"{lang[:2]}{Path(name).stem}.png")
            assert 'data-overflow="false"' in dom, (lang, name)
            if name == "index.html":
                assert 'data-standings-whole="true"' in dom, (lang, "a standings column is cut off")


def test_verify_checks_every_round_and_finds_a_changed_hand_or_salt(cup_site, tmp_path):
    import copy
    import io

    from deckhand_local.verification import run_verify, verify

    _, doc, _ = cup_site
    verdict = verify(doc)
    assert verdict["ok"] and [r["boards_checked"] for r in verdict["rounds"]] == [2, 2]
    changed = copy.deepcopy(doc)
    hands = changed["results"]["boards"][0]["deal"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # two cards swapped between seats
    bad = verify(changed)
    assert not bad["ok"] and "the hands differ" in bad["rounds"][0]["problems"][0]
    salted = copy.deepcopy(doc)
    salted["rounds"][1]["salt"] = "0" * 64
    assert verify(salted)["rounds"][1]["problems"][0] == "the salt does not give the published commitment"
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(changed))
    out, err = io.StringIO(), io.StringIO()
    assert run_verify(str(path), io.StringIO(), out, err) == 1
    assert json.loads(out.getvalue())["ok"] is False and "round 1: NOT verified" in err.getvalue()


def test_verify_checks_a_match_event(backend):
    from deckhand_local.verification import verify
    from test_backend_match import play, prepare

    bots = prepare(backend)
    rounds.request_next_round(backend.rt, "league")
    play(bots)
    doc = json.loads(json.dumps(export_of("league")))
    doc["event"]["match"] = events.get_event("league").match
    verdict = verify(doc)
    assert verdict["ok"] and verdict["rounds"][0]["boards_checked"] >= 2, verdict


def test_verify_wants_every_record_and_the_deal_its_redeals_give(cup_site, tmp_path):
    import copy
    import io

    from deckhand.errors import DeckhandError
    from deckhand_local.verification import run_verify, verify

    _, doc, _ = cup_site
    bare = copy.deepcopy(doc)
    for b in bare["results"]["boards"]:
        b.pop("deal"), b.pop("play")
    assert not verify(bare)["ok"], "nothing checked is not verified"
    claimed = copy.deepcopy(doc)
    claimed["results"]["boards"][0]["play"][0]["deal_number"] = 2  # no redeal in its steps
    assert "redeals do not give" in " ".join(verify(claimed)["rounds"][0]["problems"])
    unrevealed = copy.deepcopy(doc)
    unrevealed["rounds"] = unrevealed["rounds"][:1]
    assert verify(unrevealed)["problems"] == ["round 2 has results but no revealed salt to check them by"]
    broken = copy.deepcopy(doc)
    broken["results"]["boards"][0]["group"] = "x"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken))
    with pytest.raises(DeckhandError, match="not a well-formed export"):
        run_verify(str(path), io.StringIO(), io.StringIO(), io.StringIO())


def test_a_table_that_played_another_deal_shows_its_own_hands_and_the_redeal():
    from deckhand_local.site.model import read

    hands = [["S3"], ["H4"], ["D5"], ["C6"]]
    doc = {
        "results": {
            "ruleset": "bigtwo-2017",
            "boards": [
                {
                    "board": "1", "round": 1, "group": "1",
                    "results": [{"player": "P1", "table": "A", "seat": 0, "score": 1},
                                {"player": "P2", "table": "B", "seat": 0, "score": 1}],
                    "deal": {"hands": hands, "kitty": [], "deal_number": 1},
                    "play": [
                        {"table": "A", "deal_number": 1, "steps": [{"s": 0, "t": "play", "c": ["S3"]}]},
                        {"table": "B", "deal_number": 2, "deal": {"hands": [["SA"], ["HA"], ["DA"], ["CA"]],
                                                                  "kitty": [], "deal_number": 2},
                         "steps": [{"s": -1, "t": "redeal", "n": 1}, {"s": 0, "t": "play", "c": ["SA"]}]},
                    ],
                }
            ],
        },
        "standings": {"boards": [], "standings": []},
    }  # fmt: skip
    (board,) = read(doc, "en").boards
    a, b = board.plays
    assert a.hands is None and b.hands is not None and b.hands[0][0].label == "A♠"
    assert b.deal_number == 2 and b.steps[0].kind == "redeal: deal 2" and b.steps[1].kind == "play"
    assert b.hands[0][0].name == "ace of spades"
    (zh,) = read(doc).boards
    assert zh.plays[1].steps[0].kind == "重新发牌：第 2 次发牌" and zh.plays[1].steps[1].kind == "出牌"
    assert zh.plays[1].hands is not None and zh.plays[1].hands[0][0].name == "黑桃A"


def test_every_tie_break_reads_in_words_in_both_languages():
    """The standings' tie-break steps (a duplicate event's ``tie_break``, a match event's
    ``decided_by``) in words with what each means, never the key the service reports."""
    from deckhand_local.site.model import read

    steps = ["beaten_opponents", "round_places", "board_places", "play_time", "trimmed_play_time"]
    duplicate = {
        "results": {"ruleset": "bigtwo-2017", "boards": []},
        "standings": {"boards": [], "standings": [
            {"player": f"P{i}", "place": i + 1, "total": 10, "tie_break": step} for i, step in enumerate(steps)
        ] + [{"player": "PX", "place": 5, "total": 10, "tie_break": "unresolved"}]},
    }  # fmt: skip
    match = {"matches": [], "standings": [{"team": f"T{i}", "place": i + 1, "mp": 0, "lp": 0, "opp": 0,
                                           "decided_by": step} for i, step in enumerate(
                                               ["none", "mp", "lp", "ld", "h2h", "opp", "shared", "lot", "knockout", "cut"])]}  # fmt: skip
    for lang, expect in (
        ("zh-CN", ["所胜对手均分", "单轮名次", "单副名次", "用时", "去极值平均用时", "未决（需加赛）"]),
        ("en", ["opponents beaten", "places in single rounds", "places on single boards", "play time",
                "play time without the longest and shortest board", "unresolved (playoff)"]),
    ):  # fmt: skip
        site = read(duplicate, lang)
        assert [s.decided_by for s in site.standings] == expect
        assert [words for words, _ in site.steps_used] == expect, (
            "each step used, explained, the playoff last"
        )
        assert all(meaning for _, meaning in site.steps_used)
        assert not {s.decided_by for s in site.standings} & {*steps, "unresolved"}
        ranked = read(match, lang)
        assert ranked.standings[0].decided_by == "" and len(ranked.steps_used) == 9
        assert not {s.decided_by for s in ranked.standings} & {"mp", "lp", "ld", "h2h", "opp", "cut"}
    assert read(match, "zh-CN").standings[4].decided_by == "相互间级分"
    assert read(match, "en").standings[4].decided_by == "head-to-head"
