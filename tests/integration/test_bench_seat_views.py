"""The crash soak's bots read their seat's view from the database: a write that changed nothing a seat
is shown (a dealing table's report of the deal) must not hold its bot back, or the bot waits for a view
that never comes and its decision runs out on the clock (the small soak's baseline once timed out the
four show decisions of a board that way); a change the seat is shown must."""

from backend import cup_started
from deckhand.service.boards import store as board_store
from deckhand_local.venue.seat_views import DatabaseSeatViews


def test_a_bot_decides_on_a_stored_board_that_moved_on_without_changing_its_screen():
    with cup_started() as (b, _):
        shown = b.last_view("hs-A-0")
        assert shown is not None and shown["ask"]  # the show decision
        order = b.publisher.to("dealer-A")[-1]["order"]
        assert b.send("dealer-A", {"t": "dealt", "msg": "d1", "board": "1", "cards": order})["status"] == (
            "accepted"
        )
        stored = board_store.load("cup", 1, "A", "1")
        assert stored.version > shown["v"] and b.last_view("hs-A-0") == shown  # no new view was sent
        assert DatabaseSeatViews().seat_view("hs-A-0", shown) == b.seat_view("hs-A-0", shown)


def test_a_bot_waits_for_the_view_of_a_change_its_seat_is_shown():
    with cup_started() as (b, _):
        shown = b.last_view("hs-A-0")
        assert shown is not None
        option = shown["ask"]["o"][0]["a"]
        assert b.send("hs-A-0", {"t": "act", "msg": "a1", "board": "1", "r": 1, "a": option})["status"] == (
            "accepted"
        )
        assert b.last_view("hs-A-0") != shown  # its decision is taken: the screen asks no more
        assert DatabaseSeatViews().seat_view("hs-A-0", shown) is None
        assert DatabaseSeatViews().seat_view("hs-A-0", b.last_view("hs-A-0")) is not None
