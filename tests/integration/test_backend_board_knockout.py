"""A board game's knockout of individuals through the services (RULES.md §6.5): the bracket drawn by
lot from round 1's secret, each tie a match of games with the colours the rules give, the tie after
``max_games`` decided by lot, the bracket recomputed from the export, and ``deckhand verify``
checking every lot against the round's commitment.

The service never names a game: the same test runs Xiangqi, Gomoku and Chinese checkers. The players
are handsets that either play the engine's bot or resign (or agree a draw) at once, so every game is
short; Junqi has no resignation: its idle players let the clock play for them (a timed-out setup,
then five timed-out turns lose the game)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from typing import Any

import pytest
from backend import Backend, act
from deckhand.competition.match_render import match_results_csv, match_results_html, match_standings_csv
from deckhand.engines.registry import game
from deckhand.service.boards import store as board_store
from deckhand.service.boards.head_to_head import first_side, lot
from deckhand.service.boards.round_boards import list_matches
from deckhand.service.duplicate import rounds
from deckhand.service.matches import results as match_results
from deckhand.service.matches import round_of_matches as match_rounds
from deckhand.service.organiser import events, pairs, player_links
from deckhand_local.verification import verify

RULESETS = ["xiangqi-2004", "gomoku-renju", "checkers-2004"]
EVENT = "board-cup"


class Handset:
    """A table's handset at one seat, played by whoever sits there (the players change seats between
    games): its player's style "resign" resigns at its first move, "draw" offers (and accepts) a draw,
    "bot" plays the engine's bot, "idle" never acts (the clock does); it decides from what its device
    receives."""

    def __init__(self, backend: Backend, thing: str, table: str, styles: dict[str, str]) -> None:
        self.backend, self.thing, self.table, self.styles, self.counter = backend, thing, table, styles, 0

    def act(self) -> dict[str, Any] | None:
        msg = self.backend.last_view(self.thing)
        if msg is None or msg["st"] != "playing":
            return None
        view = self.backend.seat_view(self.thing, msg)
        item = board_store.load(EVENT, msg["r"], self.table, msg["b"])
        assert item is not None
        if view["seat"] not in board_store.engine_of(item)[1].pending():
            return None  # not its turn (the bot is asked only for a decision)
        style = self.styles[item.players[view["seat"]]]
        if style == "idle":
            return None  # the clock acts for it
        kind, data = "resign", None
        if style == "draw" and view.get("offer") != view["seat"]:  # its own offer stands: it moves
            kind = "offer" if view.get("offer") is None else "accept"
        elif style != "resign":
            action = game(msg["g"]).view_bot("steady")(view)
            assert action is not None
            kind, data = action.kind, action.data
        self.counter += 1
        payload = act(f"{self.thing}-{self.counter}", msg["b"], kind, r=msg["r"])
        if data is not None:
            payload["a"]["d"] = data
        return self.backend.send(self.thing, payload)


def play(players: list[Handset], limit: int = 3000) -> None:
    for _ in range(limit):
        outcomes = [p.act() for p in players]
        moved = [o for o in outcomes if o is not None]
        assert all(o["status"] == "accepted" for o in moved), moved
        if not moved:
            return
    raise AssertionError("the round did not finish")


def board_event(
    backend: Backend, ruleset: str, styles: dict[str, str], rounds_: int | None = None, **match: Any
) -> list[Handset]:
    """The event, its players and its tables (two handsets each)."""
    n = len(styles)
    events.create_event(
        {
            "event_id": EVENT,
            "name": "Harbour Board Cup",
            "ruleset": ruleset,
            "grade": "unrated",
            "rounds": rounds_ or (n - 1).bit_length(),
            "start": dt.date(2026, 12, 14),
            "deal_seed": f"cup-{ruleset}",
            "match": {"format": "knockout", **match},  # a format in ``match`` wins
        }
    )
    pairs.register_pairs(EVENT, [{"id": p, "players": [{"id": p}]} for p in styles])
    tables = [{"id": f"T{i + 1}", "seats": [f"bd-{i + 1}-0", f"bd-{i + 1}-1"]} for i in range(n // 2)]
    events.register_tables(EVENT, tables)
    return [Handset(backend, thing, t["id"], styles) for t in tables for thing in t["seats"]]


def seat_of(players: list[Handset], round_no: int) -> None:
    """Each game seats its first mover at seat 0; the table's handsets stay at their seats."""
    for m in [m for m in list_matches(EVENT, round_no) if m.table]:
        for b, played in zip(m.boards, m.games, strict=True):
            item = board_store.load(EVENT, round_no, m.table, b)
            assert item is not None
            assert item.devices == m.devices
            assert list(item.players) == [m.players[played["first"]], m.players[1 - played["first"]]]


