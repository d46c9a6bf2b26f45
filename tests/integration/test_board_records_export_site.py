"""A board game's knockout to its final, read back from its export alone (docs/export.md, "Game
records"; docs/results-site.md, "Board games"): every game's record replays through the engine,
``deckhand verify`` re-checks the draw by lot, each game's first mover and seed and each record, and
fails on any of them tampered; the results site shows the bracket and each match game by game with its
record and a replay. The backend harness of test_backend_board_knockout.py plays the event."""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from typing import Any

import markupsafe
import pytest
from deckhand.competition.match_render import match_boards_csv
from deckhand.engines.registry import game
from deckhand.service.boards.head_to_head import game_seed
from deckhand.service.organiser import events
from deckhand_local.site.build import build_site
from deckhand_local.verification import verify
from test_backend_board_knockout import board_event, export, play_on_the_clock, run_event

RULESETS = ["xiangqi-2004", "gomoku-renju", "junqi-2004", "checkers-2004"]
STYLES = {"ANN": "bot", "BEN": "resign", "CAT": "resign", "DAN": "resign"}


def knockout_export(backend: Any, ruleset: str) -> dict[str, Any]:
    """A knockout of four to its final: ANN plays the engine's bot, the others resign at once (Junqi,
    which has no resignation: they let the clock play for them), with ``api``'s JSON as it is read."""
    if game(ruleset).position.seeded:  # type: ignore[union-attr]
        players = board_event(backend, ruleset, {p: "bot" if s == "bot" else "idle" for p, s in STYLES.items()},
                              max_games=2)  # fmt: skip
        from deckhand.service.duplicate import rounds

        for r in (1, 2):
            rounds.request_next_round(backend.rt, "board-cup")
            play_on_the_clock(backend, players, r)
    else:
        run_event(backend, board_event(backend, ruleset, STYLES), 2)
    assert events.get_event("board-cup").status == "finished"
    return export(backend)


