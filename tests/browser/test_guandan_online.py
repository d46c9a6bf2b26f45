"""An online Guandan match (非限定场地赛: no venue tables, each player on their own phone): four people
open their join links on four phone-sized pages, play the match to its end by tapping — tribute and
return included, a wild card's reading chosen — and follow their page's link to the results site; every WebSocket frame one of them received is
read for another seat's cards."""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from phone_pages import PHONE, answered, hand, no_sideways_scroll, root, tap_option, wait, walk

pytest.importorskip("playwright")

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.xdist_group("guandan-online"),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium"),
]
EVENT = "gd-online"
CJK = re.compile(r"[\u4e00-\u9fff]")
WILD = re.compile(r"逢人配(10|[2-9JQKA])\u2665")  # the levels line names the wild heart level card


@pytest.fixture(scope="module")
def online_venue(
    tmp_path_factory: pytest.TempPathFactory, dynamodb_local: str, online_match: Any
) -> Iterator[Any]:
    """A venue with an online Guandan match event of two pairs (two boards a match), each player's
    join link issued, round 1 not started."""
    tmp = tmp_path_factory.mktemp("guandan-online")
    with online_match(tmp, dynamodb_local, EVENT, "掼蛋网上赛", "guandan", 2, "gd-web") as venue:
        yield venue


def selectable(page: Any) -> Any:
    return page.locator('[data-card]:not([aria-disabled="true"])')


def level_of(lines: list[str]) -> int | None:
    """The rank being played (the engine's level), read off the levels line's wild heart card."""
    from deckhand.engines.common.cards import parse_card

    named = [m.group(1) for line in lines if (m := WILD.search(line))]
    return parse_card("H" + ("T" if named[0] == "10" else named[0])) // 4 if named else None


def places(tokens: list[str], cards: Any) -> list[int]:
    """The places in the hand of these cards (a two-deck card's copies at different places)."""
    from deckhand.engines.common.cards import format_cards

    taken: list[int] = []
    for token in format_cards(list(cards)):
        taken.append(next(i for i, t in enumerate(tokens) if t == token and i not in taken))
    return sorted(taken)


def two_ways(tokens: list[str], level: int) -> list[int]:
    """The places of five cards that read several ways — a wild heart level card with four others
    (two pairs: two full houses; four of a straight's five: two straights) — or none without a wild."""
    from deckhand.engines.common.cards import format_cards, parse_card
    from deckhand.engines.guandan.combos import readings

    (wild,) = format_cards([level * 4 + 2])
    if wild not in tokens:
        return []
    others = sorted({parse_card(t) for t in tokens if t != wild})  # each distinct card once
    for four in itertools.combinations(others, 4):
        if len(readings(sorted([level * 4 + 2, *four]), level)) > 1:
            return places(tokens, [level * 4 + 2, *four])
    return []


def biggest_lead(tokens: list[str], level: int) -> list[int]:
    """The places of the lead that plays the most cards at once (fewer tricks: a shorter test)."""
    from deckhand.engines.common.cards import parse_card
    from deckhand.engines.guandan.legal import legal_plays

    plays = legal_plays(sorted(parse_card(t) for t in tokens), level, None)
    cards, _ = max(plays, key=lambda play: len(play[0]))
    return places(tokens, cards)


# The kinds of the options the page offers now, when it is online and waits for no answer (one call).
OFFERED = """() => {
  const app = document.getElementById('app')
  if (app.dataset.online !== 'true' || app.dataset.busy !== 'false') return []
  return [...document.querySelectorAll('[data-option]')].map((o) => o.dataset.kind)
}"""


