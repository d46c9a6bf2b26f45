"""Match play under failures and at its edges: penalties retried after a half-done request, a
disqualification in a best of three, each game's own clock, a hand-paired round that the Swiss cannot
pair, a round robin that loses a pair, what the public sees while a round is played, a referee's
penalty after the clock ran out, the warning's own ten seconds, a referee call retried, a bye's level
table, and two pair registrations racing for one player."""

from __future__ import annotations

import pytest
from backend import act
from deckhand.service.boards import store as board_store
from deckhand.service.boards.records import play_record
from deckhand.service.boards.round_boards import list_matches
from deckhand.service.duplicate import rounds
from deckhand.service.matches import formats as match_formats
from deckhand.service.matches import round_of_matches as match_rounds
from deckhand.service.organiser import events, pairs
from deckhand.service.refereeing import actions as referee
from deckhand.service.refereeing.outage import Outage, stop_clocks
from deckhand.service.refereeing.replay_audit import audit_event
from deckhand.service.storage.keys import event_pk, match_sk
from deckhand.service.storage.models import AuditItem, MatchItem, TeamItem
from test_backend_match import THINGS, match_event, play, prepare


def _penalty(b, kind, player, key="req-1"):
    action = {"kind": kind, "player": player, "reason": "x"}
    return referee.record(events.get_event("league"), action, by="ref", rt=b.rt, request=key)


def _failing_once(monkeypatch, cls, name):
    real = getattr(cls, name)
    calls = {"n": 0}

    def flaky(self, *a, **k):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("the database refused (simulated)")
        return real(self, *a, **k)

    monkeypatch.setattr(cls, name, flaky)


def test_a_penalty_retried_after_a_failure_is_applied_once(backend, monkeypatch):
    prepare(backend)
    rounds.request_next_round(backend.rt, "league")
    player = board_store.load("league", 1, "A", "1").players[1]
    _failing_once(monkeypatch, AuditItem, "save")
    with pytest.raises(RuntimeError):
        _penalty(backend, "violation", player)
    _penalty(backend, "violation", player)  # the same request again (its Idempotency-Key)
    item = board_store.load("league", 1, "A", "1")
    assert [(e["s"], e["t"]) for e in item.log if e.get("by")] == [(1, "violation")]
    assert [a["kind"] for a in referee.audit_log("league")] == ["violation"]
    _penalty(backend, "violation", player, key="req-2")  # another request: another penalty
    assert len([e for e in board_store.load("league", 1, "A", "1").log if e.get("by")]) == 2


def test_a_disqualification_retried_after_a_failure_still_withdraws_the_pair(backend, monkeypatch):
    prepare(backend)
    rounds.request_next_round(backend.rt, "league")
    player = board_store.load("league", 1, "A", "1").players[1]
    _failing_once(monkeypatch, TeamItem, "update")
    with pytest.raises(RuntimeError):
        _penalty(backend, "disqualify", player)
    _penalty(backend, "disqualify", player)
    m = MatchItem.get(event_pk("league"), match_sk(1, "A"))
    inactive = [t.sk for t in pairs.list_teams("league") if not t.active]
    assert inactive == [f"TEAM#{m.pairs[1]}"]
    assert [a["kind"] for a in referee.audit_log("league")] == ["disqualify"]


def test_a_disqualified_pair_forfeits_the_rest_of_a_best_of_three(backend):
    prepare(
        backend,
        match={"format": "swiss", "games": "best_of_three"},
        options={"end_mode": "boards", "boards": 1},
    )
    rounds.request_next_round(backend.rt, "league")
    m = MatchItem.get(event_pk("league"), match_sk(1, "A"))
    _penalty(backend, "disqualify", m.players[1])
    m = MatchItem.get(event_pk("league"), match_sk(1, "A"))
    assert m.status == "done" and m.boards == ["1"], "no game is dealt to a disqualified pair"
    assert [g["mp"] for g in m.games] == [[2, 0], [2, 0]]
    assert m.result["mp"] == [2, 0] and m.result["kind"] == "forfeit"


def test_each_game_of_a_best_of_three_has_its_own_clock(backend):
    bots = prepare(
        backend,
        match={"format": "swiss", "games": "best_of_three"},
        options={"end_mode": "time", "minutes": 60},
    )
    rounds.request_next_round(backend.rt, "league")
    backend.clock.advance(60 * 60_000)  # game 1's hour is over: its board in play is its last
    backend.sweep()
    _play_each_game_to_its_hour(backend, bots)
    assert any(len(m.rules["game_starts"]) > 1 for m in list_matches("league", 1))
    for m in list_matches("league", 1):
        for start in m.rules["game_starts"][1:]:
            item = board_store.load("league", 1, m.table, start)
            assert item.clock_ends_at > m.started_at + 60 * 60_000  # from the game's own start


