"""A Guandan match event through the services: pairs, matches board after board, standings, pairing.

Every match-play rule set is driven the same way: bots decide from their seat's view and send device
messages, as handsets would; whichever registered game runs matches is used.
"""

from __future__ import annotations

from typing import Any

import pytest
from backend import Backend, act, run_round, setup_moto_env
from deckhand.competition.matchplay import ranking
from deckhand.competition.matchplay.entrants import MatchResult, ResultKind
from deckhand.engines.common.cards import format_cards
from deckhand.engines.registry import RULESETS, game
from deckhand.engines.spec import Competition
from deckhand.service.boards import store as board_store
from deckhand.service.boards.round_boards import list_matches
from deckhand.service.duplicate import rounds, scoring
from deckhand.service.matches import results as match_results
from deckhand.service.matches import round_of_matches as match_rounds
from deckhand.service.organiser import events, pairs
from deckhand.service.storage.keys import event_pk, match_sk
from deckhand.service.storage.models import MatchItem, PairingItem

setup_moto_env()

MATCH_RULESET = next(r for r in RULESETS if game(r).competition is Competition.MATCH)
PAIRS = ["N", "E", "S", "W"]
THINGS = [f"gd-{t}-{s}" for t in "AB" for s in range(4)]


def match_event(**changes: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "event_id": "league",
        "name": "Harbour Pairs",
        "ruleset": MATCH_RULESET,
        "grade": "unrated",
        "rounds": 3,
        "start": __import__("datetime").date(2026, 12, 14),
        "deal_seed": "league",
        "match": {"format": "swiss"},
        "options": {"end_mode": "boards", "boards": 2},
    }
    return {**spec, **changes}


class SeatBot:
    """A handset driven by the game's bot on the seat's view (the engine's, noted with each view)."""

    def __init__(self, backend: Backend, thing: str) -> None:
        self.backend = backend
        self.thing = thing
        self.counter = 0

    def act(self) -> dict[str, Any] | None:
        msg = self.backend.last_view(self.thing)
        if msg is None or msg["st"] != "playing":
            return None
        action = game(msg["g"]).view_bot("steady")(self.backend.seat_view(self.thing, msg))
        if action is None:
            return None
        self.counter += 1
        rule = game(msg["g"]).action(action.kind)
        payload = act(
            f"{self.thing}-{self.counter}",
            msg["b"],
            action.kind,
            v=action.value if rule is not None and rule.values else None,
            c=format_cards(action.cards) if action.cards else None,
            r=msg["r"],
        )
        if action.data is not None:
            payload["a"]["d"] = action.data
        return self.backend.send(self.thing, payload)


def prepare(b: Backend, **changes: Any) -> list[SeatBot]:
    events.create_event(match_event(**changes))
    pairs.register_pairs(
        "league",
        [
            {"id": p, "players": [{"id": f"{p}1"}, {"id": f"{p}2"}], "region": "R" + str(i % 2)}
            for i, p in enumerate(PAIRS)
        ],
    )
    events.register_tables("league", [{"id": "A", "seats": THINGS[:4]}, {"id": "B", "seats": THINGS[4:]}])
    return [SeatBot(b, t) for t in THINGS]


def play(bots: list[SeatBot]) -> None:
    run_round(None, bots)  # type: ignore[arg-type]  # the loop needs only the bots


@pytest.fixture
def league(backend):
    return backend, prepare(backend)


def test_a_swiss_of_matches_runs_to_its_standings(league):
    b, bots = league
    for round_no in (1, 2, 3):
        pairing = match_rounds.get_pairing(events.get_event("league"), round_no)
        assert rounds.request_next_round(b.rt, "league") == round_no
        status = rounds.round_status("league", round_no)
        assert status["status"] == "playing" and status["matches_total"] == 2
        seated = sorted(tuple(t["pairs"]) for t in status["tables"])
        assert seated == sorted(tuple(p) for p in pairing["pairs"])
        play(bots)
        status = rounds.round_status("league", round_no)
        assert status["status"] == "done" and status["matches_done"] == 2, status
    event = events.get_event("league")
    assert event.status == "finished"
    matches = [m for m in list_matches("league") if m.table]
    assert len(matches) == 6
    met = [frozenset(m.pairs) for m in matches]
    assert len(set(met)) == 6, "a Swiss never pairs the same opponents twice"
    for m in matches:
        assert m.status == "done" and len(m.boards) == 2  # ended by 2 boards (no side passed A first)
    history = [MatchResult(m.round, m.pairs[0], m.pairs[1], tuple(m.result["mp"]), tuple(m.result["lp"]),
                           ResultKind(m.result["kind"])) for m in matches]  # fmt: skip
    expected = ranking.rank(pairs.entrants(pairs.list_teams("league")), history)
    got = scoring.compute_standings(event, 3)["standings"]
    assert [(s["team"], s["place"], s["mp"], s["lp"]) for s in got] == [
        (s.team, s.place, s.mp, s.lp) for s in expected
    ]


