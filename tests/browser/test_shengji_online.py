"""Shengji on the player's page: the server gives the cards out one at a time, and a player declares
trump on their phone while they still arrive (RULES.md §5: 亮主 during the deal) — one deal of an
online match, four phones on their join links, none of them scrolling sideways."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from phone_pages import PHONE, answered, hand, no_sideways_scroll, root, settled, tap_option, wait

pytest.importorskip("playwright")

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.xdist_group("shengji-online"),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium"),
]
EVENT = "sj-online"
DEALING = re.compile(r"发牌中：已发(\d+)/100张")  # the status line while the cards arrive
DECLARED = re.compile(r"亮主：(.+)")  # the trump line of the declaring phase


@pytest.fixture(scope="module")
def shengji_venue(
    tmp_path_factory: pytest.TempPathFactory, dynamodb_local: str, online_match: Any
) -> Iterator[Any]:
    """An online Shengji match of two pairs, its deals paced by the server (a card every 200 ms)."""
    tmp = tmp_path_factory.mktemp("shengji-online")
    with online_match(tmp, dynamodb_local, EVENT, "升级网上赛", "shengji", 1, "sj-web", deal_ms=200) as venue:
        yield venue


def lines(page: Any) -> list[str]:
    texts: list[str] = page.locator("[data-line]").all_inner_texts()
    return texts


def dealt(page: Any) -> int | None:
    """How many cards are out, while the status line says the deal goes on (None: it is over)."""
    found = [int(m.group(1)) for line in lines(page) if (m := DEALING.search(line))]
    return found[0] if found else None


def declared(page: Any) -> str | None:
    found = [m.group(1) for line in lines(page) if (m := DECLARED.search(line))]
    return found[0] if found else None


def test_a_player_declares_trump_on_the_page_while_the_cards_arrive(shengji_venue, new_context, shots):
    venue = shengji_venue
    pages = []
    for link in venue.links:
        context = new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=1)
        page = context.new_page()
        shots.append(page)
        page.goto(venue.api_url + link["url"])  # Chinese by default
        pages.append(page)
    for page in pages:
        wait(lambda page=page: root(page, "online") == "true", what="the page online")
    venue.api_client.request("POST", f"/events/{EVENT}/rounds")
    for page in pages:
        wait(lambda page=page: dealt(page) is not None, what="the first cards", timeout=60)
        assert declared(page) == "尚无"  # nobody has declared yet

    declarer = None
    deadline = time.monotonic() + 30
    while declarer is None:
        assert time.monotonic() < deadline, "no page offered a declaration while the cards came"
        for page in pages:
            offered = page.locator('[data-option][data-kind="declare"]').count()
            if not settled(page) or not offered or len(hand(page)) < 6:
                continue  # a few cards first: some that can declare, some that cannot
            out = dealt(page)
            assert out is not None and out < 100, out  # the ask to declare comes while cards arrive
            # Only the cards that can declare may be chosen (a level card, its pair, a joker pair).
            usable = page.locator('[data-card]:not([aria-disabled="true"])')
            assert 0 < usable.count() < len(hand(page))
            usable.first.tap()
            no_sideways_scroll(page)
            tap_option(page, "declare")
            assert answered(page) is None
            declarer = page
            break
        else:
            time.sleep(0.05)
    # The declaration stands on every phone while the deal goes on: "你亮2♥" on the declarer's, the
    # seat's number on the others'.
    wait(lambda: (declared(declarer) or "").startswith("你亮"), what="the declaration taken")
    out = dealt(declarer)
    assert out is not None and out < 100, "the deal ended before the declaration was shown"
    for page in pages:
        if page is not declarer:
            wait(lambda page=page: re.match(r"\d+号位亮", declared(page) or ""), what="the declaration seen")
    # The rest of the deal arrives on the phones: a 25-card hand in rows, never sideways scrolling.
    for page in pages:
        wait(lambda page=page: len(hand(page)) >= 25, what="the whole deal", timeout=60)
        no_sideways_scroll(page)
