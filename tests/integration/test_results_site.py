"""The results site (docs/results-site.md) from real exports: a duplicate event's standings with
names, board pages with the hand record and traveller, score cards; a match event's matches; every
name escaped; readable at 390 px without sideways scrolling, checked in headless Chromium."""

from __future__ import annotations

import json
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
    index = (out / "index.html").read_text()
    assert '<meta name="viewport"' in index and "Harbour &amp; Cup" in index
    assert HOSTILE not in index and "&lt;script&gt;" in index, "names are escaped"
    assert "Player 1" in index and 'id="commitments"' in index
    boards = sorted((out / "boards").glob("*.html"))
    assert len(boards) == 4  # 2 rounds × 2 boards, one group
    page = (out / "boards" / "r1-b1-g1.html").read_text()
    assert 'aria-label="Hand record"' in page and page.count('class="hand"') == 4
    assert page.count("<tr>") >= 1 + 8, "the traveller: every table's four seats"
    assert "Play at table A" in page and "Play at table B" in page
    card = (out / "players" / "P1.html").read_text()
    assert card.count("boards/r") == 4 and "Round totals" in card
    assert all(f.exists() for f in files)


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _render(page: Path, width: int, tmp: Path, shot: Path) -> str:
    """The page's DOM after load at ``width`` px, with whether the page scrolls sideways."""
    probe = page.with_name(f"probe-{width}-{page.name}")
    probe.write_text(
        page.read_text().replace(
            "</body>",
            "<script>document.body.dataset.overflow = "
            "String(document.documentElement.scrollWidth > window.innerWidth)</script></body>",
        )
    )
    base = [
        chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--hide-scrollbars", f"--window-size={width},900", f"--user-data-dir={tmp / 'profile'}",
    ]  # fmt: skip
    shot_run = subprocess.run(
        [*base, f"--screenshot={shot}", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert shot_run.returncode == 0, shot_run.stderr[-2000:]
    dom = subprocess.run(
        [*base, "--dump-dom", probe.as_uri()], capture_output=True, text=True, timeout=120, check=False
    )
    assert dom.returncode == 0, dom.stderr[-2000:]
    probe.unlink()
    return dom.stdout


@pytest.mark.skipif(
    chromium() is None, reason="no Chromium on this machine (.ci/run installs Debian's chromium)"
)
def test_the_site_reads_on_a_phone_and_a_desktop_without_sideways_scrolling(cup_site, tmp_path):
    out, _, _ = cup_site
    for page in (out / "index.html", out / "boards" / "r1-b1-g1.html", out / "players" / "P1.html"):
        for width in (390, 1280):
            shot = tmp_path / f"{page.stem}-{width}.png"
            dom = _render(page, width, tmp_path, shot)
            assert 'data-overflow="false"' in dom, (page.name, width)
            assert shot.stat().st_size > 5_000, "a screenshot with something on it"
    # The play record's replay buttons work once the script has run.
    dom = _render(out / "boards" / "r1-b1-g1.html", 390, tmp_path, tmp_path / "replay.png")
    assert 'class="replay-controls"' in dom and "hidden" not in dom.split('class="replay-controls"')[1][:20]


def test_a_match_event_site_has_each_match_board_by_board(backend, tmp_path):
    from test_backend_match import play, prepare

    bots = prepare(backend)
    rounds.request_next_round(backend.rt, "league")
    play(bots)
    doc = json.loads(json.dumps(export_of("league")))
    out = tmp_path / "site"
    build_site(doc, out)
    index = (out / "index.html").read_text()
    assert "Match points" in index and "Level points" in index
    matches = sorted((out / "matches").glob("*.html"))
    assert len(matches) == 2
    page = matches[0].read_text()
    assert "Levels before" in page and "Round 1" in page


def test_verify_checks_every_round_and_finds_a_changed_hand_or_salt(cup_site, tmp_path):
    import copy
    import io

    from deckhand_local.cli.verify import run_verify, verify

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
    from deckhand_local.cli.verify import verify
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
    from deckhand_local.cli.verify import run_verify, verify

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
    (board,) = read(doc).boards
    a, b = board.plays
    assert a.hands is None and b.hands is not None and b.hands[0][0].label == "A♠"
    assert b.deal_number == 2 and b.steps[0].kind == "redeal: deal 2"
