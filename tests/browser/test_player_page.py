"""The player's browser page (web/player/) as four handsets of one table of a real local venue: four
pages in Chromium play a whole Big Two board by tapping, over MQTT over WebSocket through the venue's
Aedes broker, on a 390×844 phone screen that never scrolls sideways."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from phone_pages import (
    QUEUE,
    Link,
    act,
    hand,
    no_sideways_scroll,
    open_phone,
    root,
    settled,
    wait,
)

pytest.importorskip("playwright")

CHROMIUM = Path("/usr/bin/chromium")  # Debian's (Playwright downloads no browser here)
pytestmark = [
    pytest.mark.xdist_group("player-page"),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium"),
]


def page_url(venue: Any, thing: str, lang: str | None = "en") -> str:
    query = f"?lang={lang}" if lang else ""
    return f"{venue.api_url}/play/{query}#thing={thing}&key={venue.credentials.password(thing)}"


def test_four_pages_play_a_whole_big_two_board_by_tapping(player_venue, new_context, shots):
    venue = player_venue
    things = venue.tables[0]["seats"]
    links = [Link() for _ in things]
    pages = [
        open_phone(new_context, shots, page_url(venue, thing), link)
        for thing, link in zip(things, links, strict=True)
    ]
    for page in pages:
        wait(lambda page=page: root(page, "online") == "true", what="the page online")
    pages[3].locator(".settings summary").tap()
    pages[3].locator("#confirm").tap()  # this player confirms each decision with a second tap
    venue.api_client.request("POST", "/events/web/rounds")
    for page in pages:
        wait(lambda page=page: len(hand(page)) == 13, what="the deal")
        no_sideways_scroll(page)
    # The show decision's clock counts down from the view's dl.
    wait(
        lambda: any(int(p.locator("[data-clock]").get_attribute("data-clock")) > 0 for p in pages),
        what="a clock",
    )
    # Big Two's display order: 3 … A 2, and ♦ ♣ ♥ ♠ within a rank (the server's, drawn as it comes).
    assert all(page.locator("[data-card]").first.get_attribute("aria-label") for page in pages)
    reloaded = False
    called = False
    resent: Link | None = None
    actions = 0
    deadline = time.monotonic() + 240
    while not all(root(p, "board-status") == "ended" for p in pages):
        assert time.monotonic() < deadline, "the board did not end"
        moved = False
        for page, link in zip(pages, links, strict=True):
            if actions >= 6 and resent is None and settled(page) and page.locator("[data-option]").count():
                # The answer to this action is lost with the link: the page reconnects by itself and
                # sends the same message again, with the same id; the server applies it once.
                link.lose_next = True
                resent = link
            if act(page):
                actions += 1
                moved = True
                no_sideways_scroll(page)
        if actions >= 3 and not called:
            pages[0].locator("#call").tap()  # any moment of the board; it holds up no decision
            wait(lambda: pages[0].locator("#call").inner_text() == "Referee called", what="the call")
            wait(
                lambda: pages[0].evaluate(QUEUE, things[0]) == "[]", what="the call answered"
            )  # nothing left to resend
            called = True
        if actions >= 12 and not reloaded:
            # A reload mid-board: the page says hello again and gets the same view back.
            venue.idle()
            before = (hand(pages[1]), pages[1].locator("[data-line]").all_inner_texts())
            pages[1].reload()
            wait(lambda: settled(pages[1]) and len(hand(pages[1])) > 0, what="the view after a reload")
            assert (hand(pages[1]), pages[1].locator("[data-line]").all_inner_texts()) == before
            reloaded = True
        if not moved:
            time.sleep(0.1)
    assert all(link.hellos and set(link.hellos) == {"en"} for link in links)  # a hello on every connect
    assert called and reloaded and resent is not None and resent.lost is not None
    assert resent.acts.count(resent.lost) >= 2 and resent.connections >= 2
    for page in pages:
        no_sideways_scroll(page)
        assert page.locator("[data-option]").count() == 0
        assert any("Scores" in line for line in page.locator("[data-line]").all_inner_texts())
        assert page.errors == [], page.errors
    assert sum(len(hand(p)) == 0 for p in pages) == 1  # one seat went out
    # The board's scoring runs after its end (an asynchronous invocation): the round ends with it.
    wait(
        lambda: venue.api_client.request("GET", "/events/web/rounds/1")["status"] == "done",
        what="the round's end",
        timeout=30,
    )


def test_chinese_by_default_english_on_the_switch_remembered(player_venue, new_context, shots):
    venue = player_venue
    thing = venue.tables[0]["seats"][0]
    link = Link()
    page = open_phone(new_context, shots, page_url(venue, thing, lang=None), link)
    wait(lambda: root(page, "online") == "true", what="the page online")
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    assert page.locator("#lang").inner_text() == "English"
    assert page.locator(".settings summary").inner_text() == "设置"
    assert page.locator("#call").inner_text() == "呼叫裁判"
    assert "在线" in page.locator("#conn").inner_text()
    names = "m => [m.translator('zh-CN').cardName('HT'), m.translator('en').cardName('HT'), m.translator('en').cardName('RJ')]"
    assert page.evaluate(f"import('./i18n.js').then({names})") == ["红桃 10", "10 of hearts", "red joker"]
    assert link.hellos == ["zh-CN"]
    page.locator("#lang").tap()
    assert page.locator(".settings summary").inner_text() == "Settings"
    wait(
        lambda: page.locator("#conn").inner_text() != "" and link.hellos == ["zh-CN", "en"],
        what="a hello in English",
    )
    assert page.locator("#lang").inner_text() == "中文"
    page.reload()  # the switch is remembered
    wait(lambda: root(page, "online") == "true", what="the page online again")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("#call").inner_text() == "Call the referee"
    assert "Online" in page.locator("#conn").inner_text()
    page.goto(page_url(venue, thing, lang="zh-CN"))  # the URL chooses
    wait(lambda: root(page, "online") == "true", what="the page online again")
    assert page.locator(".settings summary").inner_text() == "设置"
    no_sideways_scroll(page)
    assert page.errors == [], page.errors


def test_suits_are_text_glyphs_and_every_button_has_a_name(player_venue, new_context, shots):
    venue = player_venue
    page = open_phone(new_context, shots, page_url(venue, venue.tables[0]["seats"][2]))
    wait(lambda: root(page, "online") == "true", what="the page online")
    source = page.evaluate("import('./i18n.js').then(m => Object.values(m.SUIT_GLYPHS).join(''))")
    assert source == "\u2660\u2665\u2663\u2666"
    glyph = page.evaluate("import('./i18n.js').then(m => m.translator('en').face('S7').glyph)")
    assert glyph == "\u2660\ufe0e"  # the text presentation, never emoji
    page.locator(".settings summary").tap()
    page.locator("#contrast").tap()
    assert "contrast" in (page.locator("#app").get_attribute("class") or "")
    page.reload()  # remembered
    assert "contrast" in (page.locator("#app").get_attribute("class") or "")
    page.locator(".settings summary").tap()  # open: its switches are measured too
    for button in page.locator("button, summary, label.toggle").all():
        name = button.get_attribute("aria-label") or button.inner_text()
        assert name.strip(), button.evaluate("b => b.outerHTML")
        box = button.bounding_box()
        if box is not None:
            assert box["width"] >= 44 and box["height"] >= 44, button.evaluate("b => b.outerHTML")


# A Guandan hand (27 cards, two decks: tokens repeat) and a Shengji dealer's 33 with the kitty, drawn by
# the page's own modules with a five-option ask: no sideways scrolling on the narrowest phone.
GUANDAN = [
    "D2",
    "C2",
    "H3",
    "S3",
    "D4",
    "C5",
    "H5",
    "S6",
    "D7",
    "C7",
    "H8",
    "S8",
    "D9",
    "C9",
    "HT",
    "ST",
    "DJ",
    "CQ",
    "HQ",
    "SK",
    "DA",
    "CA",
    "HA",
    "H5",
    "H5",
    "BJ",
    "RJ",
]
SHENGJI = [s + r for s in "SHCD" for r in "AKQJT98"] + ["BJ", "RJ", "S3", "S3", "H4"]


@pytest.mark.parametrize(
    "cards", [GUANDAN, SHENGJI[:25], SHENGJI], ids=["guandan-27", "shengji-25", "shengji-33"]
)
@pytest.mark.parametrize("width", [360, 390])
def test_a_big_hand_wraps_into_rows_on_a_phone(player_venue, new_context, shots, cards, width):
    venue = player_venue
    context = new_context(viewport={"width": width, "height": 800}, has_touch=True, is_mobile=True)
    page = context.new_page()
    shots.append(page)
    page.goto(f"{venue.api_url}/play/?lang=zh-CN")  # no seat: nothing connects, the modules draw
    view = {
        "t": "view",
        "g": "guandan-2023",
        "b": "1",
        "r": 1,
        "v": 3,
        "s": 0,
        "st": "playing",
        "dl": 9000,
        "h": cards,
        "l": ["Levels: you 5, them 3 — playing 5, wild 5♥ (you hold 2)", "Cards: 0:27 1:27 2:27 3:27"],
        "ask": {
            "p": "Which reading?",
            "o": [{"l": f"straight flush {i}", "a": {"k": "play", "c": True}} for i in range(5)],
        },
    }
    drawn = page.evaluate(
        """async (view) => {
            const { SeatState } = await import('./protocol.js')
            const { draw } = await import('./render.js')
            const { translator } = await import('./i18n.js')
            const state = new SeatState()
            state.receive(view)
            const link = { online: true, lag: 40, retryIn: null, refused: false }
            draw(document.getElementById('app'), state, link, translator('zh-CN'), { contrast: false, armed: null })
            const clock = document.querySelector('[data-clock]').dataset.clock
            return [[...document.querySelectorAll('[data-card]')].map((c) => c.dataset.card), clock]
        }""",
        view,
    )
    assert drawn == [cards, "9"]  # in the order the server drew them, copies included; 9 s left
    no_sideways_scroll(page)
    for card in page.locator("[data-card]").all():
        box = card.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert box["width"] >= 44 and box["height"] >= 44
    assert page.locator("[data-option]").count() == 5
    assert page.locator('[data-card="HT"]').first.get_attribute("aria-label") == "红桃 10"
    if "RJ" in cards:
        assert page.locator('[data-card="RJ"]').get_attribute("aria-label") == "大王"


def test_a_join_link_names_its_seat(player_venue, new_context, shots):
    page = new_context().new_page()
    shots.append(page)
    page.goto(f"{player_venue.api_url}/play/?lang=en")
    seats = page.evaluate(
        """async () => {
            const { credentialsOf } = await import('./connection.js')
            return [credentialsOf('#t=L7xk.s3cr3t-_A'), credentialsOf('#thing=hs-T1-0&key=pw'),
                    credentialsOf('#t=no-secret'), credentialsOf('#thing=a/b&key=pw'), credentialsOf('')]
        }"""
    )
    assert seats == [
        {"thing": "web-L7xk", "username": "web-L7xk", "password": "L7xk.s3cr3t-_A"},
        {"thing": "hs-T1-0", "username": "hs-T1-0", "password": "pw"},
        None,
        None,
        None,
    ]
    assert page.locator("#board-title").inner_text() == "This link names no seat: open your join link again"


def test_a_thing_no_table_has_is_told_so(player_venue, new_context, shots):
    page = open_phone(new_context, shots, page_url(player_venue, "hs-nowhere"))
    wait(lambda: "Unknown device" in page.locator("#note").inner_text(), what="the refusal")
    assert "Ask the referee to register it" in page.locator("#note").inner_text()
    assert root(page, "online") == "true" and page.locator("[data-card]").count() == 0


def test_refusals_are_said_by_their_code_or_the_servers_words(player_venue, new_context, shots):
    page = new_context().new_page()
    shots.append(page)
    page.goto(f"{player_venue.api_url}/play/?lang=zh-CN")
    notes = page.evaluate(
        """async () => {
            const { SeatState } = await import('./protocol.js')
            const { draw } = await import('./render.js')
            const { translator } = await import('./i18n.js')
            const link = { online: true, lag: null, retryIn: null, refused: false }
            const notes = []
            for (const [lang, code] of [['zh-CN', 'not_your_turn'], ['en', 'not_your_turn'], ['en', 'new_code']]) {
                const state = new SeatState()
                state.receive({ t: 'view', b: '1', r: 1, v: 1, s: 0, st: 'playing', dl: 0, h: ['S3'], l: [] })
                state.receive({ t: 'reject', msg: 'm1', code, why: 'the server says why' })
                draw(document.getElementById('app'), state, link, translator(lang), { contrast: false, armed: null })
                const note = document.getElementById('note')
                notes.push([note.dataset.reject, note.textContent])
            }
            return notes
        }"""
    )
    assert notes == [
        ["not_your_turn", "未被接受：还没轮到你"],
        ["not_your_turn", "Refused: It is not your turn"],
        ["new_code", "Refused: the server says why"],
    ]
