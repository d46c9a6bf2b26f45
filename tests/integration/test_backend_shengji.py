"""A Shengji match event through the services (RULES.md §5): the cards given out one at a time while
any seat may declare trump, by the server's pace or as a dealing table reads them, the kitty to the
dealer alone, and whole matches board after board to the export (issue: Shengji through the system)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from backend import Backend, act
from deckhand.engines.common.cards import format_cards, parse_cards
from deckhand.engines.registry import game
from deckhand.service.boards import store as board_store
from deckhand.service.boards.round_boards import list_matches
from deckhand.service.duplicate import rounds
from deckhand.service.matches import results as match_results
from deckhand.service.organiser import events, pairs
from deckhand.service.organiser.match_settings import DEAL_MS
from deckhand.service.refereeing.replay_audit import audit_event
from test_backend_match import PAIRS, THINGS, SeatBot, match_event

YAOJI = "shengji-yaoji2010"
COMMON = "shengji-common"
DEALERS = ["sj-deal-A", "sj-deal-B"]


def prepare(b: Backend, *, ruleset: str = YAOJI, dealers: bool = False, **changes: Any) -> list[SeatBot]:
    events.create_event(
        match_event(
            ruleset=ruleset,
            rounds=2,
            deal_seed="shengji-league",
            match={"format": "swiss", **changes.pop("match", {})},
            options=changes.pop("options", {"minutes": 60, "last_board_minutes": 50}),
            **changes,
        )
    )
    pairs.register_pairs(
        "league",
        [
            {"id": p, "players": [{"id": f"{p}1"}, {"id": f"{p}2"}], "region": "R" + str(i % 2)}
            for i, p in enumerate(PAIRS)
        ],
    )
    tables = [{"id": "A", "seats": THINGS[:4]}, {"id": "B", "seats": THINGS[4:]}]
    if dealers:
        for table, thing in zip(tables, DEALERS, strict=True):
            table["dealer"] = thing
    events.register_tables("league", tables)
    return [SeatBot(b, t) for t in THINGS]


def board_of(table: str = "A", board: str = "1") -> Any:
    item = board_store.load("league", 1, table, board)
    assert item is not None
    return item, board_store.engine_of(item)[1]


def shown_hand(b: Backend, thing: str) -> list[str]:
    view = b.last_view(thing)
    assert view is not None
    return list(view["h"])


def declare(b: Backend, thing: str, msg: str, cards: list[int]) -> dict[str, Any]:
    return b.send(thing, act(msg, "1", "declare", c=format_cards(cards), r=1))


def level_cards(board: Any, seat: int) -> list[int]:
    """The seat's cards that may declare at level 2 now (a 2 of a suit)."""
    return [c for c in board.hand(seat) if 48 <= c < 52]  # ranks run 3…A, 2: the 2s are 48…51


def test_without_a_dealing_table_the_server_gives_the_cards_out_at_the_events_pace(backend):
    prepare(backend)
    rounds.request_next_round(backend.rt, "league")
    item, board = board_of()
    assert board.dealt == 0 and item.deal_ms == DEAL_MS and item.deadline == item.deal_from + DEAL_MS
    assert all(shown_hand(backend, t) == [] for t in THINGS[:4]), "no card before its time"
    assert audit_event("league")["replay_mismatches"] == 0, "a board with no card out replays as one"
    backend.clock.advance(2 * DEAL_MS - 1)
    backend.sweep()
    assert board_of()[1].dealt == 1  # the second card is not due yet
    backend.clock.advance(1)
    backend.sweep()
    item, board = board_of()
    assert board.dealt == 2 and [len(shown_hand(backend, t)) for t in THINGS[:4]] == [1, 1, 0, 0]
    # Each handset holds exactly what the seat was given, never a card of another seat or the kitty.
    for seat, thing in enumerate(THINGS[:4]):
        assert sorted(parse_cards(shown_hand(backend, thing), decks=2, jokers=True)) == board.hand(seat)
    backend.clock.advance(100 * DEAL_MS)
    backend.sweep()
    item, board = board_of()
    assert board.dealt == 100 and [len(board.hand(s)) for s in range(4)] == [25] * 4
    assert [len(shown_hand(backend, t)) for t in THINGS[:4]] == [25] * 4
    steps = [e["n"] for e in item.log if e["t"] == "step"]
    assert steps == [1, 2, 100] and board.pending(), "dealt out: the seats are asked in turn"


