"""Issue 37: the room's grid shows each seat's device online or offline. A simulated handset
connecting and then losing its link flips its seat in the console's grid, through the whole venue:
Aedes's lifecycle events, the bridge, the presence handler, the round status, the console."""

import datetime as dt
import http.cookiejar
import re
import time
import urllib.parse
import urllib.request

from deckhand_local.venue.api_client import ApiClient
from deckhand_local.venue.simulated import SimulatedDevice

THINGS = [f"pres-{s}" for s in range(4)]


def seat_of(grid: str, thing: str) -> str:
    seat = re.search(rf'<li data-seat="\d"[^>]*>[^<]*<span class="thing">{thing}</span>.*?</li>', grid, re.S)
    assert seat is not None, grid
    return seat.group(0)


def test_a_device_connecting_and_losing_its_link_flips_its_seat_in_the_grid(venue, tmp_path):
    venue, state = venue
    api = ApiClient(state_dir=state)
    event = {"event_id": "pres", "name": "Presence Cup", "ruleset": "bigtwo-2017", "grade": "unrated"}
    event.update(format="pvp", rounds=1, boards_per_round=1, groups=1, venue=True, seed="presence")
    api.request("POST", "/events", {**event, "start": dt.date.today().isoformat()})
    api.request("POST", "/events/pres/players", {"players": [{"id": "P1", "name": "Ann"}]})
    api.request("POST", "/events/pres/tables", {"tables": [{"id": "T1", "seats": THINGS, "dealer": None}]})
    api.request("POST", "/events/pres/rounds")

    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    form = urllib.parse.urlencode({"token": venue.token}).encode()
    browser.open(f"{venue.api_url}/console/sign-in", form, timeout=30)  # the venue's organiser

    def grid() -> str:
        with browser.open(f"{venue.api_url}/console/events/pres/room/grid?lang=en", timeout=30) as page:
            return page.read().decode()

    def until(seen, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while True:
            for device in devices:
                device.step()
            venue.idle(timeout=0.5)
            seat = seat_of(grid(), THINGS[0])
            if seen(seat) or time.monotonic() > deadline:
                return seat
            time.sleep(0.05)

    devices: list[SimulatedDevice] = []
    assert "data-online" not in seat_of(grid(), THINGS[0])  # nothing said of it yet
    handset = SimulatedDevice(THINGS[0], "handset", venue.link, tmp_path / THINGS[0])
    devices.append(handset)
    seat = until(lambda s: 'data-online="yes"' in s)
    assert 'data-online="yes"' in seat and "online since" in seat
    assert "data-online" not in seat_of(grid(), THINGS[1])  # the others never connected

    handset.conn.client.drop()  # the link dies without a goodbye
    devices.clear()
    seat = until(lambda s: 'data-online="no"' in s)
    assert 'data-online="no"' in seat and "offline since" in seat