def test_each_board_starts_from_the_carry_of_the_one_before(league):
    b, bots = league
    rounds.request_next_round(b.rt, "league")
    play(bots)
    for m in list_matches("league", 1):
        first = board_store.load("league", 1, m.table, "1")
        second = board_store.load("league", 1, m.table, "2")
        assert first.next_board == "2" and second.previous_board == "1"
        carried = board_store.result_of(first)["carry"]
        assert second.carry == carried
        assert second.carry["boards"] == 1 and "order" in second.carry


def test_the_match_result_is_written_with_the_board_that_ended_it(league, monkeypatch):
    """A crash between the two writes is impossible: they are one transaction. Here the transaction
    is refused once (a lost race) and the board is redone: neither half is written alone."""
    b, bots = league
    rounds.request_next_round(b.rt, "league")
    play(bots)
    for m in list_matches("league", 1):
        last = board_store.load("league", 1, m.table, m.boards[-1])
        assert last.status == "ended" and m.result is not None
    assert rounds.get_progress("league", 1) == (2, 2)


def test_the_next_rounds_pairing_is_stored_when_a_round_ends(league):
    b, bots = league
    rounds.request_next_round(b.rt, "league")
    play(bots)
    stored = PairingItem.get(event_pk("league"), "PAIRING#002")
    assert stored.source == "swiss"
    shown = match_rounds.get_pairing(events.get_event("league"), 2)
    assert shown["stored"] and shown["pairs"] == stored.pairs
    rounds.request_next_round(b.rt, "league")
    seated = sorted(tuple(t["pairs"]) for t in rounds.round_status("league", 2)["tables"])
    assert seated == sorted(tuple(p) for p in stored.pairs)


def test_a_result_after_the_round_ended_does_not_pair_the_next_round_again(league, monkeypatch):
    """A retried or late score of a round that has ended finds the next pairing stored: it is not
    computed again (a national field's Swiss pairing takes seconds; issue 41)."""
    b, bots = league
    rounds.request_next_round(b.rt, "league")
    play(bots)
    stored = PairingItem.get(event_pk("league"), "PAIRING#002")
    computed: list[int] = []
    compute = match_rounds.compute_pairing
    monkeypatch.setattr(
        match_rounds,
        "compute_pairing",
        lambda event, n, lot=None: computed.append(n) or compute(event, n, lot),
    )
    match = next(m for m in list_matches("league", 1) if m.table)
    for board in match.boards:  # the score function again, for every board of a match
        scoring.record_result(b.rt, "league", 1, match.table, board)
    assert computed == []
    assert PairingItem.get(event_pk("league"), "PAIRING#002").pairs == stored.pairs


def test_an_override_is_checked_warned_and_logged(league):
    b, bots = league
    rounds.request_next_round(b.rt, "league")
    play(bots)
    first = [tuple(m.pairs) for m in list_matches("league", 1) if m.table]
    rematch = [list(first[0]), list(first[1])]
    shown = match_rounds.override_pairing(events.get_event("league"), 2, rematch, None, "TV table", "org")
    assert shown["source"] == "override"
    assert {w["concern"] for w in shown["warnings"]} >= {"rematch"}
    from deckhand.service.refereeing.actions import audit_log

    assert [e["kind"] for e in audit_log("league")] == ["pairing_override"]
    rounds.request_next_round(b.rt, "league")
    seated = sorted(tuple(t["pairs"]) for t in rounds.round_status("league", 2)["tables"])
    assert seated == sorted(tuple(p) for p in rematch)


def test_an_odd_field_gives_the_bye_a_forfeit_win(backend):
    events.create_event(match_event())
    pairs.register_pairs("league", [{"id": p, "players": [{"id": f"{p}1"}, {"id": f"{p}2"}]} for p in "XYZ"])
    events.register_tables("league", [{"id": "A", "seats": THINGS[:4]}])
    rounds.request_next_round(backend.rt, "league")
    status = rounds.round_status("league", 1)
    assert len(status["byes"]) == 1
    (bye,) = [m for m in list_matches("league", 1) if not m.table]
    assert bye.result == {"mp": [2, 0], "lp": [18, 0], "kind": "bye"}


