"""Attack: a handset learns where a card lies in a duplicate board from a misread deal.

The dealing table's report that "card 6 read as X, the board has Y" names a card and its place in a
board other tables still play. Handsets must learn only that the board stopped; the dealing table and
the referee (the round's status) keep the detail.
"""

import pytest
from backend import THINGS, Backend, act, cup_started, setup_moto_env
from deckhand.service.boards import store as board_store
from deckhand.service.duplicate import rounds

setup_moto_env()

HANDSETS_ARE_TOLD = "board stopped, referee called"


@pytest.fixture
def started():
    with cup_started() as (b, _):
        yield b


def misread(b: Backend) -> dict:
    order = b.publisher.to("dealer-A")[-1]["order"]
    read = [*order]
    read[5], read[6] = read[6], read[5]
    return b.send("dealer-A", {"t": "dealt", "msg": "d1", "board": "1", "cards": read})


def test_handsets_never_see_a_misread_s_cards(started):
    b = started
    outcome = misread(b)
    assert outcome["code"] == "deal_mismatch" and "card 6" in outcome["why"]  # the dealing table knows
    detail = board_store.load("cup", 1, "A", "1").stop_reason
    assert detail and "card 6" in detail
    for thing in THINGS[:4]:
        stops = [p for p in b.publisher.to(thing) if p["t"] == "stopped"]
        assert stops == [{"t": "stopped", "b": "1", "why": HANDSETS_ARE_TOLD}]
        assert all(detail not in str(p) for p in b.publisher.to(thing))
    assert {"t": "stopped", "b": "1", "why": detail} in b.publisher.to("dealer-A")


def test_a_play_on_the_stopped_board_does_not_tell_the_detail(started):
    b = started
    misread(b)
    detail = board_store.load("cup", 1, "A", "1").stop_reason
    outcome = b.send(THINGS[0], act("probe", "1", "show", v=0))
    assert outcome["code"] == "board_stopped" and detail not in outcome["why"]
    assert all(detail not in str(p) for p in b.publisher.to(THINGS[0]))


def test_the_referee_still_sees_the_detail(started):
    b = started
    misread(b)
    detail = board_store.load("cup", 1, "A", "1").stop_reason
    status = rounds.round_status("cup", 1)
    table_a = next(t for t in status["tables"] if t["table"] == "A")
    assert table_a["boards"][0] == {"board": "1", "status": "stopped", "why": detail}


def test_whoever_is_not_the_event_s_staff_sees_only_that_the_board_stopped(started):
    """The API's round status for a caller with no role in the event (api.py passes ``staff``)."""
    b = started
    misread(b)
    status = rounds.round_status("cup", 1, staff=False)
    table_a = next(t for t in status["tables"] if t["table"] == "A")
    assert table_a["boards"][0] == {"board": "1", "status": "stopped"}