def games_of(doc: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [(m, b) for m in doc["results"]["matches"] for b in m["boards"] if b.get("status") == "ended"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_board_knockout_s_export_carries_every_record_and_its_site_shows_them(backend, tmp_path, ruleset):
    doc = knockout_export(backend, ruleset)
    verdict = verify(doc)
    assert verdict["ok"], verdict
    assert sum(r["boards_checked"] for r in verdict["rounds"]) == len(games_of(doc))
    draw = doc["results"]["draw"]
    assert sorted(e["id"] for e in draw["entrants"]) == sorted(STYLES) and len(draw["seeds"]) == 4
    for m, b in games_of(doc):
        record = b["record"]
        assert record["players"][0] == record["first"] == m["result"]["games"][b["game"] - 1]["first"]
        assert record["first_by"] in ("draw", "toss", "lot", "alternate")
        assert len(record["moves"]) == len(b["play"]) and "frames" not in record  # the site draws them
        points = record["result"]["points"]
        assert {p: round(2 * x) for p, x in points.items()} == m["result"]["games"][b["game"] - 1]["mp"]
        if "seed" in record:
            assert record["seed"] == game_seed(doc["rounds"][m["round"] - 1]["salt"], m["number"], b["game"])
    # boards.csv: a row per game, as the records and the matches have it (docs/competition.md).
    exported = {
        (r["round"], r["table"], r["game"]): r
        for r in csv.DictReader(io.StringIO(match_boards_csv(doc["results"])))
    }
    for m, b in games_of(doc):
        row = exported[(str(m["round"]), m["table"], str(b["game"]))]
        result = b["record"]["result"]
        assert (row["first"], row["first_by"], row["ended_by"]) == (
            b["record"]["first"],
            b["record"]["first_by"],
            result["why"],
        )
        assert [float(row[f"points_{s}"]) for s in "ab"] == [result["points"][p] for p in m["pairs"]]
        assert row["winner"] == (result["winner"] or "")
    ann = [b["record"] for m, b in games_of(doc) if "ANN" in m["pairs"]]
    assert any("notation" in x for r in ann for x in r["moves"])  # the bot's moves, written
    # The site: the bracket on the index, each match game by game with its record and replay.
    out = tmp_path / "site"
    build_site(json.loads(json.dumps(doc)), out)
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'id="bracket"' in index and "对阵图" in index and index.count('class="bracket-match"') == 3
    assert "Bracket" in (out / "en" / "index.html").read_text(encoding="utf-8")
    finals = [p for p in (out / "matches").glob("r2-*.html")]
    (final,) = finals
    page = final.read_text(encoding="utf-8")
    assert "第 1 局" in page and "data-board-replay" in page and "board-replay.js" in page
    frames = json.loads(re.findall(r'<script type="application/json" class="frames">(.*?)</script>', page)[0])
    first_board = next(b for m, b in games_of(doc) if m["round"] == 2)
    first_game = first_board["record"]
    position = game(ruleset).position
    assert position is not None and position.record is not None
    drawn = position.record(first_game["carry"] or None, first_board["play"], ["", ""], {})["frames"]
    assert frames["frames"] == drawn and len(frames["steps"]) == len(frames["frames"])
    for move in first_game["moves"]:
        if "notation" in move:
            assert move["notation"].replace("<", "&lt;").replace(">", "&gt;") in page
    # Without script the page draws the final picture: Gomoku's stones with their numbers, Junqi's
    # pieces every one revealed; Xiangqi's text record is there as it was exported.
    tables = re.findall(r'<table class="game-board".*?</table>', page, re.S)
    final_games = [b for m, b in games_of(doc) if m["round"] == 2]
    assert len(tables) == len(final_games)  # game by game, in order
    shown = []
    for table, board in zip(tables, final_games, strict=True):
        cells = [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", table)]
        last = position.record(board["record"]["carry"] or None, board["play"], ["", ""], {})["frames"][-1]
        labels = [
            ["" if c is None else c[1:] if c[:1] in ("0", "1") else c for c in row] for row in last["rows"]
        ]
        assert cells == [[str(markupsafe.escape(c)) for c in row] for row in labels]
        shown += [c for row in cells for c in row]
    if ruleset == "gomoku-renju":
        assert any(re.search(r"[0-9]", c) for c in shown)  # ANN's stones, numbered
    if ruleset == "junqi-2004":
        assert not any(c in ("?", "f") for c in shown) and len(set(shown)) > 10  # every rank revealed
    if ruleset == "xiangqi-2004":
        assert f'<pre class="game-text">{markupsafe.escape(first_game["text"])}</pre>' in page
    assert (out / "assets" / "board-replay.js").exists()


def test_verify_fails_on_a_tampered_draw_first_mover_record_or_play(backend):
    doc = knockout_export(backend, "xiangqi-2004")
    assert verify(doc)["ok"]

    def fails(change: Any) -> list[str]:
        tampered = copy.deepcopy(doc)
        change(tampered)
        verdict = verify(tampered)
        assert not verdict["ok"], verdict
        return [p for r in verdict["rounds"] for p in r["problems"]]

    def swap_seeds(d: dict[str, Any]) -> None:
        seeds = d["results"]["draw"]["seeds"]
        seeds[0], seeds[1] = seeds[1], seeds[0]

    assert any("draw by lot" in p for p in fails(swap_seeds))

    def other_pairs(d: dict[str, Any]) -> None:  # round 1 played as the draw does not give it
        a, b = [m for m in d["results"]["matches"] if m["round"] == 1 and m["table"]]
        a["pairs"][0], b["pairs"][0] = b["pairs"][0], a["pairs"][0]

    assert any("the draw gives" in p for p in fails(other_pairs))
    final = next(i for i, m in enumerate(doc["results"]["matches"]) if m["round"] == 2)

    def ann_game(d: dict[str, Any]) -> dict[str, Any]:
        return next(
            b for b in d["results"]["matches"][final]["boards"] if any(s["t"] == "move" for s in b["play"])
        )

    def first_mover(d: dict[str, Any]) -> None:
        record = ann_game(d)["record"]
        record["players"].reverse()
        record["first"] = record["players"][0]

    assert any("first mover" in p for p in fails(first_mover))

    def a_move(d: dict[str, Any]) -> None:
        move = next(x for x in ann_game(d)["record"]["moves"] if "iccs" in x)
        move["chinese"] = "炮二平五" if move["chinese"] != "炮二平五" else "马二进三"

    assert any("moves are not the play's" in p for p in fails(a_move))

    def a_step(d: dict[str, Any]) -> None:
        step = next(s for s in ann_game(d)["play"] if s["t"] == "move")
        step["d"] = {"from": step["d"]["to"], "to": step["d"]["from"]}

    assert any("does not replay" in p for p in fails(a_step))

    def the_result(d: dict[str, Any]) -> None:
        result = ann_game(d)["record"]["result"]
        result["why"] = "checkmate" if result["why"] != "checkmate" else "resignation"

    assert any("not as the record says" in p for p in fails(the_result))

    def the_text(d: dict[str, Any]) -> None:
        record = ann_game(d)["record"]
        record["text"] = record["text"].replace("1. ", "1. A0-A1 ", 1)

    assert any("moves are not the play's" in p for p in fails(the_text))


def test_verify_fails_on_a_tampered_game_seed(backend):
    doc = knockout_export(backend, "junqi-2004")
    assert verify(doc)["ok"]
    tampered = copy.deepcopy(doc)
    m = tampered["results"]["matches"][0]
    record = m["boards"][0]["record"]
    record["seed"] = record["carry"]["seed"] = game_seed(tampered["rounds"][0]["salt"], m["number"], 9)
    verdict = verify(tampered)
    assert not verdict["ok"]
    assert any("seed" in p for r in verdict["rounds"] for p in r["problems"])
