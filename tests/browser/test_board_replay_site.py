"""The results site's replay of a board game (docs/results-site.md, "Board games") in Chromium: the
match page, in Chinese by default, draws the final board from the page alone; First / Back / Next /
Last redraw it step by step from the pictures embedded in the page (a file URL: no network)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from deckhand.engines.registry import game
from deckhand_local.site.build import build_site

pytest.importorskip("playwright")

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium")
OPENING = [("h2", "e2"), ("h9", "g7"), ("h0", "g2")]


def one_game_export() -> dict[str, Any]:
    """A Xiangqi match of one game as the export carries it: three moves, then Black resigns."""
    steps: list[dict[str, Any]] = [
        {"s": i % 2, "t": "move", "d": {"from": a, "to": b}} for i, (a, b) in enumerate(OPENING)
    ]
    steps.append({"s": 1, "t": "resign"})
    position = game("xiangqi-2004").position
    assert position is not None and position.record is not None
    rec = position.record(None, steps, ["Li Lei", "Han Meimei"], {})
    rec["result"] = {"winner": "ANN", "why": rec["result"]["why"], "points": {"ANN": 1.0, "BEN": 0.0}}
    record = {"players": ["ANN", "BEN"], "first": "ANN", "first_by": "draw", "carry": {}, **rec}
    match = {
        "round": 1, "table": "T1", "number": 1, "bracket": "F",
        "head_to_head": {"max_games": 8, "lower_draw": "ANN"},
        "pairs": ["ANN", "BEN"], "names": {"ANN": "Li Lei", "BEN": "Han Meimei"},
        "seats": {"ANN": [0], "BEN": [1]}, "players": {"ANN": ["ANN"], "BEN": ["BEN"]}, "games": [1],
        "boards": [{"board": 1, "game": 1, "status": "ended", "play": steps, "record": record}],
        "result": {"mp": {"ANN": 2, "BEN": 0}, "lp": {"ANN": 2, "BEN": 0}, "kind": "played",
                   "games": [{"mp": {"ANN": 2, "BEN": 0}, "lp": {"ANN": 2, "BEN": 0}, "ended_by": "resignation",
                              "first": "ANN"}]},
    }  # fmt: skip
    return {"ruleset": "xiangqi-2004", "event": {"name": "Harbour Cup", "format": "knockout"},
            "matches": [match], "standings": []}  # fmt: skip


def board_text(page: Any) -> list[str]:
    return page.locator("table.game-board td").all_inner_texts()


def test_the_replay_steps_a_game_back_and_forth_in_chinese(page, tmp_path):
    out = tmp_path / "site"
    build_site(one_game_export(), out)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto((out / "matches" / "r1-m1.html").as_uri())
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    assert "炮二平五" in page.locator(".game-moves").inner_text()
    last = board_text(page)
    assert "炮" in last and page.locator(".replay-step").inner_text().startswith("4.")
    back = page.get_by_role("button", name="后退一步")
    box = back.bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44  # a large touch target
    back.click()  # before Black's resignation: the same board
    assert board_text(page) == last
    back.click()  # before Red's 马二进三: h0's horse back home
    before = board_text(page)
    assert before != last and page.locator(".replay-step").inner_text().startswith("2.")
    page.get_by_role("button", name="回到开局").click()
    start = board_text(page)
    assert start != before and page.locator("td.marked").count() == 0
    page.get_by_role("button", name="前进一步").click()
    after_one = board_text(page)
    assert after_one != start and page.locator("td.marked").count() == 2  # h2 and e2
    # Red's cannon moved from h2 (row 7, file h) to e2 (row 7, file e): 9 cells a row.
    assert start[7 * 9 + 7] == "炮" and after_one[7 * 9 + 7] == "" and after_one[7 * 9 + 4] == "炮"
    page.get_by_role("button", name="到终局").click()
    assert board_text(page) == last
    page.goto((out / "en" / "matches" / "r1-m1.html").as_uri())
    assert page.get_by_role("button", name="One step back").count() == 1
