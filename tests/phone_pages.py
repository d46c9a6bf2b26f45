"""Driving the player's page (web/player/) in Chromium as a person on a phone would: open it on a
phone screen, read what docs/client.md's test attributes mark, tap cards and options."""

from __future__ import annotations

import re
import time
from typing import Any

PHONE = {"width": 390, "height": 844}
QUEUE = "thing => localStorage.getItem('deckhand.pending.' + thing)"  # the page's unanswered actions


class Link:
    """The page's WebSocket to the broker through Playwright, frame by frame: it can lose the answer
    to the page's next action and cut the connection there, as a phone's network would."""

    def __init__(self) -> None:
        self.acts: list[str] = []  # the message id of every act frame the page sent
        self.hellos: list[str] = []  # the language each hello named
        self.connections = 0
        self.lose_next = False
        self.lost: str | None = None

    def __call__(self, route: Any) -> None:
        server = route.connect_to_server()
        self.connections += 1

        def up(frame: str | bytes) -> None:
            data = frame.encode() if isinstance(frame, str) else frame
            hello = re.search(rb'"t":"hello","msg":"[^"]+","lang":"([^"]+)"', data)
            if hello is not None:
                self.hellos.append(hello.group(1).decode())
            found = re.search(rb'"t":"act","msg":"([^"]+)"', data)
            if found is not None:
                self.acts.append(found.group(1).decode())
                if self.lose_next and self.lost is None:
                    self.lost = found.group(1).decode()
            server.send(frame)

        def down(frame: str | bytes) -> None:
            data = frame.encode() if isinstance(frame, str) else frame
            if self.lose_next and self.lost and f'"msg":"{self.lost}"'.encode() in data:
                self.lose_next = False  # the answer is lost, and the link with it
                route.close()
                server.close()
                return
            route.send(frame)

        route.on_message(up)
        server.on_message(down)


def open_phone(new_context: Any, shots: list[Any], url: str, link: Link | None = None) -> Any:
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=1)
    page = context.new_page()
    if link is not None:
        page.route_web_socket(re.compile("^ws://"), link)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors
    shots.append(page)
    page.goto(url)
    return page


def root(page: Any, name: str) -> str | None:
    value: str | None = page.locator("#app").get_attribute(f"data-{name}")
    return value


def no_sideways_scroll(page: Any) -> None:
    """Measured once the page in the tab has loaded: a click that navigates leaves no document for a moment."""
    page.wait_for_load_state("load")
    page.wait_for_function("document.documentElement !== null && document.body !== null")
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"the page is {wide[0]} px wide on a {wide[1]} px screen"


def hand(page: Any) -> list[str]:
    """The hand's tokens in display order (one call to the page, however many cards)."""
    tokens: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('[data-card]')].map((c) => c.dataset.card)"
    )
    return tokens


def settled(page: Any) -> bool:
    return root(page, "online") == "true" and root(page, "busy") == "false"


def wait(condition: Any, timeout: float = 30, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or condition}")


def tap_option(page: Any, kind: str) -> None:
    option = page.locator(f'[data-option][data-kind="{kind}"]').first
    option.tap()
    if page.locator(".option.armed").count():
        # Confirm with a second tap: the first only marks the option, nothing is sent yet.
        assert root(page, "busy") == "false"
        option.tap()


def answered(page: Any) -> str | None:
    """Wait for the page's action to be answered; the refusal's code, or None when accepted."""
    wait(lambda: root(page, "busy") == "false", what="an answer")
    code: str | None = page.locator("#note").get_attribute("data-reject")
    return code


def act(page: Any) -> bool:
    """One decision by tapping, if the page asks one: the first option of a yes/no question; on a
    lead the lowest card (the highest when the rules want a single's highest); following, a pass."""
    if not settled(page):
        return False
    options = page.locator("[data-option]")
    kinds = [o.get_attribute("data-kind") for o in options.all()]
    if not kinds:
        return False
    if "pass" in kinds:
        tap_option(page, "pass")
    elif "play" in kinds:
        cards = page.locator("[data-card]")
        cards.first.tap()
        tap_option(page, "play")
        if answered(page) == "must_play_highest_single":
            cards.first.tap()
            cards.last.tap()
            tap_option(page, "play")
    else:
        tap_option(page, kinds[0])
    assert answered(page) in (None, "phase_closed", "already_decided")
    return True


def walk(value: Any) -> list[dict[str, Any]]:
    """Every object inside a JSON document."""
    found = []
    if isinstance(value, dict):
        found.append(value)
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            found.extend(walk(item))
    return found