def run_event(backend: Backend, players: list[Handset], rounds_: int) -> None:
    for r in range(1, rounds_ + 1):
        rounds.request_next_round(backend.rt, EVENT)
        play(players)
        seat_of(players, r)
        assert rounds.round_status(EVENT, r)["status"] == "done"


def export(backend: Backend) -> dict[str, Any]:
    event = events.get_event(EVENT)
    doc = match_results.results_document(event, event.current_round)
    from deckhand.service.boards.round_items import revealed_rounds

    return json.loads(
        json.dumps({"results": doc, "rounds": revealed_rounds(EVENT, event.current_round)}, default=str)
    )


def bracket_from(doc: dict[str, Any]) -> dict[str, int]:
    """The places recomputed from the export alone: a player knocked out later ranks higher."""
    out_in: dict[str, int] = {}
    last = max(m["round"] for m in doc["results"]["matches"])
    for m in doc["results"]["matches"]:
        if m.get("bye"):
            continue
        mp = m["result"]["mp"]
        loser = next(p for p in m["pairs"] if mp[p] == 0)
        out_in[loser] = m["round"]
        if m["round"] == last:
            out_in[next(p for p in m["pairs"] if mp[p] == 2)] = last + 1
    rank = sorted(out_in.values(), reverse=True)
    return {p: 1 + rank.index(r) for p, r in out_in.items()}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_knockout_of_eight_is_drawn_by_lot_and_played_to_its_final(backend, ruleset):
    styles = {"ANN": "bot", "BEN": "resign", "CAT": "resign", "DAN": "resign",
              "EVE": "resign", "FAY": "resign", "GUS": "resign", "HAL": "resign"}  # fmt: skip
    players = board_event(backend, ruleset, styles)
    event = events.get_event(EVENT)
    assert match_rounds.get_pairing(event, 1)["pairs"] == []  # drawn by lot as round 1 starts
    run_event(backend, players, 3)
    event = events.get_event(EVENT)
    assert event.status == "finished"
    first = match_rounds.get_pairing(event, 1)
    assert len(first["pairs"]) == 4 and sorted(first["seeds"]) == sorted(styles)
    # The draw is round 1's secret's: anyone can redraw it once the secret is revealed.
    salt = export(backend)["rounds"][0]["salt"]
    assert first["seeds"] == sorted(
        styles, key=lambda p: hashlib.sha256(f"deckhand/draw/{salt}/{p}".encode()).hexdigest()
    )
    table = match_results.standings(event, 3)
    places = {s["team"]: s["place"] for s in table["standings"]}
    assert places["ANN"] == 1  # the only player who ever moves wins every game
    bracket = table["bracket"]  # each match: its games, score and winner
    assert [m["round"] for m in bracket] == [1, 1, 1, 1, 2, 2, 3]
    assert all(m["winner"] == "ANN" for m in bracket if "ANN" in m["players"])
    assert all(m["score"][m["winner"]] > sum(m["score"].values()) / 2 for m in bracket)
    doc = export(backend)
    assert bracket_from(doc) == places
    for m in doc["results"]["matches"]:
        ended = [g["ended_by"] for g in m["result"]["games"]]
        assert len(set(ended)) == 1 and "resign" in ended[0]  # the engine's word for it
        # ANN wins 2–0; two resigners: the first mover loses, so level after 2, decided in game 3.
        assert len(ended) == (2 if "ANN" in m["pairs"] else 3)
        firsts = [g["first"] for g in m["result"]["games"]]
        assert firsts[0] != firsts[1]  # the first move swapped in game 2
    verdict = verify(doc)
    assert verdict["ok"], verdict
    # The match exports read the document as they read a card game's (no levels, no hands).
    results = doc["results"]
    assert "ANN" in match_results_html(results) and len(match_results_csv(results).splitlines()) == 8
    assert match_standings_csv(results).splitlines()[1].split(",")[1] == "ANN"


