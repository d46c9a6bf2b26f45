"""``make demo`` for the board games on a small field: a knockout of individuals drawn by lot, each tie
a match of games, through the whole local venue (handsets on the real firmware picking the bot's
squares, the broker, the bridge, the handlers, DynamoDB Local) on the simulated clock, to the final.

The checks read the demo's export alone: the final has a winner; every match's games follow the
colours of the rules (game 1 by the draw or by lot, the first move swapped in game 2, a coin toss
for game 3 where the rules toss), a match ends as soon as one player leads from game 2 on or after
``max_games`` by lot; and every game's record replayed through the engine gives the game's points,
whose matches and bracket are the demo's standings.

Cheap: four players, two games a tie at most, three of them resigning each game at once where the
game has the word (the one bot still moves through the chooser in each game it opens); Junqi has no
resignation: two bots play its final out.

A game whose demo shows an electronic board (Xiangqi) runs with it at table T1: the moves there are
made on the board, the first one wrongly (the resigners leave no later one), which stops the game
once; the demo's referee puts the pieces back and resumes it through the API, and the game goes on to
its end — the records still replay to the standings."""

from __future__ import annotations

import hashlib
import io
from typing import Any

import pytest
from deckhand.engines.contract import Action
from deckhand.engines.registry import ENTRIES, game
from deckhand.service.boards.head_to_head import first_side, game_carry, game_seed, lot, seated
from deckhand_local.venue.demo_event import DemoEvent

BOARD_GAMES = [e.ruleset for e in ENTRIES if not e.dealt]
MAX_GAMES = 2
PLAYERS = 4
RESIGN = "resign"


@pytest.fixture(params=BOARD_GAMES)
def knockout(request, tmp_path, dynamodb_local):
    ruleset = request.param
    resigns = game(ruleset).action(RESIGN) is not None
    players = PLAYERS if resigns else 2
    log = io.StringIO()
    demo = DemoEvent(
        seed=f"ci-{ruleset}",
        ruleset=ruleset,
        players=players,
        max_games=MAX_GAMES,
        resigners=players - 1 if resigns else 0,
        out=tmp_path / "out",
        log=log,
        dynamodb_endpoint=dynamodb_local,
        electronic_boards=game(ruleset).demo_electronic_boards,
        wrong_move_from=0,  # the first move made on the board: a resigner makes none after it
    )
    document = demo.run()
    return ruleset, document, log.getvalue(), tmp_path / "out", demo