def test_a_declaration_while_dealing_is_shown_to_every_seat_and_checked_against_the_cards_held(backend):
    prepare(backend)
    rounds.request_next_round(backend.rt, "league")
    _, full = board_of()
    # the deal order says who gets the first 2 and when: card i goes to seat i mod 4
    arrives = next(i for i in range(100) if 48 <= full.order[i] < 52)
    seat, card = arrives % 4, full.order[arrives]
    thing = THINGS[seat]
    early = declare(backend, thing, "d-1", [card])
    assert early["status"] == "rejected", "a card not yet received cannot declare"
    backend.clock.advance((arrives + 1) * DEAL_MS)
    backend.sweep()
    ask = backend.last_view(thing)["ask"]
    assert ask and [o["a"]["k"] for o in ask["o"]] == ["declare"], "declaring is offered while dealing"
    assert declare(backend, thing, "d-2", [card])["status"] == "accepted"
    item, board = board_of()
    assert board.dealt == arrives + 1, "a declaration gives out no card"
    for other in THINGS[:4]:
        lines = " ".join(line for line in backend.last_view(other)["l"] if line)
        assert "declared:" in lines and ("by you" if other == thing else f"by seat {seat}") in lines
    before = item.version
    assert declare(backend, thing, "d-2", [card])["status"] == "duplicate"
    assert board_of()[0].version == before