def test_xiangqi_colours_and_clocks_follow_the_rules_game_by_game(backend):
    players = board_event(backend, "xiangqi-2004", {"ANN": "draw", "BEN": "draw"}, max_games=5)
    run_event(backend, players, 1)
    (m,) = [m for m in list_matches(EVENT, 1) if m.table]
    assert len(m.games) == 5 and all(g["mp"] == [1, 1] for g in m.games)
    salt = export(backend)["rounds"][0]["salt"]
    low = m.rules["low"]
    firsts = [g["first"] for g in m.games]
    # Red (seat 0) in game 1 is the lower draw number, swapped in game 2, a coin toss in game 3, then
    # alternating.
    toss = lot(salt, m.number, "toss")
    assert firsts == [low, 1 - low, toss, 1 - toss, toss]
    clocks = []
    for b in m.boards:
        item = board_store.load(EVENT, 1, m.table, b)
        assert item is not None
        assert item.players[0] == m.pairs[firsts[int(b) - 1]]
        clocks.append(json.loads(item.state)["options"]["clock"])
    assert clocks == ["slow", "slow", "rapid", "rapid", "rapid"]
    # Level after max_games: the lot decides, recorded with the result.
    winner = lot(salt, m.number, "tie")
    assert m.result["lot"] == winner and m.result["mp"] == ([2, 0] if winner == 0 else [0, 2])


def test_gomoku_game_one_is_by_lot_then_alternates(backend):
    players = board_event(backend, "gomoku-renju", {"ANN": "draw", "BEN": "draw"}, max_games=3)
    run_event(backend, players, 1)
    (m,) = [m for m in list_matches(EVENT, 1) if m.table]
    salt = export(backend)["rounds"][0]["salt"]
    guess = lot(salt, m.number, "first")
    assert [g["first"] for g in m.games] == [guess, 1 - guess, guess]
    assert [first_side(game("gomoku-renju").position.first_move, salt, m.number, n, 0) for n in (1, 2, 3)] == [  # type: ignore[union-attr]
        guess, 1 - guess, guess,
    ]  # fmt: skip


def test_verify_fails_on_a_tampered_coin_toss_or_lot(backend):
    players = board_event(backend, "xiangqi-2004", {"ANN": "draw", "BEN": "draw"}, max_games=3)
    run_event(backend, players, 1)
    doc = export(backend)
    assert verify(doc)["ok"]
    tossed = json.loads(json.dumps(doc))
    games = tossed["results"]["matches"][0]["result"]["games"]
    games[2]["first"] = next(p for p in tossed["results"]["matches"][0]["pairs"] if p != games[2]["first"])
    assert not verify(tossed)["ok"]
    lotted = json.loads(json.dumps(doc))
    result = lotted["results"]["matches"][0]["result"]
    result["lot"] = next(p for p in result["mp"] if result["mp"][p] == 0)  # the loser named by the lot
    assert not verify(lotted)["ok"]


def test_the_api_takes_a_board_game_event_of_individuals_and_refuses_what_it_cannot_run():
    from api_calls import api_under_moto as under_moto
    from api_calls import call

    cup = {"event_id": "cup", "name": "Cup", "ruleset": "xiangqi-2004", "grade": "unrated", "rounds": 2,
           "start": "2026-12-14", "match": {"format": "knockout", "max_games": 6}}  # fmt: skip
    with under_moto(Backend().rt) as api:
        status, event = call(api, "POST", "/events", cup)
        assert status == 201, event
        assert event["match"]["max_games"] == 6 and event["match"]["knockout"]["draw"] == "lot"
        players = {"pairs": [{"id": p, "players": [{"id": p}]} for p in ("LI", "WANG", "ZHAO", "QIAN")]}
        status, body = call(api, "POST", "/events/cup/pairs", players)
        assert status == 201, body
        two = {"pairs": [{"id": "SUN", "players": [{"id": "SUN"}, {"id": "ZHOU"}]}]}
        status, body = call(api, "POST", "/events/cup/pairs", two)
        assert status == 400 and "1 player" in json.dumps(body), body
        for change, fragment in (
            ({"match": {"format": "double_elimination"}}, "match.format"),
            ({"match": {"format": "swiss", "max_games": 4}}, "max_games"),
            ({"match": {"format": "knockout", "games": "best_of_three"}}, "match.games"),
            ({"match": {"format": "knockout", "max_games": 1}}, "max_games"),
            ({"match": {"format": "round_robin", "knockout": {"draw": "lot"}}}, "draw"),
        ):
            status, body = call(api, "POST", "/events", {**cup, "event_id": "other", **change})
            assert status in (400, 422) and fragment in json.dumps(body), (change, body)
        assert call(api, "GET", "/events/other")[0] == 404