def _play_each_game_to_its_hour(backend, bots, limit: int = 5000) -> None:
    """The bots play; as each later game starts, its hour passes too (its first board is its last), so
    a best of three ends in a few boards rather than three whole games."""
    games = {m.table: 1 for m in list_matches("league", 1)}
    for _ in range(limit):
        moved = [outcome for bot in bots if (outcome := bot.act()) is not None]
        assert all(o["status"] == "accepted" for o in moved), moved
        started = {m.table: len(m.rules.get("game_starts", [])) for m in list_matches("league", 1)}
        later = any(n > games.get(t, 1) for t, n in started.items())
        games.update(started)
        if later:
            backend.clock.advance(60 * 60_000)
            backend.sweep()
        elif not moved:
            return
    raise AssertionError("the round did not finish")


def test_a_round_the_swiss_cannot_pair_starts_with_the_organisers_pairing(backend):
    # Matches of one board: the pairing, not the play, is the rule here (4 pairs who have all met).
    bots = prepare(backend, rounds=4, options={"end_mode": "boards", "boards": 1})
    for _ in range(3):
        rounds.request_next_round(backend.rt, "league")
        play(bots)
    with pytest.raises(match_formats.PairingProblem):
        rounds.request_next_round(backend.rt, "league")  # 4 pairs, 3 rounds: everyone has met
    met = [m.pairs for m in list_matches("league", 1) if m.table]
    match_rounds.override_pairing(events.get_event("league"), 4, met, None, "a fourth round", "org")
    assert rounds.request_next_round(backend.rt, "league") == 4


def test_a_round_robin_keeps_its_schedule_and_a_withdrawn_pair_forfeits(backend):
    bots = prepare(backend, match={"format": "round_robin"})
    full = match_rounds.compute_pairing(events.get_event("league"), 2)["pairs"]
    rounds.request_next_round(backend.rt, "league")
    m = MatchItem.get(event_pk("league"), match_sk(1, "A"))
    _penalty(backend, "disqualify", m.players[1])
    play(bots)
    gone = m.pairs[1]
    pairing = match_rounds.get_pairing(events.get_event("league"), 2)
    assert pairing["bye"] is None
    kept = [p for p in full if gone not in p]
    assert pairing["pairs"] == kept  # the Berger table of the registered field, unchanged
    (forfeit,) = pairing["forfeits"]
    assert forfeit[1] == gone
    rounds.request_next_round(backend.rt, "league")
    (scored,) = [x for x in list_matches("league", 2) if not x.table]
    assert scored.pairs == forfeit and scored.result["kind"] == "forfeit" and scored.result["mp"] == [2, 0]


def test_the_public_round_status_shows_no_score_of_the_round_in_play(backend):
    bots = prepare(backend)
    rounds.request_next_round(backend.rt, "league")
    m = MatchItem.get(event_pk("league"), match_sk(1, "A"))
    _penalty(backend, "forfeit", m.players[1])  # table A's match is over, B plays on
    public = rounds.round_status("league", 1, staff=False)
    assert all("result" not in t["match"] for t in public["tables"])
    staff = rounds.round_status("league", 1)
    assert next(t for t in staff["tables"] if t["table"] == "A")["match"]["result"]["kind"] == "forfeit"
    play(bots)
    assert all("result" in t["match"] for t in rounds.round_status("league", 1, staff=False)["tables"])


def test_a_penalty_after_the_clock_ran_out_ends_the_match(backend):
    prepare(backend, options={"end_mode": "time", "minutes": 60}, match={"no_new_board_after": 50})
    rounds.request_next_round(backend.rt, "league")
    backend.clock.advance(51 * 60_000)  # no sweep has run yet
    m = MatchItem.get(event_pk("league"), match_sk(1, "A"))
    _penalty(backend, "foul", m.players[1])
    m = MatchItem.get(event_pk("league"), match_sk(1, "A"))
    assert m.status == "done" and m.boards == ["1"]


def test_the_violation_comes_ten_seconds_after_a_late_warning(league_started):
    b = league_started
    item = board_store.load("league", 1, "A", "1")
    seat = board_store.engine_of(item)[1].pending()[0]
    b.clock.advance(45_000)  # the sweep runs late (on AWS once a minute)
    b.sweep()
    item = board_store.load("league", 1, "A", "1")
    assert [(e["s"], e["t"]) for e in item.log] == [(seat, "warning")]
    assert item.deadline == item.log[0]["at"] + 10_000
    b.clock.advance(10_000)
    b.sweep()
    assert [e["t"] for e in board_store.load("league", 1, "A", "1").log][:2] == ["warning", "pass"]


@pytest.fixture
def league_started(backend):
    prepare(backend)
    rounds.request_next_round(backend.rt, "league")
    return backend


def test_a_call_retried_after_a_failure_is_audited_once(league_started, monkeypatch):
    b = league_started
    _failing_once(monkeypatch, AuditItem, "save")
    with pytest.raises(RuntimeError):
        b.send(THINGS[1], act("call-1", "1", "call", r=1))
    assert b.send(THINGS[1], act("call-1", "1", "call", r=1))["status"] == "duplicate"
    assert [a["kind"] for a in referee.audit_log("league")] == ["call_referee"]


