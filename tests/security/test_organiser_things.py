"""Issue 33, finding 2: organiser B registered, at a table of B's own event, the handsets that
organiser A's not-yet-started event holds (201), and A's next round failed for it. Only the staff of
the event that holds a thing may move it; a finished event lets its things go to anyone."""

from __future__ import annotations

import pytest
from api_calls import ALICE, BOB, EVENT, PLAYERS, TABLES, api_under_moto, call
from deckhand.service.organiser import events


@pytest.fixture
def api():
    """Alice's event "cup" with its tables registered (not started); Bob's event "bobs"."""
    with api_under_moto() as handler:
        assert call(handler, "POST", "/events", EVENT, caller=ALICE)[0] == 201
        assert call(handler, "POST", "/events/cup/players", PLAYERS, caller=ALICE)[0] == 201
        assert call(handler, "POST", "/events/cup/tables", TABLES, caller=ALICE)[0] == 201
        assert call(handler, "POST", "/events", dict(EVENT, event_id="bobs"), caller=BOB)[0] == 201
        yield handler


def test_organiser_b_cannot_take_the_handsets_of_as_event(api):
    code, answer = call(api, "POST", "/events/bobs/tables", TABLES, caller=BOB)
    assert code == 403 and set(answer) == {"error"}, answer
    assert events.list_tables("bobs") == []
    assert events.things_taken("cup", events.list_tables("cup")) == []


def test_the_staff_of_both_events_may_move_them(api):
    assert call(api, "PUT", "/events/cup/roles", {"roles": {BOB: "organiser"}}, caller=ALICE)[0] == 200
    assert call(api, "POST", "/events/bobs/tables", TABLES, caller=BOB)[0] == 201


def test_a_finished_event_lets_anyone_take_its_things(api):
    item = events.get_event("cup")
    item.update(actions=[events.EventItem.status.set("finished")])
    assert call(api, "POST", "/events/bobs/tables", TABLES, caller=BOB)[0] == 201