class Player:
    """One phone: decides by tapping what the page offers, and remembers what happened."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.kinds: list[str] = []  # the kind of every option tapped
        self.readings: list[str] = []  # the label of every reading tapped

    def act(self) -> bool:
        page = self.page
        kinds = page.evaluate(OFFERED)
        if not kinds:
            return False
        if "tribute" in kinds or "return" in kinds:
            selectable(page).first.tap()  # the ask's s: only the legal cards can be chosen
            kind = "tribute" if "tribute" in kinds else "return"
        elif "pass" in kinds:
            kind = "pass"
        elif "play" in kinds:
            return self.lead()
        else:
            kind = kinds[0]
        tap_option(page, kind)
        self.kinds.append(kind)
        assert answered(page) in (None, "phase_closed", "already_decided")
        return True

    def lead(self) -> bool:
        page = self.page
        cards = page.locator("[data-card]")
        tokens = hand(page)
        level = level_of(page.locator("[data-line]").all_inner_texts())
        assert level is not None, "no levels line"
        groups = [biggest_lead(tokens, level), [0]]
        if not self.readings:
            # A lead with the wild that reads several ways, until the page has offered the readings.
            groups.insert(0, two_ways(tokens, level))
        for group in filter(None, groups):
            for i in group:
                cards.nth(i).tap()
            tap_option(page, "play")
            code = answered(page)
            if code == "reading_needed":
                # The cards read several ways (a wild heart level card): the page offers each reading.
                offered = page.locator('[data-option][data-kind="play"]')
                wait(lambda offered=offered: offered.count() > 1, what="the readings")
                label = offered.last.inner_text()
                offered.last.tap()
                if page.locator(".option.armed").count():
                    offered.last.tap()
                code = answered(page)
                assert code in (None, "phase_closed", "already_decided"), (label, code)
                self.readings.append(label)
            if code in (None, "phase_closed", "already_decided"):
                self.kinds.append("play")
                return True
            # Refused: unselect and lead the first card alone.
            for i in range(cards.count()):
                if cards.nth(i).get_attribute("aria-pressed") == "true":
                    cards.nth(i).tap()
        raise AssertionError(f"no lead was accepted: {hand(page)}")


def test_four_phones_play_an_online_guandan_match_to_the_results_site(online_venue, new_context, shots):
    venue = online_venue
    assert len(venue.links) == 4
    frames: list[bytes] = []  # every frame the first page receives
    pages = []
    for n, link in enumerate(venue.links):
        context = new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=1)
        page = context.new_page()
        if n == 0:
            page.on(
                "websocket",
                lambda ws: ws.on(
                    "framereceived", lambda f: frames.append(f if isinstance(f, bytes) else f.encode())
                ),
            )
        errors: list[str] = []
        page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
        page.errors = errors
        shots.append(page)
        page.goto(venue.api_url + link["url"])  # no lang: Chinese by default
        pages.append(page)
    for page in pages:
        wait(lambda page=page: root(page, "online") == "true", what="the page online")
        assert page.locator("html").get_attribute("lang") == "zh-CN"
        no_sideways_scroll(page)
    venue.api_client.request("POST", f"/events/{EVENT}/rounds")
    for page in pages:
        wait(lambda page=page: len(hand(page)) == 27, what="the deal", timeout=60)
        no_sideways_scroll(page)
    players = [Player(page) for page in pages]
    deadline = time.monotonic() + 240
    while True:
        assert time.monotonic() < deadline, "the match did not end"
        moved = False
        for player in players:
            if player.act():
                moved = True
                no_sideways_scroll(player.page)
                lines = player.page.locator("[data-line]").all_inner_texts()
                assert all(CJK.search(text) for text in lines), lines
        if moved:
            continue
        if venue.api_client.request("GET", f"/events/{EVENT}/rounds/1")["status"] == "done":
            break
        time.sleep(0.1)
    kinds = [kind for player in players for kind in player.kinds]
    assert "tribute" in kinds and "return" in kinds, kinds  # board 2 opens with a tribute and its return
    chosen = [label for player in players for label in player.readings]
    assert chosen and all(CJK.search(label) for label in chosen), chosen  # a wild card's reading chosen
    for page in pages:
        no_sideways_scroll(page)
        assert page.errors == [], page.errors

    doc = venue.api_client.request("GET", f"/events/{EVENT}/export")
    assert_no_frame_showed_another_seats_cards(frames, doc)
    # Each phone links to the event's results site once its last board is over: the venue's live site.
    for page in pages:
        wait(lambda page=page: page.locator("[data-results]").is_visible(), what="the results link")
        assert page.locator("[data-results]").get_attribute("data-results") == f"/site/{EVENT}/"
        assert page.locator("[data-results]").inner_text() == "查看成绩"
    # In English the link opens the English pages; an address that is no path nor https is never a link.
    drawn = pages[1].evaluate(DRAW_RESULTS)
    assert drawn == [[False, "/site/cup/en/"], [True, None], [False, "/site/cup/"], [True, None]], drawn
    page = pages[0]
    page.locator("[data-results]").tap()
    page.wait_for_url(f"**/site/{EVENT}/")
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    text = page.locator("body").inner_text()
    assert "Pair 1" in text and "Pair 2" in text, text
    assert "排名" in text or "名次" in text, text
    no_sideways_scroll(page)


DRAW_RESULTS = """Promise.all([import('./render.js'), import('./i18n.js')]).then(([r, i]) => {
  const link = document.createElement('a')
  const cases = [['ended', '/site/cup/', 'en'], ['ended', 'javascript:alert(1)', 'en'],
    ['ended', '/site/cup/', 'zh-CN'], ['playing', '/site/cup/', 'zh-CN']]
  return cases.map(([st, res, lang]) => {
    r.drawResults(link, { st, res }, i.translator(lang))
    return [link.hidden, link.getAttribute('data-results')]
  })
})"""


def assert_no_frame_showed_another_seats_cards(frames: list[bytes], doc: dict[str, Any]) -> None:
    """The cards the other seats never played, paid or returned stayed hidden: no frame the first page
    received names one of them, as a token or as the screen writes it (a two-deck card counts only when
    every copy of it stayed hidden and the page's own seat never held it)."""
    from deckhand.engines.common.cards import parse_card
    from deckhand.engines.common.words import Words

    received = b"".join(frames)
    seats = {int(s) for s in re.findall(rb'"t":"view"[^{}]*?"s":(\d+)', received)}
    assert len(seats) == 1, seats  # the page's one seat in the match
    (mine,) = seats
    per_board: dict[str, bytes] = {}  # what arrived while the page showed each board
    marks = list(re.finditer(rb'"t":"view","g":"[^"]+","b":"([^"]+)"', received))
    for mark, after in zip(marks, [*marks[1:], None], strict=True):
        board_id = mark.group(1).decode()
        end = after.start() if after is not None else len(received)
        per_board[board_id] = per_board.get(board_id, b"") + received[mark.start() : end]
    boards = [b for b in walk(doc) if "hands" in b.get("deal", {})]
    assert len(boards) == len(per_board) >= 2, (len(boards), sorted(per_board))
    words = Words("zh-CN")
    checked = 0
    for number, board in enumerate(boards, 1):
        shown = per_board[str(number)]
        seen: set[str] = set(board["deal"]["hands"][mine])
        for record in board.get("play", []):
            seen.update(record.get("c", []))  # played, paid in tribute or returned: shown by the rules
            for step in record.get("steps", []):
                seen.update(step.get("c", []))
        hidden = {t for seat, h in enumerate(board["deal"]["hands"]) if seat != mine for t in h} - seen
        for token in hidden:
            checked += 1
            assert f'"{token}"'.encode() not in shown, (number, token)
            assert words.card(parse_card(token)).encode() not in shown, (number, token)
    assert checked, "every card was shown: nothing to check"
    assert received.count(b'"t":"view"') > 10