def test_a_swiss_of_individuals_plays_two_games_a_round_colours_swapped(backend, monkeypatch, capsys):
    """Two games a round, colours swapped; the standings, as the API, ``deckhand event standings`` and
    the export give them, list each player's matches game by game (``bracket``)."""
    styles = {"ANN": "bot", "BEN": "resign", "CAT": "resign", "DAN": "resign"}
    players = board_event(backend, "gomoku-renju", styles, 2, format="swiss")
    run_event(backend, players, 2)
    matches = [m for m in list_matches(EVENT) if m.table]
    assert len(matches) == 4
    for m in matches:
        assert len(m.games) == 2 and m.games[0]["first"] != m.games[1]["first"]
        # Two resigners: each loses the game it moves first in, so the match is drawn 1:1.
        assert m.result["mp"] == (
            [1, 1] if "ANN" not in m.pairs else [2, 0] if m.pairs[0] == "ANN" else [0, 2]
        )
    standings = match_results.standings(events.get_event(EVENT), 2)["standings"]
    assert standings[0]["team"] == "ANN" and standings[0]["mp"] == 4 and standings[0]["lp"] == 8
    shown = standings_shown(backend, monkeypatch, capsys)
    for player in styles:  # each player's two matches, each game's first mover and points
        own = [m for m in shown["bracket"] if player in m["players"]]
        assert [m["round"] for m in own] == [1, 2] and all(len(m["games"]) == 2 for m in own)
        for m in own:
            assert {g["first"] for g in m["games"]} == set(m["players"])  # colours swapped
            assert m["score"] == {p: sum(g["points"][p] for g in m["games"]) for p in m["players"]}
    assert [s["team"] for s in shown["standings"]] == [s["team"] for s in standings]


def test_a_board_games_bye_is_its_match_won_by_forfeit_in_game_points(backend, monkeypatch, capsys):
    """An odd field: the bye scores the two-game match won by forfeit — 2 match points and both games,
    2 game points (kept doubled: 4), not a card game's 18 level points — in the standings, the API's
    and the exports' (results.csv, standings.csv halve them)."""
    styles = {"ANN": "resign", "BEN": "resign", "CAT": "resign"}  # every match drawn 1:1
    run_event(backend, board_event(backend, "gomoku-renju", styles, 2, format="swiss"), 2)
    byes = [m for m in list_matches(EVENT) if not m.table]
    assert len(byes) == 2 and all(m.result == {"mp": [2, 0], "lp": [4, 0], "kind": "bye"} for m in byes)
    shown = standings_shown(backend, monkeypatch, capsys)
    had_bye = {m.pairs[0] for m in byes}
    totals = {s["team"]: (s["mp"], s["lp"]) for s in shown["standings"]}
    # A bye 2 match points and 4 (2 game points); a drawn match 1 and 2 (1 game point).
    assert totals == {p: (3, 6) if p in had_bye else (2, 4) for p in styles}
    assert [m["winner"] for m in shown["bracket"]] == [None, None]  # a drawn match has no winner
    results = export(backend)["results"]
    csv_rows = [line.split(",") for line in match_results_csv(results).splitlines()[1:]]
    assert sorted(r[8:10] + [r[12]] for r in csv_rows) == [["1", "1", "played"]] * 2 + [["2", "", "bye"]] * 2
    points = {r[1]: r[4] for r in (line.split(",") for line in match_standings_csv(results).splitlines()[1:])}
    assert points == {p: "3" if p in had_bye else "2" for p in styles}