def test_same_boards_option_deals_board_k_alike_at_every_table(backend):
    prepare(backend, match={"format": "swiss", "same_boards": True})
    rounds.request_next_round(backend.rt, "league")
    a = board_store.load("league", 1, "A", "1")
    b_ = board_store.load("league", 1, "B", "1")
    assert board_store.engine_of(a)[1].hand(0) == board_store.engine_of(b_)[1].hand(0)


def test_boards_differ_between_tables_by_default(league):
    b, _ = league
    rounds.request_next_round(b.rt, "league")
    a = board_store.load("league", 1, "A", "1")
    b_ = board_store.load("league", 1, "B", "1")
    assert board_store.engine_of(a)[1].hand(0) != board_store.engine_of(b_)[1].hand(0)


def test_the_clock_makes_the_board_in_play_the_last(backend):
    bots = prepare(backend, options={"end_mode": "time", "minutes": 60}, match={"no_new_board_after": 50})
    rounds.request_next_round(backend.rt, "league")
    match = MatchItem.get(event_pk("league"), match_sk(1, "A"))
    assert match.clock_ends_at == match.started_at + 50 * 60_000
    backend.clock.advance(50 * 60_000)
    assert backend.sweep()["timeouts"] >= 2  # both tables told; the default timeouts come too
    assert all(board_store.load("league", 1, t, "1").time_up_told for t in "AB")
    assert backend.sweep()["timeouts"] == 0, "each board is told once"
    play(bots)
    for m in list_matches("league", 1):
        assert m.status == "done" and len(m.boards) == 1, "no new board after the clock ran out"


def test_results_document_shows_each_match_board_by_board(league):
    b, bots = league
    rounds.request_next_round(b.rt, "league")
    play(bots)
    doc = match_results.results_document(events.get_event("league"), 1)
    assert doc["ruleset"] == MATCH_RULESET and len(doc["matches"]) == 2
    m = doc["matches"][0]
    a, bb = m["pairs"]
    assert m["seats"] == {a: [0, 2], bb: [1, 3]}
    assert [x["board"] for x in m["boards"]] == [1, 2]
    first = m["boards"][0]
    assert first["levels_before"] == {a: "2", bb: "2"} and first["level_side"] in (a, bb)
    assert m["boards"][1]["levels_before"] == first["levels_after"]
    assert m["result"]["levels"] == m["boards"][-1]["levels_after"]
    assert set(m["result"]["mp"]) == {a, bb} and sum(m["result"]["mp"].values()) == 2
    assert [s["team"] for s in doc["standings"]] and all("decided_by" in s for s in doc["standings"])


def test_pairs_are_refused_for_a_duplicate_event_and_players_for_a_match_event(backend):
    events.create_event(match_event())
    with pytest.raises(events.Conflict):
        events.register_players("league", [{"id": "P1"}])
    with pytest.raises(events.Conflict):
        pairs.register_pairs("league", [{"id": "A", "players": [{"id": "p"}, {"id": "p2"}]},
                                        {"id": "B", "players": [{"id": "p"}, {"id": "p3"}]}])  # fmt: skip
    assert pairs.list_teams("league") == []


def test_referee_penalties_apply_to_the_board_in_play_and_are_audited(league):
    from deckhand.service.refereeing import actions as referee

    b, bots = league
    rounds.request_next_round(b.rt, "league")
    event = events.get_event("league")
    m = next(m for m in list_matches("league", 1) if m.table == "A")
    offender = m.players[1]
    shown = referee.record(
        event, {"kind": "warning", "player": offender, "reason": "slow"}, by="ref", rt=b.rt
    )
    assert shown["table"] == "A" and shown["board"] == "1" and shown["seat"] == 1
    referee.record(event, {"kind": "foul", "player": offender, "reason": "showed cards"}, by="ref", rt=b.rt)
    first = board_store.load("league", 1, "A", "1")
    assert first.status == "ended"
    assert [(e["t"], e["by"]) for e in first.log if "by" in e] == [("warning", "ref"), ("foul", "ref")]
    result = board_store.result_of(first)
    assert result["ended_by"] == "foul" and result["winner_side"] == 0
    second = board_store.load("league", 1, "A", "2")
    assert second.carry["no_tribute"] and board_store.engine_of(second)[1].seat_view(0).phase == "lead"
    # A game forfeit ends the match: 2:0 and the forfeit's level points, kind forfeit.
    referee.record(event, {"kind": "forfeit", "player": offender, "reason": "left"}, by="ref", rt=b.rt)
    m = MatchItem.get(event_pk("league"), match_sk(1, "A"))
    assert m.status == "done" and m.result["kind"] == "forfeit" and m.result["mp"] == [2, 0]
    assert sorted(a["kind"] for a in referee.audit_log("league")) == ["forfeit", "foul", "warning"]
    with pytest.raises(Exception, match="has ended"):
        referee.record(event, {"kind": "warning", "player": offender, "reason": "x"}, by="ref", rt=b.rt)
    play(bots)
    assert rounds.round_status("league", 1)["status"] == "done"
    history = match_results.history("league")
    assert any(h.kind is ResultKind.FORFEIT for h in history)


