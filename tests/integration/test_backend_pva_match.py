"""A players-vs-AI match event (人机赛 for the games played in pairs): a person's pair has the AI as
its partner, and an AI pair sits opposite. The AI decides for its seats the moment they are asked;
it never decides for the person's seat, whose decisions come only from the person's device."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from backend import Backend
from deckhand.engines.registry import game
from deckhand.errors import DeckhandError, NotFound
from deckhand.service.boards import store as board_store
from deckhand.service.boards.round_boards import list_matches
from deckhand.service.duplicate import rounds, scoring
from deckhand.service.organiser import events, pairs, player_links
from test_backend_match import THINGS, SeatBot

GAMES = {
    "guandan-2023": {"end_mode": "boards", "boards": 2},
    "shengji-yaoji2010": {"minutes": 60, "last_board_minutes": 50},
}
ME = {"id": "ME", "players": [{"id": "P1", "name": "玩家"}, {"id": "AI1", "ai": True}]}
BOTS = {"id": "AI", "players": [{"id": "AI2", "ai": True}, {"id": "AI3", "ai": True}]}


def pva_match(ruleset: str, fmt: str = "pva") -> dict[str, Any]:
    return {
        "event_id": "solo",
        "name": "Solo pairs",
        "ruleset": ruleset,
        "grade": "unrated",
        "format": fmt,
        "rounds": 1,
        "start": dt.date(2026, 12, 14),
        "deal_seed": "solo",
        "match": {"format": "swiss", "deal_ms": 0},
        **({"options": GAMES[ruleset]} if ruleset in GAMES else {}),
    }


def prepare(b: Backend, ruleset: str) -> SeatBot:
    """The event, its two pairs and one table; round 1 started. The person's handset's bot."""
    events.create_event(pva_match(ruleset))
    pairs.register_pairs("solo", [ME, BOTS])
    events.register_tables("solo", [{"id": "A", "seats": THINGS[:4]}])
    rounds.request_next_round(b.rt, "solo")
    (match,) = [m for m in list_matches("solo", 1) if m.table]
    return SeatBot(b, THINGS[match.players.index("P1")])


def person_seat() -> int:
    (match,) = [m for m in list_matches("solo", 1) if m.table]
    return list(match.players).index("P1")


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_the_ai_plays_partner_and_opponents_and_never_the_persons_seat(backend, ruleset):
    person = prepare(backend, ruleset)
    seat = person_seat()
    (match,) = [m for m in list_matches("solo", 1) if m.table]
    assert match.players[seat] == "P1"
    assert [p for s, p in enumerate(match.players) if s != seat] == ["", "", ""]  # the AI's seats
    partner = next(side for side in game(ruleset).sides if seat in side)
    assert match.pairs[[seat in side for side in game(ruleset).sides].index(True)] == "ME"
    assert len(partner) == 2

    for _ in range(5000):
        match = next(m for m in list_matches("solo", 1) if m.table)
        if len(match.boards) > 2:
            break  # two boards ended (a Shengji match by time takes many more): enough to see
        for b in match.boards:
            item = board_store.load("solo", 1, "A", b)
            assert item is not None
            if item.status == "playing":
                # Whatever is pending is the person's: the AI has decided for its seats already.
                assert set(board_store.engine_of(item)[1].pending()) <= {seat}
        outcome = person.act()
        if outcome is None:
            break
        assert outcome["status"] == "accepted", outcome
    match = next(m for m in list_matches("solo", 1) if m.table)
    ended = [board_store.load("solo", 1, "A", b) for b in match.boards[:2]]
    assert len(ended) == 2
    for item in ended:
        assert item is not None and item.status == "ended"
        mine = [e for e in item.log if e["s"] == seat and e["t"] in {a.kind for a in game(ruleset).actions}]
        # Every decision of the person's seat came from the person's device (its message id), or was
        # the clock's default: the AI decided none of them.
        assert mine and all(e.get("m", "").startswith(person.thing) or e.get("to") for e in mine), mine
        theirs = [e for e in item.log if e["s"] != seat and "m" in e]
        assert theirs == [], "a device acted for an AI seat"
    if GAMES[ruleset].get("boards") == 2:  # the match ended by its boards: the event's standings
        assert match.status == "done" and match.result is not None
        assert rounds.round_status("solo", 1)["status"] == "done"
        standings = scoring.compute_standings(events.get_event("solo"), 1)["standings"]
        assert sorted(s["team"] for s in standings) == ["AI", "ME"]


def test_only_the_person_gets_a_join_link(backend):
    events.create_event(pva_match("guandan-2023"))
    pairs.register_pairs("solo", [ME, BOTS])
    assert [link.player for link in player_links.issue_links("solo")] == ["P1"]
    with pytest.raises(NotFound, match="AI1"):
        player_links.issue_links("solo", ["AI1"])


def test_a_pvp_match_event_has_no_ai_players(backend):
    events.create_event(pva_match("guandan-2023", fmt="pvp"))
    with pytest.raises(DeckhandError, match="players-vs-AI"):
        pairs.register_pairs("solo", [ME, BOTS])
    assert pairs.list_teams("solo") == []
    assert events.get_event("solo").format == "pvp"


BOARD_GAMES = ["xiangqi-2004", "gomoku-renju", "junqi-2004", "checkers-2004"]
PERSON_MOVES = 6  # the person's actions taken in each board game: each one answered by the AI


@pytest.mark.parametrize("ruleset", BOARD_GAMES)
def test_a_person_plays_a_board_game_against_the_ai(backend, ruleset):
    """人机对弈 as `deckhand play --game <board game>` starts it: one person against one AI player, a
    Swiss match of two games; after each of the person's moves the AI has answered (the person's seat is
    the only one pending), and the AI never acts for the person."""
    events.create_event({**pva_match(ruleset), "match": {"format": "swiss"}})
    pairs.register_pairs(
        "solo",
        [{"id": "ME", "players": [{"id": "P1"}]}, {"id": "AI", "players": [{"id": "AI1", "ai": True}]}],
    )
    events.register_tables("solo", [{"id": "A", "seats": THINGS[:2]}])
    rounds.request_next_round(backend.rt, "solo")
    (match,) = [m for m in list_matches("solo", 1) if m.table]
    assert "" in match.players  # the AI's seat has no person
    first = board_store.load("solo", 1, "A", match.boards[-1])
    assert first is not None
    person = SeatBot(backend, first.devices[first.players.index("P1")])  # the person's handset
    for _ in range(PERSON_MOVES):
        item = board_store.load("solo", 1, "A", match.boards[-1])
        assert item is not None and item.status == "playing"
        seat = item.players.index("P1")  # the game's seat: its colours are the lot's (RULES.md §6.5)
        assert board_store.engine_of(item)[1].pending() == [seat]  # the AI has moved whenever it was asked
        outcome = person.act()
        assert outcome is not None and outcome["status"] == "accepted", outcome
    item = board_store.load("solo", 1, "A", match.boards[-1])
    assert item is not None
    mine = [e for e in item.log if e["s"] == seat and "m" in e]
    theirs = [e for e in item.log if e["s"] == 1 - seat and e["t"] in ("move", "setup")]
    assert len(mine) == PERSON_MOVES and all(e["m"].startswith(person.thing) for e in mine)
    assert len(theirs) >= PERSON_MOVES - 1 and not any("m" in e for e in theirs)
