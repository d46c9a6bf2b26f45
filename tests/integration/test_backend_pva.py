"""The players-vs-AI format (RULES.md §1) for both games: every participant plays every board from the
same seat against the deterministic AI, and all participants are compared."""

import pytest
from backend import DeviceBot, setup_moto_env
from deckhand.competition.documents import parse_results
from deckhand.engines.registry import game
from deckhand.service.duplicate import rounds, scoring
from deckhand.service.organiser import events

setup_moto_env()


@pytest.mark.parametrize("ruleset", ["bigtwo-2017", "doudizhu-2016"])
def test_every_participant_plays_every_board_from_the_same_seat_against_the_ai(backend, ruleset):
    k = game(ruleset).seats
    events.create_event(
        {
            "event_id": "pva",
            "name": "Solo Cup",
            "ruleset": ruleset,
            "grade": "unrated",
            "format": "pva",
            "rounds": 2,
            "boards_per_round": 2,
            "groups": 1,
            "venue": True,
            "start": __import__("datetime").date(2026, 12, 14),
            "seed": "pva-seed",
        }
    )
    events.register_players("pva", [{"id": f"P{i}"} for i in range(1, 4)])
    things = {t: [f"{t}-{s}" for s in range(k)] for t in ("A", "B", "C")}
    events.register_tables("pva", [{"id": t, "seats": seats} for t, seats in things.items()])
    bots = [DeviceBot(backend, thing) for seats in things.values() for thing in seats]
    for round_no in (1, 2):
        rounds.request_next_round(backend.rt, "pva")
        seat = (round_no - 1) % k
        seating = rounds.get_round("pva", round_no).seating
        assert [e["seats"] for e in seating] == [
            [p if s == seat else None for s in range(k)] for p in ("P1", "P2", "P3")
        ]
        for _ in range(3000):
            outcomes = [o for o in (bot.act() for bot in bots) if o is not None]
            assert all(o["status"] == "accepted" for o in outcomes), outcomes
            if not outcomes:
                break
        assert rounds.round_status("pva", round_no)["status"] == "done"
    _, boards = parse_results(scoring.results_export(events.get_event("pva")))
    assert len(boards) == 4  # 2 rounds × 2 boards, each played at all three tables
    for b in boards:
        people = [r for r in b.results if not r.ai]
        assert sorted(r.player for r in people) == ["P1", "P2", "P3"]
        assert len({r.seat for r in people}) == 1  # the same seat: all three compared
        # The same decisions against the same deterministic AI give the same result at every table.
        assert len({r.score for r in people}) == 1
    standings = scoring.compute_standings(events.get_event("pva"), 2)
    assert sorted(s["player"] for s in standings["standings"]) == ["P1", "P2", "P3"]
    compared = [c for c in standings["boards"] if c["results"]]
    assert all(len(c["results"]) == 3 for c in compared)
