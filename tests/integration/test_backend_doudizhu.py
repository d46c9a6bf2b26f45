"""A Dou Dizhu duplicate event through the services, with bots acting by device messages: 3 seats per
table, the dealing table checked against the deal in play, and a board all pass redealt identically."""

import pytest
from backend import DeviceBot, setup_moto_env
from deckhand.competition.documents import parse_results, standings_document
from deckhand.competition.standings import standings
from deckhand.engines.common.cards import format_cards
from deckhand.engines.registry import game
from deckhand.service.boards import log as board_log
from deckhand.service.boards import store as board_store
from deckhand.service.duplicate import rounds, scoring
from deckhand.service.organiser import events
from deckhand.service.storage.models import DealItem

setup_moto_env()

EVENT = {
    "event_id": "ddz",
    "name": "Landlord Cup",
    "ruleset": "doudizhu-2016",
    "grade": "unrated",
    "format": "pvp",
    "rounds": 2,
    "boards_per_round": 2,
    "groups": 1,
    "venue": True,
    "start": __import__("datetime").date(2026, 12, 14),
    "seed": "ddz-seed",
}
THINGS = [f"dz-{t}-{s}" for t in "AB" for s in range(3)]


def prepare(b):
    events.create_event(EVENT)
    events.register_players("ddz", [{"id": f"P{i}"} for i in range(1, 7)])
    events.register_tables(
        "ddz", [{"id": "A", "seats": THINGS[:3], "dealer": "dealer-A"}, {"id": "B", "seats": THINGS[3:]}]
    )
    return [DeviceBot(b, t) for t in THINGS]


def report_deal(b, n):
    """The dealing table deals what it was sent and reports it."""
    order = [p for p in b.publisher.to("dealer-A") if p["t"] == "deal"][-1]
    return b.send("dealer-A", {"t": "dealt", "msg": f"d{n}", "board": order["b"], "cards": order["order"]})


def test_whole_doudizhu_event_through_device_messages(backend):
    bots = prepare(backend)
    for round_no in (1, 2):
        assert rounds.request_next_round(backend.rt, "ddz") == round_no
        for _ in range(3000):
            outcomes = [o for o in (bot.act() for bot in bots) if o is not None]
            assert all(o["status"] == "accepted" for o in outcomes), outcomes
            if not outcomes:
                break
        status = rounds.round_status("ddz", round_no)
        assert status["status"] == "done" and status["boards_done"] == status["boards_total"] == 4
    event = events.get_event("ddz")
    ruleset, boards = parse_results(scoring.results_export(event))
    assert ruleset == "doudizhu-2016" and len(boards) == 4
    assert all(len(b.results) == 6 and sum(r.score for r in b.results) == 0 for b in boards)
    names = {p["id"]: p["name"] for p in scoring.registrations(event)}
    assert scoring.compute_standings(event, 2) == standings_document(*standings(boards, ruleset), names)
    # Every view carries the rule set; a seat sees its own hand only, and the kitty once it is shown.
    view = backend.last_view(THINGS[0])
    assert view["g"] == "doudizhu-2016" and set(backend.seat_view(THINGS[0], view)) >= {
        "bids",
        "landlord",
        "kitty",
    }
    assert any(line.startswith("Landlord: ") and " kitty " in line for line in view["l"])


def test_a_board_all_pass_is_redealt_identically_and_the_dealing_table_deals_again(backend):
    prepare(backend)
    rounds.request_next_round(backend.rt, "ddz")
    assert report_deal(backend, 1)["status"] == "accepted"
    first = backend.seat_view(THINGS[0])["hand"]
    for n, thing in enumerate(THINGS[:3]):
        msg = backend.last_view(thing)
        outcome = backend.send(
            thing, {"t": "act", "msg": f"p{n}", "board": msg["b"], "a": {"k": "bid", "v": 0}}
        )
        assert outcome["status"] == "accepted"
    item = board_store.load("ddz", 1, "A", "1")
    assert item.log[-1]["t"] == "redeal" and item.log[-1]["n"] == 1 and item.dealt_ok is None
    deal = [p for p in backend.publisher.to("dealer-A") if p["t"] == "deal"][-1]
    stored = DealItem.get("EVENT#ddz", "DEAL#001#1#1").order
    size = game("doudizhu-2016").deal_size
    assert deal["n"] == 2 and deal["order"] == format_cards(stored[size : 2 * size])
    second = backend.seat_view(THINGS[0])
    assert (
        backend.last_view(THINGS[0])["h"] == second["hand"]
        and "Redeal: deal 2" in backend.last_view(THINGS[0])["l"]
    )
    assert second["deal"] == 2 and second["hand"] != first and second["bids"] == [None, None, None]
    assert sorted(second["hand"]) == sorted(format_cards(stored[size : 2 * size][0:51:3]))
    # The dealing table's report is checked against the new deal: the old one is now a misread.
    stale = backend.send(
        "dealer-A", {"t": "dealt", "msg": "d-old", "board": "1", "cards": format_cards(stored[:size])}
    )
    assert stale["code"] == "deal_mismatch"
    resumed = report_deal(backend, 2)
    assert resumed["status"] == "accepted" and board_store.load("ddz", 1, "A", "1").status == "playing"
    # Table B passes all round too: it gets the very same second deal.
    for n, thing in enumerate(THINGS[3:]):
        msg = backend.last_view(thing)
        backend.send(thing, {"t": "act", "msg": f"q{n}", "board": msg["b"], "a": {"k": "bid", "v": 0}})
    assert backend.seat_view(THINGS[3])["hand"] == second["hand"]
    # The log replays to the stored state (redeal entries are notes, not actions).
    item = board_store.load("ddz", 1, "A", "1")
    assert board_log.replay(item, list(stored)).to_json() == item.state


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"t": "act", "msg": "x", "board": "1", "a": {"k": "bid", "v": 4}}, "malformed"),
        ({"t": "act", "msg": "x", "board": "1", "a": {"k": "bid", "v": True}}, "malformed"),
        ({"t": "act", "msg": "x", "board": "1", "a": {"k": "bid"}}, "malformed"),
    ],
)
def test_bad_bids_are_refused_before_the_engine(backend, payload, code):
    prepare(backend)
    rounds.request_next_round(backend.rt, "ddz")
    before = board_store.load("ddz", 1, "A", "1").version
    assert backend.send(THINGS[0], payload)["code"] == code
    assert board_store.load("ddz", 1, "A", "1").version == before


def test_an_out_of_turn_bid_is_refused_by_the_engine(backend):
    prepare(backend)
    rounds.request_next_round(backend.rt, "ddz")
    assert (
        backend.send(THINGS[1], {"t": "act", "msg": "x", "board": "1", "a": {"k": "bid", "v": 3}})["code"]
        == "not_your_turn"
    )
