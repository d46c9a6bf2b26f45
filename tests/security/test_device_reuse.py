"""A venue's handsets serve next week's event: a thing is bound to one event only while it runs.

Attack (and its limits): registering the things of a running event in another one is refused; once
the event has finished (or if it never started) they move, and a cached assignment of the old event
never routes a message there.
"""

import time

import pytest
from backend import CUP_EVENT, THINGS, Backend, create_table, play_event, prepare, setup_moto_env
from deckhand.service.boards import store as board_store
from deckhand.service.device_io import pipeline as devices
from deckhand.service.duplicate import rounds
from deckhand.service.organiser import events
from deckhand.service.storage.keys import META, device_pk
from deckhand.service.storage.models import DeviceItem
from moto import mock_aws

setup_moto_env()

NEXT_WEEK = {**CUP_EVENT, "event_id": "next", "name": "Next Week"}
TABLES = [{"id": "A", "seats": THINGS[:4], "dealer": "dealer-A"}, {"id": "B", "seats": THINGS[4:]}]


@pytest.fixture
def backend():
    with mock_aws():
        create_table()
        yield Backend()


def next_week() -> None:
    events.create_event(NEXT_WEEK)
    events.register_players("next", [{"id": f"Q{i}"} for i in range(1, 9)])


def bound_to(thing: str) -> str:
    return DeviceItem.get(device_pk(thing), META).event_id


def test_things_of_a_running_event_cannot_be_taken(backend):
    prepare(backend)
    next_week()
    rounds.request_next_round(backend.rt, "cup")
    for status in ("playing", "between_rounds", "dealing"):
        event = events.get_event("cup")
        event.status = status
        event.save()
        with pytest.raises(events.Conflict, match="once that event has finished"):
            events.register_tables("next", TABLES)
        assert events.list_tables("next") == []
        assert {bound_to(t) for t in [*THINGS, "dealer-A"]} == {"cup"}


def test_a_thing_twice_in_the_same_event_is_still_a_conflict(backend):
    prepare(backend)
    with pytest.raises(events.Conflict):
        events.register_tables("cup", [{"id": "C", "seats": THINGS[:4]}])


def test_after_the_event_finished_its_things_serve_the_next_one(backend, monkeypatch):
    bots = prepare(backend)
    play_event(backend, bots)
    assert events.get_event("cup").status == "finished"
    warm = events.get_device(THINGS[0])  # a warm process keeps the old assignment cached
    assert warm is not None and warm.event_id == "cup"
    next_week()
    # Registered through another process (the API's function): this one's cache is not told.
    monkeypatch.setattr(events, "forget_device", lambda thing: None)
    events.register_tables("next", TABLES)
    monkeypatch.undo()
    assert {bound_to(t) for t in [*THINGS, "dealer-A"]} == {"next"}
    assert events.get_device(THINGS[0]).event_id == "cup"  # still the stale cached one
    rounds.request_next_round(backend.rt, "next")
    time.sleep(devices.RECHECK_SECONDS)  # the stale entry is old enough to be checked again
    sent = len(backend.publisher.to(THINGS[0]))
    outcome = backend.send(THINGS[0], {"t": "hello", "msg": "after-the-move"})
    assert outcome["status"] == "accepted"
    assert events.get_device(THINGS[0]).event_id == "next"
    answer = backend.publisher.to(THINGS[0])[sent:]
    assert [p["t"] for p in answer] == ["ack", "view"]  # the new event's board, not the old one's silence
    assert answer[1]["v"] == board_store.load("next", 1, "A", "1").version


def test_things_of_an_event_that_never_started_move_and_that_event_cannot_start_without_them(backend):
    prepare(backend)  # registered, never started
    next_week()
    events.register_tables("next", TABLES)
    assert bound_to(THINGS[0]) == "next"
    with pytest.raises(rounds.DealFailed, match="registered in another event"):
        rounds.request_next_round(backend.rt, "cup")
    assert events.get_event("cup").status == "registering"


def test_a_running_event_started_meanwhile_keeps_its_things(backend, monkeypatch):
    """The old event starts between the check and the move: the move's condition on it refuses."""
    prepare(backend)
    next_week()
    check = events._bound_elsewhere

    def then_the_old_event_starts(event_id, things, by):
        found = check(event_id, things, by)
        rounds.request_next_round(backend.rt, "cup")
        return found

    monkeypatch.setattr(events, "_bound_elsewhere", then_the_old_event_starts)
    with pytest.raises(events.Conflict):
        events.register_tables("next", TABLES[:1])
    assert bound_to(THINGS[0]) == "cup"