def test_a_bye_scores_the_event_level_tables_forfeit(backend):
    table = {"rows": [[13 + d, 13 - d] for d in range(14)], "forfeit": [20, 0]}
    events.create_event(match_event(options={"end_mode": "boards", "boards": 2, "table": table}))
    pairs.register_pairs("league", [{"id": p, "players": [{"id": f"{p}1"}, {"id": f"{p}2"}]} for p in "XYZ"])
    events.register_tables("league", [{"id": "A", "seats": THINGS[:4]}])
    rounds.request_next_round(backend.rt, "league")
    (bye,) = [m for m in list_matches("league", 1) if not m.table]
    assert bye.result == {"mp": [2, 0], "lp": [20, 0], "kind": "bye"}


def test_two_registrations_racing_never_put_one_player_in_two_pairs(backend, monkeypatch):
    events.create_event(match_event())
    real = pairs.list_teams
    monkeypatch.setattr(pairs, "list_teams", lambda event_id: [])  # both read before either wrote
    pairs.register_pairs("league", [{"id": "A", "players": [{"id": "p1"}, {"id": "p2"}]}])
    with pytest.raises(events.Conflict):
        pairs.register_pairs("league", [{"id": "B", "players": [{"id": "p1"}, {"id": "p3"}]}])
    assert [t.sk for t in real("league")] == ["TEAM#A"]


def test_a_warned_decision_is_moved_on_by_an_outage_too(league_started):
    """The rest of a warned decision's time (ten seconds from the warning) survives a venue's outage:
    the warning's time is moved on like the seat's ``asked_at``, and no second warning comes."""
    b = league_started
    item = board_store.load("league", 1, "A", "1")
    seat = board_store.engine_of(item)[1].pending()[0]
    b.clock.advance(25_000)
    b.sweep()  # warned at 25 s: the violation is due at 35 s
    since = b.clock.ms + 5_000  # the venue's last beat: five seconds left
    b.clock.advance(65_000)  # down for a minute
    assert stop_clocks(Outage(since, b.clock.ms)).boards >= 1
    assert b.sweep()["timeouts"] == 0
    item = board_store.load("league", 1, "A", "1")
    assert item.deadline == b.clock.ms + 5_000  # the five seconds left before the outage
    b.clock.advance(4_900)
    b.sweep()
    assert [(e["s"], e["t"]) for e in board_store.load("league", 1, "A", "1").log] == [
        (seat, "warning"),
        (-1, "clocks_stopped"),
    ]
    b.clock.advance(100)
    b.sweep()
    item = board_store.load("league", 1, "A", "1")
    assert [e["t"] for e in item.log][:3] == ["warning", "clocks_stopped", "pass"]
    assert audit_event("league")["replay_mismatches"] == 0  # replay looks past the outage's entry
    assert all(e["t"] != "clocks_stopped" for e in play_record(item))


def test_a_penalty_retried_without_an_idempotency_key_is_applied_and_audited_once(backend):
    """An audit entry is written once per change of state, whatever the retry carries (issue 34)."""
    prepare(backend)
    rounds.request_next_round(backend.rt, "league")
    player = board_store.load("league", 1, "A", "1").players[1]
    first = _penalty(backend, "warning", player, key=None)
    again = _penalty(backend, "warning", player, key=None)  # the same request, retried without a key
    assert again["at"] == first["at"]
    item = board_store.load("league", 1, "A", "1")
    assert [(e["s"], e["t"]) for e in item.log if e.get("by")] == [(1, "warning")]
    assert [a["kind"] for a in referee.audit_log("league")] == ["warning"]


def test_a_withdrawal_retried_without_an_idempotency_key_is_audited_once(backend):
    prepare(backend)
    event = events.get_event("league")
    team = pairs.list_teams("league")[0]
    who = team.players[0]["id"]
    action = {"kind": "withdraw", "player": who, "reason": "ill"}
    first = referee.record(event, action, by="ref", rt=backend.rt)
    again = referee.record(events.get_event("league"), action, by="ref", rt=backend.rt)
    assert again == first
    assert [a["kind"] for a in referee.audit_log("league")] == ["withdraw"]
    assert not next(t for t in pairs.list_teams("league") if t.sk == team.sk).active


def test_a_withdrawal_whose_audit_entry_failed_is_audited_by_its_retry(backend, monkeypatch):
    prepare(backend)
    team = pairs.list_teams("league")[0]
    action = {"kind": "withdraw", "player": team.players[0]["id"], "reason": "ill"}
    _failing_once(monkeypatch, AuditItem, "save")
    with pytest.raises(RuntimeError):
        referee.record(events.get_event("league"), action, by="ref", rt=backend.rt)
    referee.record(events.get_event("league"), action, by="ref", rt=backend.rt)
    referee.record(events.get_event("league"), action, by="ref", rt=backend.rt)
    assert [a["kind"] for a in referee.audit_log("league")] == ["withdraw"]