def standings_shown(backend: Backend, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> dict[str, Any]:
    """The event's standings as ``GET /events/{id}/standings``, ``deckhand event standings`` (the API
    behind the CLI) and the export's ``standings`` give them: the same document, with its bracket."""
    from api_calls import call
    from deckhand.service.infra import lambda_runtime
    from deckhand_local.cli import events_cli
    from deckhand_local.cli.main import main
    from handlers import load_handler

    lambda_runtime.set_runtime(backend.rt)
    try:
        api = load_handler("api")

        class Api:  # the CLI's API client, answered by the API's handler
            def __init__(self, *_: Any, **__: Any) -> None:
                pass

            def request(self, method: str, path: str, body: Any = None, *, raw: bool = False) -> Any:
                status, answer = call(api, method, path, body)
                assert status == 200, answer
                return answer

        status, from_api = call(api, "GET", f"/events/{EVENT}/standings")
        assert status == 200, from_api
        status, exported = call(api, "GET", f"/events/{EVENT}/export?format=json")
        assert status == 200, exported
        monkeypatch.setattr(events_cli, "ApiClient", Api)
        capsys.readouterr()
        assert main(["event", "standings", EVENT]) == 0
        printed = capsys.readouterr().out.splitlines()  # the handler's metrics lines, then the CLI's
        from_cli = json.loads("\n".join(printed[printed.index("{") :]))
    finally:
        lambda_runtime.set_runtime(None)
    assert from_cli == from_api == exported["standings"]
    assert from_api == json.loads(json.dumps(match_results.standings(events.get_event(EVENT), 2)))
    return dict(from_api)


def test_the_move_clock_warns_and_the_third_warning_loses_the_game(backend):
    board_event(backend, "xiangqi-2004", {"ANN": "draw", "BEN": "draw"})
    rounds.request_next_round(backend.rt, EVENT)
    (m,) = [m for m in list_matches(EVENT, 1) if m.table]
    for warning in range(1, 4):
        backend.clock.advance(300_000)  # game 1 is slow: 5 minutes a move
        backend.sweep()
        item = board_store.load(EVENT, 1, m.table, "1")
        assert item is not None
        assert json.loads(item.state)["warnings"][0] == warning
        assert (item.status == "ended") == (warning == 3)
    (m,) = [m for m in list_matches(EVENT, 1) if m.table]
    assert m.games[0]["ended_by"] == "time" and m.games[0]["mp"][m.games[0]["first"]] == 0
    assert m.boards == ["1", "2"]  # game 2 begun, colours swapped, its clock rapid only from game 3
    item = board_store.load(EVENT, 1, m.table, "2")
    assert item is not None and json.loads(item.state)["options"]["clock"] == "slow"


def test_a_short_field_gives_the_top_of_the_draw_a_bye(backend):
    players = board_event(backend, "xiangqi-2004", {"ANN": "resign", "BEN": "resign", "CAT": "resign"})
    run_event(backend, players, 2)
    event = events.get_event(EVENT)
    first = match_rounds.get_pairing(event, 1)
    assert first["walkovers"] == first["seeds"][:1] and len(first["pairs"]) == 1
    (final,) = match_rounds.get_pairing(event, 2)["pairs"]
    assert first["seeds"][0] in final and event.status == "finished"


def test_a_players_own_device_follows_its_player_to_the_other_seat_in_game_two(backend):
    """The players change seats between games; a player's own device acts and sees for its player's
    seat in each game, never for the opponent's (the round's seating names only game 1's)."""
    board_event(backend, "gomoku-renju", {"ANN": "resign", "BEN": "resign"})
    links = {link.player: link.thing for link in player_links.issue_links(EVENT)}
    rounds.request_next_round(backend.rt, EVENT)
    (m,) = [m for m in list_matches(EVENT, 1) if m.table]
    for game_no in ("1", "2"):
        item = board_store.load(EVENT, 1, m.table, game_no)
        assert item is not None and item.status == "playing"
        mover, other = item.players  # seat 0 moves first
        assert item.devices == [links[mover], links[other]]
        # The opponent's device cannot make the mover's move, whatever seat the round's seating gives.
        legal = board_store.engine_of(item)[1].legal_actions(0)[0]
        payload = act(f"steal-{game_no}", game_no, legal.kind, r=1)
        payload["a"]["d"] = legal.data
        outcome = backend.send(links[other], payload)
        assert outcome["status"] == "rejected" and outcome["code"] == "not_your_turn", outcome
        assert backend.send(links[other], {"t": "hello", "msg": f"h-{game_no}"})["status"] == "accepted"
        for player, seat in ((mover, 0), (other, 1)):
            seen = {
                v["s"] for v in backend.publisher.to(links[player]) if v["t"] == "view" and v["b"] == game_no
            }
            assert seen == {seat}, (game_no, player, seen)
        outcome = backend.send(links[mover], act(f"resign-{game_no}", game_no, "resign", r=1))
        assert outcome["status"] == "accepted", outcome
    (m,) = [m for m in list_matches(EVENT, 1) if m.table]
    assert [g["first"] for g in m.games][:2] in ([0, 1], [1, 0])  # both players moved first once


def play_on_the_clock(backend: Backend, players: list[Handset], round_no: int, limit: int = 300) -> None:
    """The handsets act; when none does, the clock runs out on the idle seats (the sweep acts)."""
    for _ in range(limit):
        play(players)
        if rounds.round_status(EVENT, round_no)["status"] == "done":
            return
        backend.clock.advance(300_000)  # at least a setup's and a move's time
        backend.sweep()
    raise AssertionError("the round did not finish")


def test_a_junqi_knockout_runs_to_its_final_with_seeded_setups_and_each_player_s_last_one(backend):
    from deckhand.engines.junqi.setup import for_side, random_setup
    from deckhand.service.boards.head_to_head import game_seed
    from deckhand.service.boards.match_boards import kept_choices

    styles = {"ANN": "bot", "BEN": "idle", "CAT": "idle", "DAN": "idle"}
    players = board_event(backend, "junqi-2004", styles, max_games=2)  # two idlers: level, then a lot
    for r in (1, 2):
        rounds.request_next_round(backend.rt, EVENT)
        play_on_the_clock(backend, players, r)
        seat_of(players, r)
    event = events.get_event(EVENT)
    assert event.status == "finished"
    places = {s["team"]: s["place"] for s in match_results.standings(event, 2)["standings"]}
    assert places["ANN"] == 1  # the only player who ever moves: every idle seat times out five times
    doc = export(backend)
    assert verify(doc)["ok"]
    salts = {r["round"]: r["salt"] for r in doc["rounds"]}
    ann_setups = []
    matches = [m for m in list_matches(EVENT) if m.table]
    for m in matches:
        for b in m.boards:
            item = board_store.load(EVENT, m.round, m.table, b)
            assert item is not None and item.carry is not None
            # The game's seed is the round's secret's: a timed-out setup can be recomputed from the export.
            seed = game_seed(salts[m.round], m.number, int(b))
            assert item.carry["seed"] == seed
            state = json.loads(item.state)
            for seat, player in enumerate(item.players):
                if styles[player] == "idle":
                    assert state["u"][seat] == random_setup(seed, seat)
                    assert item.carry["last"][seat] is None  # it never sent one: nothing kept
                else:
                    ann_setups.append((m.round, int(b), seat, state["u"][seat], item.carry["last"][seat]))
    # ANN's setup sent in one game is offered to ANN first in the next, turned to ANN's side there.
    ann_setups.sort()
    assert ann_setups[0][4] is None  # the first game: nothing saved yet
    for before, after in zip(ann_setups, ann_setups[1:], strict=False):
        assert after[4] == before[3]
        assert for_side(after[4], after[2]) == after[3]  # its bot sets up alike: its last, turned
    assert kept_choices(EVENT, ["ANN", "BEN"]) == {"ANN": ann_setups[-1][3]}
    # Nothing of ANN's setup reaches the other seat: no view an idle player's seat got holds it.
    forbidden = [for_side(setup, side) for _, _, _, setup, _ in ann_setups for side in (0, 1)]
    seated = {
        (m.round, m.table, b): board_store.load(EVENT, m.round, m.table, b) for m in matches for b in m.boards
    }
    checked = 0
    for h in players:
        for frame in backend.publisher.to(h.thing):
            if frame.get("t") != "view":
                continue
            item = seated[(frame["r"], h.table, frame["b"])]
            assert item is not None
            if styles[item.players[frame["s"]]] == "idle":
                assert not any(found in forbidden for found in dicts_in(frame)), frame
                checked += 1
    assert checked > 0


def dicts_in(value: Any) -> list[Any]:
    """Every object nested in ``value``."""
    if isinstance(value, dict):
        return [value, *(d for v in value.values() for d in dicts_in(v))]
    if isinstance(value, list):
        return [d for v in value for d in dicts_in(v)]
    return []