def test_two_declarations_at_once_give_one_standing_declaration(backend):
    prepare(backend, match={"deal_ms": 0})  # every card out at once: both seats hold their 2s
    rounds.request_next_round(backend.rt, "league")
    _, board = board_of()
    holders = [(s, level_cards(board, s)[0]) for s in range(4) if level_cards(board, s)]
    assert len(holders) >= 2
    (s1, c1), (s2, c2) = holders[:2]
    outcomes: list[dict[str, Any]] = []
    barrier = threading.Barrier(2)

    def send(thing: str, msg: str, card: int) -> None:
        barrier.wait()
        outcomes.append(declare(backend, thing, msg, [card]))

    threads = [
        threading.Thread(target=send, args=(THINGS[s1], "race-1", c1)),
        threading.Thread(target=send, args=(THINGS[s2], "race-2", c2)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    item, board = board_of()
    declared = [e for e in item.log if e["t"] == "declare"]
    accepted = [o for o in outcomes if o["status"] == "accepted"]
    assert len(declared) == len(accepted) >= 1
    if len(accepted) == 1:  # a single level card does not overcall a single (§5): the loser is told why
        assert next(o for o in outcomes if o["status"] == "rejected")["code"]


def test_a_handset_rebooting_during_the_deal_gets_the_cards_dealt_so_far_and_the_declarations(backend):
    prepare(backend)
    rounds.request_next_round(backend.rt, "league")
    backend.clock.advance(41 * DEAL_MS)
    backend.sweep()
    _, board = board_of()
    assert board.dealt == 41
    backend.publisher.sent.clear()
    assert backend.send(THINGS[1], {"t": "hello", "msg": "boot-1"})["status"] == "accepted"
    view = backend.last_view(THINGS[1])
    assert sorted(parse_cards(view["h"], decks=2, jokers=True)) == board.hand(1)
    assert len(view["h"]) == 10 and "41 of 100" in " ".join(x for x in view["l"] if x)
    assert not [p for p in backend.publisher.sent if p[0] != f"dh/{THINGS[1]}/down"], "nobody else is sent"


def test_a_dealing_table_releases_each_card_only_once_it_has_read_it(backend):
    prepare(backend, dealers=True)
    rounds.request_next_round(backend.rt, "league")
    deal = next(p for p in backend.publisher.to(DEALERS[0]) if p["t"] == "deal")
    assert deal["each"] is True and len(deal["order"]) == 108
    order = deal["order"]
    backend.clock.advance(60_000)
    backend.sweep()
    assert board_of()[1].dealt == 0, "the server never paces a table that deals physical cards"

    def report(msg: str, upto: int) -> dict[str, Any]:
        payload = {"t": "dealt", "msg": msg, "board": "1", "r": 1, "cards": order[:upto], "upto": upto}
        return backend.send(DEALERS[0], payload)

    assert report("t-1", 8)["status"] == "accepted"
    assert [len(shown_hand(backend, t)) for t in THINGS[:4]] == [2, 2, 2, 2]
    # Reports 9…23 are lost; the table's next one carries every card read so far.
    assert report("t-24", 24)["status"] == "accepted"
    assert board_of()[1].dealt == 24 and len(shown_hand(backend, THINGS[0])) == 6
    version = board_of()[0].version
    assert report("t-1", 8)["status"] == "duplicate"  # resent late: changes nothing
    assert report("t-9", 9)["status"] == "duplicate"  # overtaken by a later report: changes nothing
    assert board_of()[0].version == version and board_of()[1].dealt == 24
    refused = backend.send(
        DEALERS[0], {"t": "dealt", "msg": "t-y", "board": "1", "r": 1, "cards": order[:3], "upto": 4}
    )
    assert refused["status"] == "rejected" and refused["code"] == "malformed"
    full = backend.send(DEALERS[0], {"t": "dealt", "msg": "t-all", "board": "1", "r": 1, "cards": order})
    assert full["status"] == "accepted"
    assert board_of()[1].dealt == 100 and [len(shown_hand(backend, t)) for t in THINGS[:4]] == [25] * 4


def test_a_misread_while_dealing_stops_the_board_before_the_wrong_card_reaches_a_seat(backend):
    prepare(backend, dealers=True)
    rounds.request_next_round(backend.rt, "league")
    order = next(p for p in backend.publisher.to(DEALERS[0]) if p["t"] == "deal")["order"]
    wrong = [*order[:5], next(t for t in order if t != order[5])]
    payload = {"t": "dealt", "msg": "m-6", "board": "1", "r": 1, "cards": wrong, "upto": 6}
    assert backend.send(DEALERS[0], payload)["code"] == "deal_mismatch"
    item, board = board_of()
    assert item.status == "stopped" and board.dealt == 0
    # A report sent before the misread, arriving after it, resumes nothing.
    stale = {"t": "dealt", "msg": "m-5", "board": "1", "r": 1, "cards": order[:5], "upto": 5}
    assert backend.send(DEALERS[0], stale)["status"] == "duplicate"
    assert board_of()[0].status == "stopped"
    # The referee cleared it; the table deals again from the first card, and its whole report resumes
    # the board with every card out.
    again = {"t": "dealt", "msg": "m-again", "board": "1", "r": 1, "cards": order[:6], "upto": 6}
    backend.send(DEALERS[0], again)
    assert board_of()[0].status == "stopped"
    whole = {"t": "dealt", "msg": "m-all", "board": "1", "r": 1, "cards": order}
    assert backend.send(DEALERS[0], whole)["status"] == "accepted"
    item, board = board_of()
    assert item.status == "playing" and board.dealt == 100


def finish_round(b: Backend, bots: list[SeatBot], round_no: int = 1) -> None:
    """Bots decide on every view; the clock moves a card's time between passes (the server's pace)."""
    for _ in range(5_000):
        moved = False
        for bot in bots:
            outcome = bot.act()
            if outcome is not None:
                assert outcome["status"] in ("accepted", "rejected"), outcome
                moved = True
        if all(m.status == "done" for m in list_matches("league", round_no)):
            return
        if not moved:  # a second passes: four more cards are out
            b.clock.advance(4 * DEAL_MS)
            b.sweep()
    raise AssertionError("the round did not finish")


@pytest.mark.parametrize("ruleset", [YAOJI, COMMON])
def test_a_round_of_shengji_matches_runs_to_an_export_of_every_board(backend, ruleset):
    # Bots decide at once: the deals' 25 s each set the pace; no new board after a minute (each match
    # still plays boards in a row, the levels carried from one to the next).
    bots = prepare(backend, ruleset=ruleset, options={"minutes": 2, "last_board_minutes": 1})
    rounds.request_next_round(backend.rt, "league")
    finish_round(backend, bots)
    doc = match_results.results_document(events.get_event("league"), 1)
    boards = [b for m in doc["matches"] if m.get("boards") for b in m["boards"]]
    assert boards and all(len(m["boards"]) >= 2 for m in doc["matches"] if m.get("boards"))
    for entry in boards:
        assert set(entry) >= {"board", "dealer", "trump", "declarer", "defender_points", "kitty",
                              "kitty_multiplier", "levels_before", "levels_after"}  # fmt: skip
        assert len(entry["kitty"]) == 8 and entry["kitty_multiplier"] in (0, 2, 3, 4, 6, 8, 12, 16, 24, 32)
        assert set(entry["levels_before"]) == set(entry["levels_after"]) and len(entry["levels_after"]) == 2
        assert entry["trump"] in (None, "D", "C", "H", "S")
        steps = [s for s in entry["play"] if s["t"] == "step"]
        assert steps and steps[-1]["n"] == 100, "the play record keeps when the cards came"
    audit = audit_event("league")
    assert audit["replay_mismatches"] == 0, audit
    # The kitty went to the dealer's handset alone: no other seat's screen ever showed 33 cards.
    for thing in THINGS:
        for view in (p for p in backend.publisher.to(thing) if p["t"] == "view"):
            assert len(view["h"]) <= 33
    assert game(ruleset).new_board_in_steps is not None


def test_003s_match_no_new_board_after_50_minutes_and_no_same_region_pairs_in_round_1(backend):
    prepare(backend, match={"swiss": {"no_same_region_round1": True}})
    rounds.request_next_round(backend.rt, "league")
    regions = {p: "R" + str(i % 2) for i, p in enumerate(PAIRS)}
    for m in list_matches("league", 1):
        a, b = m.pairs
        assert regions[a] != regions[b], "003: no two pairs of one region meet in round 1"
        assert m.clock_ends_at == m.started_at + 50 * 60_000


def test_the_pacer_gives_each_card_out_when_it_falls_due_and_hands_over_past_its_budget(backend):
    """AWS sweeps once a minute: a board the server deals gets a pacer (the timers function given the
    board), started with the board; it sleeps until each card is due and gives it out, each card once
    however many pacers and sweeps run."""
    from deckhand.service.schedule import pacing

    prepare(backend)
    rounds.request_next_round(backend.rt, "league")
    requests = [p for name, p in backend.invocations if name == "pace"]
    assert sorted(r["pace"]["table"] for r in requests) == ["A", "B"]
    slept: list[float] = []

    def sleep(seconds: float) -> None:  # the clock moves as the pacer sleeps
        slept.append(seconds)
        backend.clock.advance(round(seconds * 1000))

    views_before = len(backend.publisher.to(THINGS[0]))
    steps = pacing.pace_deal(backend.rt, requests[0]["pace"], sleep=sleep, budget_ms=10 * DEAL_MS)
    item, board = board_of(requests[0]["pace"]["table"])
    assert steps == board.dealt == 10 and all(s == DEAL_MS / 1000 for s in slept)
    assert len(backend.publisher.to(THINGS[0])) > views_before  # each step sent the table its views
    handed_over = [p for name, p in backend.invocations if name == "pace"][len(requests) :]
    assert handed_over == [requests[0]], "past its budget it invokes a pacer for the rest"
    backend.sweep()  # a sweep at the same moment gives out nothing twice
    assert board_of(requests[0]["pace"]["table"])[1].dealt == 10
    assert pacing.pace_deal(backend.rt, requests[0]["pace"], sleep=sleep) == 90
    item, board = board_of(requests[0]["pace"]["table"])
    assert board.dealt == 100 and [e["n"] for e in item.log if e["t"] == "step"] == list(range(1, 101))
    assert pacing.pace_deal(backend.rt, requests[0]["pace"], sleep=sleep) == 0  # a retry: nothing left


def test_the_referee_has_the_server_deal_when_a_dealing_table_fails_mid_deal(backend):
    from deckhand.service.refereeing import actions as referee
    from deckhand.service.storage.models import MatchItem

    prepare(backend, dealers=True)
    rounds.request_next_round(backend.rt, "league")
    order = next(p for p in backend.publisher.to(DEALERS[0]) if p["t"] == "deal")["order"]
    payload = {"t": "dealt", "msg": "j-9", "board": "1", "r": 1, "cards": order[:9], "upto": 9}
    assert backend.send(DEALERS[0], payload)["status"] == "accepted"
    jam = {"t": "dealt", "msg": "j-10", "board": "1", "r": 1, "cards": [*order[:9], order[20]], "upto": 10}
    assert backend.send(DEALERS[0], jam)["code"] == "deal_mismatch"  # the table jammed: board stopped
    event = events.get_event("league")
    action = {"kind": "serve_deal", "table": "A", "reason": "the dealing table jammed"}
    done = referee.record(event, action, by="ref", rt=backend.rt, request="req-1")
    assert done["board"] == "1" and done["table"] == "A"
    item, board = board_of()
    assert item.status == "playing" and not item.dealer and board.dealt == 9
    assert [p for name, p in backend.invocations if name == "pace"][-1]["pace"]["table"] == "A"
    backend.clock.advance(DEAL_MS)
    backend.sweep()
    assert board_of()[1].dealt == 10, "the server's pace goes on from the cards out"
    late = {"t": "dealt", "msg": "j-30", "board": "1", "r": 1, "cards": order[:30], "upto": 30}
    assert backend.send(DEALERS[0], late)["code"] == "not_your_seat", "the failed table no longer deals here"
    assert not MatchItem.get(*match_key("A")).dealer, "the rest of the match is the server's to deal"
    views = len(backend.publisher.to(THINGS[0]))
    again = referee.record(events.get_event("league"), action, by="ref", rt=backend.rt, request="req-1")
    assert again == done and board_of()[1].dealt == 10  # a retry changes nothing…
    assert len(backend.publisher.to(THINGS[0])) > views  # …and sends the views again
    assert len([a for a in referee.audit_log("league") if a["kind"] == "serve_deal"]) == 1


def match_key(table: str) -> tuple[str, str]:
    from deckhand.service.storage.keys import event_pk, match_sk

    return event_pk("league"), match_sk(1, table)


def test_a_deal_whose_pacer_is_gone_gets_a_new_one_from_the_sweep(backend):
    prepare(backend)
    rounds.request_next_round(backend.rt, "league")
    backend.invocations.clear()
    backend.clock.advance(DEAL_MS)
    backend.sweep()  # on time: a live pacer would have done it; no new pacer
    assert not [p for name, p in backend.invocations if name == "pace"]
    backend.clock.advance(3_000)
    backend.sweep()  # three seconds late: the pacer is gone
    assert sorted(p["pace"]["table"] for name, p in backend.invocations if name == "pace") == ["A", "B"]