def test_best_of_three_plays_games_until_a_pair_wins_two(backend):
    """Each game here ends after one board (end mode boards, 1): a match is two or three games, each
    starting again at level 2, and its score combines them (2:0 to the pair with more games won)."""
    bots = prepare(
        backend,
        match={"format": "swiss", "games": "best_of_three"},
        options={"end_mode": "boards", "boards": 1},
    )
    rounds.request_next_round(backend.rt, "league")
    play(bots)
    for m in list_matches("league", 1):
        assert m.status == "done" and len(m.games) in (2, 3) and len(m.boards) == len(m.games)
        assert m.rules["game_starts"] == m.boards  # every board began a game
        wins = [sum(1 for g in m.games if g["mp"][side] == 2) for side in (0, 1)]
        assert max(wins) == 2 or len(m.games) == 3
        for b in m.boards:
            item = board_store.load("league", 1, m.table, b)
            assert item.carry == {"options": m.rules["options"]}  # a new game: levels back to 2
        lp = [sum(g["lp"][side] for g in m.games) for side in (0, 1)]
        assert m.result["lp"] == lp
        if wins[0] != wins[1]:
            assert m.result["mp"] == ([2, 0] if wins[0] > wins[1] else [0, 2])


def test_the_clock_warns_then_takes_the_default_with_a_violation(league):
    """RULES.md §4 "Timing": past 20 s a warning (recorded against the side, shown on the handset),
    at 30 s the turn is passed (or led: a forced pass) with a violation; both logged as the clock's."""
    b, _ = league
    rounds.request_next_round(b.rt, "league")
    item = board_store.load("league", 1, "A", "1")
    _, board = board_store.engine_of(item)
    seat = board.pending()[0]
    thing = THINGS[seat]
    b.clock.advance(19_000)
    assert b.sweep()["timeouts"] == 0
    b.clock.advance(2_000)
    b.sweep()
    item = board_store.load("league", 1, "A", "1")
    _, board = board_store.engine_of(item)
    assert board.pending() == [seat], "a warning leaves the decision with the seat"
    assert [(e["s"], e["t"], e.get("to")) for e in item.log] == [(seat, "warning", True)]
    assert board.seat_view(seat).penalties == ((seat, "warning (timeout)"),)
    assert any("arning" in line for line in b.last_view(thing)["l"]), "the handset shows the warning"
    assert item.deadline == item.log[0]["at"] + 10_000  # ten seconds after the warning
    b.clock.advance(9_000)
    b.sweep()
    assert len(board_store.load("league", 1, "A", "1").log) == 1
    b.clock.advance(1_000)
    b.sweep()
    item = board_store.load("league", 1, "A", "1")
    kinds = [(e["s"], e["t"], e.get("to")) for e in item.log]
    assert kinds[:2] == [(seat, "warning", True), (seat, "pass", True)]
    _, board = board_store.engine_of(item)
    assert (seat, "violation (timeout)") in board.seat_view(seat).penalties
    # The next seat's clock starts afresh: its own warning at 20 s, once.
    b.clock.advance(25_000)
    b.sweep()
    b.sweep()
    item = board_store.load("league", 1, "A", "1")
    assert sum(1 for e in item.log if e["t"] == "warning") == 2


