"""Registration numbers from the event's counter, and a registration that fails half-way completed by
its retry: no number given twice, no player twice, none lost."""

from __future__ import annotations

from typing import Any

import pytest
from backend import (
    CUP_EVENT,
    SEEDED,
    THINGS,
    Crash,
    DeviceBot,
    event_outcome,
    play_event,
    setup_moto_env,
)
from deckhand.service.organiser import events
from deckhand.service.storage.keys import player_of

setup_moto_env()


def numbers(event_id: str) -> dict[str, int]:
    return {player_of(p.sk): p.number for p in events.list_players(event_id)}


def fail_transaction(monkeypatch: pytest.MonkeyPatch, nth: int) -> list[int]:
    """The ``nth`` transaction of the registration fails once, before it commits (a crash)."""
    real = events.transaction
    calls: list[int] = []

    class Failing:
        def __init__(self) -> None:
            self.tx = real()

        def __enter__(self) -> Any:
            return self.tx.__enter__()

        def __exit__(self, *exc: Any) -> None:
            raise Crash(f"registration dies at its transaction {nth}")

    def transaction() -> Any:
        calls.append(1)
        return Failing() if len(calls) == nth else real()

    monkeypatch.setattr(events, "transaction", transaction)
    return calls


def new_event(event_id: str = "cup") -> None:
    events.create_event({**CUP_EVENT, **SEEDED, "event_id": event_id})


FIELD = [{"id": f"P{i:02d}", "name": f"Player {i}"} for i in range(1, 61)]  # three transactions of players


def test_a_registration_that_fails_half_way_is_completed_by_its_retry(backend, monkeypatch):
    new_event("ref")
    events.register_players("ref", FIELD)
    new_event()
    fail_transaction(monkeypatch, 3)  # the numbers, the first 25 players, then the next 25: crash
    with pytest.raises(Crash):
        events.register_players("cup", FIELD)
    assert len(numbers("cup")) == 25
    monkeypatch.undo()
    registered = events.register_players("cup", FIELD)  # the retry of the same request
    assert [p.number for p in registered] == list(range(1, 61))
    assert numbers("cup") == numbers("ref")
    # Done: the same players again are registered twice; the next request's numbers follow on.
    with pytest.raises(events.Conflict, match="registered twice"):
        events.register_players("cup", FIELD)
    with pytest.raises(events.Conflict, match="registered twice"):
        events.register_players("cup", [FIELD[0]])
    assert [p.number for p in events.register_players("cup", [{"id": "late"}])] == [61]


def test_a_registration_that_crashed_after_taking_its_numbers_completes_and_the_event_ends_the_same(
    reference, backend, monkeypatch
):
    new_event()
    fail_transaction(monkeypatch, 2)  # numbers taken; the players' transaction dies
    players = [{"id": f"P{i}"} for i in range(1, 9)]
    with pytest.raises(Crash):
        events.register_players("cup", players)
    assert numbers("cup") == {}
    monkeypatch.undo()
    events.register_players("cup", players)
    events.register_tables(
        "cup", [{"id": "A", "seats": THINGS[:4], "dealer": "dealer-A"}, {"id": "B", "seats": THINGS[4:]}]
    )
    play_event(backend, [DeviceBot(backend, t) for t in THINGS])
    assert event_outcome("cup") == reference[0]


def test_two_registrations_at_once_never_share_a_number(backend, monkeypatch):
    """The second registration runs whole between the first's read of the counter and its write."""
    new_event()
    real = events._last_number
    interleaved: list[Any] = []

    def read_then_let_the_other_in(event_id: str, registered: list[Any], *counter: Any) -> Any:
        seen = real(event_id, registered, *counter)
        if not interleaved:
            interleaved.append(None)
            interleaved[0] = events.register_players("cup", [{"id": f"B{i}"} for i in range(30)])
        return seen

    monkeypatch.setattr(events, "_last_number", read_then_let_the_other_in)
    first = events.register_players("cup", [{"id": f"A{i}"} for i in range(30)])
    (second,) = interleaved
    assert [p.number for p in second] == list(range(1, 31))
    assert [p.number for p in first] == list(range(31, 61))
    assert sorted(numbers("cup").values()) == list(range(1, 61))


def test_a_player_taken_by_another_registration_meanwhile_withdraws_the_whole_request(backend, monkeypatch):
    """All or nothing: the other request registered one of this request's players after its check."""
    new_event()
    mine = [{"id": f"P{i:02d}"} for i in range(40)]
    original_list = events.list_players
    calls: list[int] = []

    def stale_list(event_id: str) -> list[Any]:
        listed = original_list(event_id)
        if not calls:
            calls.append(1)
            events.register_players("cup", [{"id": "P30"}])  # after this request's check
        return listed

    monkeypatch.setattr(events, "list_players", stale_list)
    with pytest.raises(events.Conflict, match="registered already"):
        events.register_players("cup", mine)
    assert numbers("cup") == {"P30": 1}
