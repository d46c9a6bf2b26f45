"""A referee at the console in Chromium against a real local venue, in Chinese on a tablet (768 px): a
simulated handset calls the referee, the table flashes in the room until the referee marks the call
handled; then a warning and an artificial score, each previewed and confirmed, and the audit log shows
all of it newest first — by keyboard, never scrolling sideways."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
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
EVENT = "ref-cup"


@pytest.fixture(scope="module")
def referee_venue(tmp_path_factory: pytest.TempPathFactory, dynamodb_local: str) -> Iterator[Any]:
    """A venue whose organiser ``td`` runs a one-table Big Two event with ``ref`` its referee, round 1
    dealt; ``venue.tables``: its table."""
    from deckhand_local.venue import organisers
    from deckhand_local.venue.api_client import ApiClient
    from deckhand_local.venue.event_setup import EventShape, register
    from deckhand_local.venue.local import Venue, free_port
    from deckhand_local.venue.tables import unique_table_name

    state = tmp_path_factory.mktemp("referee-venue")
    organisers.add(state, "td")
    organisers.add(state, "ref")
    venue = Venue(
        mqtt_port=free_port(),
        http_port=0,
        state_dir=state,
        dynamodb_endpoint=dynamodb_local,
        table=unique_table_name("referee"),
    ).start()
    try:
        api = ApiClient(state_dir=state, organiser="td")
        shape = EventShape(EVENT, "Referee Cup", "bigtwo-2017", "ci-referee", 4, 4, 1, 1, 1, 2, 0)
        venue.tables = register(api, shape)
        api.request("PUT", f"/events/{EVENT}/roles", {"roles": {organisers.identity_of("ref"): "referee"}})
        api.request("POST", f"/events/{EVENT}/rounds")
        yield venue
    finally:
        venue.stop()


def press(page: Any, locator: Any) -> None:
    """Reach a control and use it with the keyboard, as a TD without a mouse does."""
    locator.focus()
    page.keyboard.press("Enter")


def preview_then_confirm(page: Any, reason: str, previewed: Callable[[], bool]) -> None:
    """A referee form filled but its reason: its preview (``previewed`` checks what it says, nothing
    written yet), then its confirm, whose page shows the audit entry."""
    page.get_by_label("理由（记入审计）").fill(reason)
    press(page, page.get_by_role("button", name="预览"))
    wait(lambda: page.locator("[data-preview]").count() == 1, timeout=10, what="the preview")
    assert previewed()
    no_sideways_scroll(page)
    press(page, page.get_by_role("button", name="确认执行"))
    wait(lambda: page.locator("[data-done]").count() == 1, timeout=10, what="the action done")


def test_a_referee_answers_a_call_and_gives_a_penalty_and_an_artificial_score(referee_venue, new_context):
    from deckhand_local.venue import organisers
    from deckhand_local.venue.event_setup import make_devices
    from deckhand_local.venue.realtime import RealTimeDevices
    from deckhand_local.venue.seat_views import DatabaseSeatViews

    venue = referee_venue
    base = f"{venue.api_url}/console"
    context = new_context(viewport={"width": 768, "height": 1024})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(f"{m.text} {m.location}") if m.type == "error" else None)

    code = organisers.sign_in_code(venue.state_dir, organisers.identity_of("ref"))
    page.goto(f"{base}/sign-in#c={code}")
    page.wait_for_url(f"{base}/")
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    page.goto(f"{base}/events/{EVENT}/room")
    wait(lambda: page.locator("#grid [data-table]").count() == 1, timeout=20, what="the room's table")

    devices = RealTimeDevices(
        make_devices(venue.tables, venue.link, venue.state_dir / "devices", DatabaseSeatViews()),
        tick_seconds=0.1,
    ).start()
    try:
        caller = devices.handsets[2]
        wait(lambda: caller.app.message is not None, timeout=20, what="the handset's first view")
        devices.pause()
        caller.app.on_input("call")  # the handset's referee button
        devices.resume()
        wait(lambda: page.locator("#grid .table.called [data-call]").count() == 1, timeout=10, what="a call")
        no_sideways_scroll(page)

        # The calls page: the call, answered by keyboard; the room stops flashing, after a reload too.
        press(page, page.get_by_role("link", name="呼叫", exact=True))
        page.wait_for_url(f"{base}/events/{EVENT}/calls")
        assert page.locator('[data-call-seat="2"][data-handled="no"]').count() == 1
        no_sideways_scroll(page)
        page.get_by_label("备注（可留空）").first.fill("到场处理")
        press(page, page.get_by_role("button", name="标记为已处理").first)
        wait(lambda: page.locator("[data-done]").count() == 1, timeout=10, what="the call handled")
        assert page.locator('.audit-entry[data-audit-kind="call_handled"]').count() == 1
        assert page.locator('[data-call-seat="2"][data-handled="yes"]').count() == 1
        page.goto(f"{base}/events/{EVENT}/room")
        wait(lambda: page.locator("#grid [data-table]").count() == 1, timeout=10, what="the room again")
        assert page.locator("#grid [data-call]").count() == 0

        # A warning: the form's choices, a preview that says what it will do, the confirm, its entry.
        page.goto(f"{base}/events/{EVENT}/referee")
        no_sideways_scroll(page)
        press(page, page.get_by_role("link", name="警告"))
        page.wait_for_url(f"{base}/events/{EVENT}/referee/warning")
        page.get_by_label("选手").select_option("P03")
        preview_then_confirm(page, "拖延出牌", lambda: "Player 3" in page.locator("[data-will]").inner_text())
        assert (
            page.locator('.audit-entry[data-audit-kind="warning"] [data-audit-field="player"]').inner_text()
            == "P03"
        )

        # An artificial score for the table's first board.
        page.goto(f"{base}/events/{EVENT}/referee/artificial")
        page.get_by_label("牌桌").select_option("T1")
        page.get_by_label("牌副").select_option("1")
        for seat, kind in enumerate(("average_plus", "average", "average_minus", "average")):
            page.get_by_label(f"座位 {seat + 1} 的人为分").select_option(kind)
        preview_then_confirm(
            page, "牌掉在地上", lambda: "average_minus" in page.locator("[data-request]").inner_text()
        )
        assert page.locator('.audit-entry[data-audit-kind="artificial"]').count() == 1

        # The audit log, newest first: the artificial score, the warning, the handled call, the call.
        page.goto(f"{base}/events/{EVENT}/audit")
        kinds = [
            k for k in page.locator("[data-audit-kind]").evaluate_all("e => e.map(x => x.dataset.auditKind)")
        ]
        assert kinds.index("artificial") < kinds.index("warning") < kinds.index("call_handled")
        assert "call_referee" in kinds
        times = [
            int(t) for t in page.locator("[data-audit-at]").evaluate_all("e => e.map(x => x.dataset.auditAt)")
        ]
        assert times == sorted(times, reverse=True)
        assert re.search("审计日志", page.locator("h1").inner_text())
        no_sideways_scroll(page)
        assert devices.errors == []
    finally:
        devices.close()
    assert errors == [], errors