def test_a_handset_calls_the_referee_and_play_goes_on(league):
    """Any seat, at any moment of a board: the call is noted on the board for the event's staff (the
    round's status) and in the audit, once per message and once a minute per seat; nothing else."""
    from deckhand.service.refereeing import actions as referee
    from deckhand.service.refereeing import replay_audit

    b, bots = league
    rounds.request_next_round(b.rt, "league")
    item = board_store.load("league", 1, "A", "1")
    idle = next(s for s in range(4) if s not in board_store.engine_of(item)[1].pending())
    thing = THINGS[idle]
    call = act("call-1", "1", "call", r=1)
    assert b.send(thing, call)["status"] == "accepted"
    assert b.send(thing, call)["status"] == "duplicate"
    assert b.send(thing, act("call-2", "1", "call", r=1))["status"] == "accepted"  # within the minute
    item = board_store.load("league", 1, "A", "1")
    assert [(e["s"], e["t"]) for e in item.log] == [(idle, "call")]
    staff = rounds.round_status("league", 1)
    (board,) = next(t for t in staff["tables"] if t["table"] == "A")["boards"]
    assert board["calls"] == [{"seat": idle, "at": item.log[0]["at"]}]
    assert "calls" not in str(rounds.round_status("league", 1, staff=False))
    (entry,) = referee.audit_log("league")
    assert entry["kind"] == "call_referee" and entry["by"] == thing and entry["seat"] == idle
    b.clock.advance(61_000)
    assert b.send(thing, act("call-3", "1", "call", r=1))["status"] == "accepted"
    assert sum(1 for e in board_store.load("league", 1, "A", "1").log if e["t"] == "call") == 2
    b.sweep()  # the minute passed: the clocks took their defaults; the handsets have new views
    play(bots)
    counts = replay_audit.audit_event("league")
    assert counts["replay_mismatches"] == counts["doubled"] == 0


def test_a_tables_handsets_restarting_mid_match_resume_the_board_in_play(league):
    """Every handset of one table reboots during the match's second board: each says hello and gets
    its own view of that board (never board 1's, never another seat's hand), and the match goes on."""
    b, bots = league
    rounds.request_next_round(b.rt, "league")
    table_a = [bot for bot in bots if bot.thing in THINGS[:4]]
    for _ in range(400):  # play table A until its second board has begun
        if board_store.load("league", 1, "A", "2") is not None:
            break
        for bot in table_a:
            bot.act()
    second = board_store.load("league", 1, "A", "2")
    assert second is not None and second.status == "playing"
    for seat, thing in enumerate(THINGS[:4]):
        assert b.send(thing, {"t": "hello", "msg": f"{thing}-boot"})["status"] == "accepted"
        view = b.last_view(thing)
        assert view["b"] == "2" and view["s"] == seat
        assert sorted(view["h"]) == sorted(b.seat_view(thing, view)["hand"])  # its own, in display order
    play(bots)
    assert rounds.round_status("league", 1)["status"] == "done"


def test_round_one_by_snake_reads_the_pairs_seeds(backend):
    """Swiss round 1 "snake by strength" (RULES.md §4.3): the seeds the pairs were registered with
    order the field, whatever their registration numbers."""
    events.create_event(
        match_event(match={"format": "swiss", "swiss": {"round1": "snake", "no_same_region_round1": False}})
    )
    seeds = {"N": 4, "E": 1, "S": 3, "W": 2}
    pairs.register_pairs(
        "league", [{"id": p, "seed": seeds[p], "players": [{"id": f"{p}1"}, {"id": f"{p}2"}]} for p in PAIRS]
    )
    listed = {pairs.entrants([t])[0].id: pairs.entrants([t])[0].seed for t in pairs.list_teams("league")}
    assert listed == seeds
    shown = match_rounds.get_pairing(events.get_event("league"), 1)
    from deckhand.competition.matchplay import swiss

    expected = swiss.pair_round(
        pairs.entrants(pairs.list_teams("league")), [], 1, swiss.SwissOptions(round1=swiss.Round1Method.SNAKE)
    )
    assert shown["pairs"] == [list(p) for p in expected.pairs]
    assert shown["pairs"] != [["N", "E"], ["S", "W"]]  # not the registration order


def test_a_match_export_carries_hand_and_play_records_once_its_round_is_done(league):
    b, bots = league
    rounds.request_next_round(b.rt, "league")
    play(bots)
    rounds.request_next_round(b.rt, "league")  # round 2 in play
    doc = match_results.results_document(events.get_event("league"), 2)
    first = [m for m in doc["matches"] if m["round"] == 1 and m["table"]]
    ended = [x for m in first for x in m["boards"] if x["status"] == "ended"]
    assert ended and all(len(x["deal"]["hands"]) == 4 and x["play"] for x in ended)
    assert all(len(h) == 27 for x in ended for h in x["deal"]["hands"])
    later = [x for m in doc["matches"] if m["round"] == 2 for x in m["boards"]]
    assert all("deal" not in x and "play" not in x for x in later)
