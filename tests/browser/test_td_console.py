"""The tournament director's console in Chromium against a real local venue: a TD signs in with the link
`deckhand venue organiser add` prints, creates a small Big Two event, registers its players from CSV
and its table, starts round 1, and watches the room's grid follow the simulated handsets' play without
reloading — at a laptop's 1280 px and a tablet's 768 px, never scrolling sideways."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from phone_pages import no_sideways_scroll, wait

pytest.importorskip("playwright")

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.xdist_group("console"),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium"),
]
THINGS = [f"hs-console-{s}" for s in range(4)]


def fits(page: Any) -> None:
    """No sideways scroll on a tablet (768 px) nor on a laptop (1280 px)."""
    for width, height in ((768, 1024), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        no_sideways_scroll(page)


def grid(page: Any, attribute: str) -> str | None:
    return page.locator("#grid [data-table]").first.get_attribute(attribute)


def test_a_td_runs_round_one_from_the_console_while_handsets_play(console_venue, new_context):
    from deckhand_local.venue import organisers
    from deckhand_local.venue.event_setup import make_devices
    from deckhand_local.venue.realtime import RealTimeDevices
    from deckhand_local.venue.seat_views import DatabaseSeatViews

    venue = console_venue
    context = new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(f"{m.text} {m.location}") if m.type == "error" else None)

    # The link `deckhand venue organiser add td` prints: a one-time code in the fragment.
    code = organisers.sign_in_code(venue.state_dir, organisers.identity_of("td"))
    page.goto(f"{venue.api_url}/console/sign-in#c={code}")
    page.wait_for_url(f"{venue.api_url}/console/")
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    assert "#" not in page.url and code not in page.url
    page.locator("#lang").click()  # English on the switch
    assert page.locator("h1").inner_text() == "My events"

    # A new event, by keyboard-reachable fields and their labels.
    fits(page)
    page.get_by_role("link", name="New event").click()
    page.get_by_label("Event name").wait_for()  # the new page, loaded (not the old one, navigating away)
    fits(page)
    page.get_by_label("Event name").fill("Console Cup")
    page.get_by_label("Event id (blank: one is made up)").fill("console-cup")
    page.get_by_label("Rules").select_option("bigtwo-2017")
    page.get_by_label("Grade").select_option("unrated")
    page.get_by_label("Rounds").fill("1")
    page.get_by_label("Boards a round").fill("1")
    page.get_by_label("Date").fill(dt.date.today().isoformat())
    page.get_by_role("button", name="Create the event").click()
    page.wait_for_url(f"{venue.api_url}/console/events/console-cup")

    players = "name, number, region\n" + "\n".join(f"Player {i}, P{i}, Region {i % 2}" for i in range(1, 5))
    page.get_by_label("Paste the players as CSV", exact=False).fill(players)
    page.get_by_role("button", name="Register the players").click()
    assert page.locator("[data-done]").inner_text() == "4 players registered."
    assert page.locator("[data-players] [data-player]").count() == 4
    page.get_by_label("Paste the tables as CSV", exact=False).fill("T1, " + ", ".join(THINGS))
    page.get_by_role("button", name="Register the tables").click()
    assert page.locator("[data-done]").inner_text() == "1 tables registered."

    tables = [{"id": "T1", "seats": THINGS, "dealer": None}]
    # The handsets start once the TD has seen the first seat asked (fast bots could finish the board
    # between two refreshes of the grid).
    devices = RealTimeDevices(
        make_devices(tables, venue.link, venue.state_dir / "devices", DatabaseSeatViews()), tick_seconds=0.05
    )
    try:
        page.get_by_role("button", name="Start the next round").click()
        assert page.locator("[data-done]").inner_text() == "Round 1 is being dealt."
        fits(page)
        page.get_by_role("link", name="The room").click()
        wait(lambda: page.locator("#grid [data-table]").count() == 1, timeout=20, what="the room's table")
        wait(lambda: grid(page, "data-status") == "playing", timeout=20, what="board 1 in play")
        wait(  # whose turn it is and the time they have left
            lambda: (
                page.locator("#grid [data-turn]").count() == 1
                and page.locator("#grid .clock").first.get_attribute("data-seconds") not in ("", None)
            ),
            timeout=10,
            what="a seat to act and its clock",
        )
        fits(page)
        # The grid follows the play without a reload: its content changes while the URL stays.
        devices.start()
        first = page.locator("#grid").inner_html()
        url = page.url
        wait(lambda: page.locator("#grid").inner_html() != first, timeout=10, what="the grid refreshed")
        assert page.url == url
        page.reload()  # correct after a reload: what the database holds
        assert grid(page, "data-table") == "T1" and grid(page, "data-total") == "1"
        wait(lambda: grid(page, "data-done") == "1", timeout=40, what="board 1 done")
        wait(  # then the round, once the board is scored
            lambda: page.locator("#grid [data-round-status]").get_attribute("data-round-status") == "done",
            timeout=10,
            what="round 1 done",
        )
        assert page.locator("#grid [data-boards-done]").get_attribute("data-boards-done") == "1"
        page.get_by_role("link", name="Standings").first.click()
        wait(
            lambda: page.locator("[data-standings] [data-player]").count() == 4, timeout=10, what="standings"
        )
        fits(page)
        assert devices.errors == []
    finally:
        devices.close()
    assert errors == [], errors