def played(document: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(
        (m for m in document["matches"] if not m.get("bye")), key=lambda m: (m["round"], m["number"])
    )


def replayed(ruleset: str, document: dict[str, Any]) -> dict[tuple[int, int], list[dict[str, float]]]:
    """Each match's games' points by player, from the records alone: each game rebuilt from what the
    rules start it from (its options, its seed from the round's secret, each player's kept choice of
    the games before) and its moves replayed through the engine."""
    spec = game(ruleset)
    position = spec.position
    assert position is not None
    salts = {r["round"]: r["salt"] for r in document["rounds"]}
    kept: dict[str, Any] = {}
    out: dict[tuple[int, int], list[dict[str, float]]] = {}
    for m in played(document):
        games = []
        for record, summary in zip(m["boards"], m["result"]["games"], strict=True):
            players = seated(m["pairs"], m["pairs"].index(summary["first"]))
            carry = game_carry(position, None, record["game"])
            if position.seeded:
                carry = {**(carry or {}), "seed": game_seed(salts[m["round"]], m["number"], record["game"])}
            if position.keeps:
                carry = {**(carry or {}), "last": [kept.get(p) for p in players]}
            board = spec.new_board([], carry)
            for step in record["play"]:
                board.apply(Action(step["s"], step["t"], (), step.get("v", 0), False, step.get("d")))
            assert board.finished, (m["round"], m["table"], record["game"])
            result = board.result()
            for player, choice in zip(players, result.get("keep") or [], strict=False):
                if choice is not None:
                    kept[player] = choice
            games.append({p: float(result["points"][seat]) for seat, p in enumerate(players)})
        out[(m["round"], m["number"])] = games
    return out


def places_from(document: dict[str, Any], games: dict[tuple[int, int], list[dict[str, float]]]) -> tuple[
    dict[str, int], list[dict[str, Any]]
]:  # fmt: skip
    """The bracket and the places from the replayed games: a match won on points, or by the lot of
    the round's secret when level after ``max_games``; a player knocked out later ranks higher."""
    salts = {r["round"]: r["salt"] for r in document["rounds"]}
    out_in: dict[str, int] = {}
    bracket = []
    last = max(m["round"] for m in played(document))
    for m in played(document):
        a, b = m["pairs"]
        score = {p: sum(g[p] for g in games[(m["round"], m["number"])]) for p in (a, b)}
        level = score[a] == score[b]
        winner = (
            m["pairs"][lot(salts[m["round"]], m["number"], "tie")] if level else max(score, key=score.get)
        )
        loser = b if winner == a else a
        out_in[loser] = m["round"]
        if m["round"] == last:
            out_in[winner] = last + 1
        bracket.append(
            {"round": m["round"], "players": [a, b], "score": score, "winner": winner, "by_lot": level}
        )
    rank = sorted(out_in.values(), reverse=True)
    return {p: 1 + rank.index(r) for p, r in out_in.items()}, bracket


def test_a_board_games_knockout_runs_through_the_venue_to_its_final(knockout):
    ruleset, document, log, out, demo = knockout
    position = game(ruleset).position
    assert position is not None
    if game(ruleset).demo_electronic_boards:
        electronic_board_stopped_once_and_resumed(demo, log)
    matches = played(document)
    rounds = (len(document["pairs"]) - 1).bit_length()
    assert [m["round"] for m in matches] == [
        r for r in range(1, rounds + 1) for _ in range(2 ** (rounds - r))
    ]
    final = document["bracket"][-1]
    assert final["round"] == rounds and final["winner"] in final["players"]
    assert document["standings"][0]["team"] == final["winner"] and document["standings"][0]["place"] == 1
    assert f"Final: {document['standings'][0]['name']} " in log
    ended = [
        line for line in log.splitlines() if ", table " in line and (" beat " in line or " level " in line)
    ]
    assert len(ended) == len(matches)  # a line for each match as it ended

    # The draw is round 1's secret's; the lower draw number is the one the colours start from.
    salts = {r["round"]: r["salt"] for r in document["rounds"]}
    draw = sorted(
        (p["id"] for p in document["pairs"]),
        key=lambda p: hashlib.sha256(f"deckhand/draw/{salts[1]}/{p}".encode()).hexdigest(),
    )
    for m in matches:
        result, salt = m["result"], salts[m["round"]]
        low = m["pairs"].index(m["head_to_head"]["lower_draw"])
        assert m["head_to_head"] == {"max_games": MAX_GAMES, "lower_draw": min(m["pairs"], key=draw.index)}
        firsts = [g["first"] for g in result["games"]]
        assert firsts == [
            m["pairs"][first_side(position.first_move, salt, m["number"], n, low)]
            for n in range(1, len(firsts) + 1)
        ]
        assert len(firsts) >= 2 and firsts[0] != firsts[1]  # the first move swapped in game 2
        # Over as soon as one leads from game 2 on, or after max_games (then by lot).
        totals = [sum(g["mp"][p] for g in result["games"]) for p in m["pairs"]]
        leads = [
            sum(g["mp"][m["pairs"][0]] - g["mp"][m["pairs"][1]] for g in result["games"][:n])
            for n in range(1, len(firsts) + 1)
        ]
        assert all(lead == 0 for lead in leads[1:-1]) and len(firsts) <= MAX_GAMES
        assert ("lot" in result) == (totals[0] == totals[1])
        # Each game's first turn is its first mover's, at seat 0 (a move or a resignation; a setup
        # before it is both seats').
        for record in m["boards"]:
            turns = [s for s in record["play"] if "d" not in s or set(s["d"]) == set(position.move_data)]
            assert record["status"] == "ended" and turns[0]["s"] == 0

    # The games replayed from the records give the export's points, and the bracket and places the
    # demo's standings.
    games = replayed(ruleset, document)
    for m in matches:
        exported = [{p: g["mp"][p] / 2 for p in m["pairs"]} for g in m["result"]["games"]]
        assert games[(m["round"], m["number"])] == exported
    places, bracket = places_from(document, games)
    assert places == {s["team"]: s["place"] for s in document["standings"]}
    assert bracket == [
        {k: entry[k] for k in ("round", "players", "score", "winner", "by_lot")}
        for entry in document["bracket"]
    ]
    for name in (
        "results.json",
        "results.csv",
        "boards.csv",
        "standings.csv",
        "results.html",
        "site/index.html",
    ):
        assert (out / name).stat().st_size > 0


def electronic_board_stopped_once_and_resumed(demo: DemoEvent, log: str) -> None:
    """The one wrong move on the demo's electronic board stopped its game once; the referee put the
    pieces back and resumed it through the API (one ``resume`` in the audit), and play went on."""
    [(eboard, table)] = demo.eboards
    assert (eboard.stops, demo.resumes, eboard.hands.wrong_moves) == (1, 1, 1)
    assert eboard.hands.made >= 1  # the move made again after the resume, as the player meant it
    assert [e["kind"] for e in demo.referee_log].count("resume") == 1
    assert log.count(f"table {table}: the electronic board stopped the game (") == 1
    assert log.count(f"table {table}: the referee resumed the game; play goes on") == 1
    assert eboard.app.error is None  # playing again: the board's last position is a game in play or ended
