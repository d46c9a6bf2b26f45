"""`deckhand play` (`make play`): a person opens the one printed line's URL on a phone-sized window and
plays a Big Two board against three AI seats to its end, in Chinese, on their own join link; in a game
of pairs (Guandan), a short match with the AI as partner against an AI pair."""

from __future__ import annotations

import json
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from phone_pages import (
    PHONE,
    Link,
    act,
    answered,
    hand,
    no_sideways_scroll,
    open_phone,
    root,
    settled,
    tap_option,
    wait,
    walk,
)

pytest.importorskip("playwright")

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.xdist_group("play-command"),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium"),
]
DECKHAND = Path(sys.executable).with_name("deckhand")


def read_line(stream: Any, timeout: float) -> str:
    ready, _, _ = select.select([stream], [], [], timeout)
    assert ready, f"nothing printed in {timeout} s"
    line: str = stream.readline()
    return line


@pytest.fixture
def play(tmp_path: Path) -> Any:
    with started(tmp_path / "play", "--boards", "1") as printed:
        yield printed


@contextmanager
def started(state: Path, *args: str) -> Iterator[tuple[str, str, Path]]:
    """`deckhand play` running with ``args``: its stdout line, its first stderr line, its state."""
    process = subprocess.Popen(
        [str(DECKHAND), "play", *args, "--state", str(state)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = read_line(process.stdout, 120)
        event = read_line(process.stderr, 10)
        yield line, event, state
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            raise


OPEN = re.compile(r"Open http://127\.0\.0\.1:\d+/play/\?lang=zh-CN#t=[a-z2-7]{10}\.[\w-]{43}\n")
CHINESE = re.compile(r"[\u4e00-\u9fff]")


def test_a_person_plays_a_big_two_board_against_three_ai_seats_in_chinese(play, new_context, shots):
    line, event, state = play
    assert OPEN.fullmatch(line)
    frames: list[bytes] = []  # every WebSocket frame the page receives, as it arrives
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=1)
    context.on(
        "page",
        lambda p: p.on(
            "websocket",
            lambda ws: ws.on(
                "framereceived", lambda f: frames.append(f if isinstance(f, bytes) else f.encode())
            ),
        ),
    )
    page = open_phone(lambda **_: context, shots, line.split()[1])
    wait(lambda: root(page, "online") == "true", what="the page online")
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    wait(lambda: len(hand(page)) == 13, what="the deal", timeout=60)
    no_sideways_scroll(page)
    deadline = time.monotonic() + 240
    while root(page, "board-status") != "ended":
        assert time.monotonic() < deadline, "the board did not end"
        if act(page):
            no_sideways_scroll(page)
        else:
            time.sleep(0.1)
    assert page.locator("[data-option]").count() == 0
    assert page.errors == [], page.errors
    lines = page.locator("[data-line]").all_inner_texts()
    assert lines and all(CHINESE.search(text) for text in lines), lines  # drawn in Chinese
    assert not any(re.search(r"\b(Scores|Seat|seat|you|Board)\b", text) for text in lines), lines

    # The event is finished and its one player ranked, as `deckhand event standings` shows it.
    event_id = re.match(r"event (\S+):", event)
    assert event_id is not None
    shown = subprocess.run(
        [str(DECKHAND), "event", "standings", event_id.group(1), "--state", str(state)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stderr
    assert '"P01"' in shown.stdout
    assert_no_frame_showed_another_seats_cards(frames, DECKHAND, event_id.group(1), state)


def test_a_person_plays_a_guandan_match_with_the_ai_as_partner_in_chinese(tmp_path, new_context, shots):
    """Guandan is played by pairs: the command starts a short match (the AI as the person's partner,
    an AI pair opposite) and prints the same line; the person's 27 cards and the asks are drawn in
    Chinese, and the person's first decisions are made by tapping (the AI waits for them)."""
    with started(tmp_path / "play", "--game", "guandan", "--boards", "1") as (line, event, state):
        assert OPEN.fullmatch(line)
        assert re.match(
            rf"event (\S+): its standings with `deckhand event standings \1 --state {re.escape(str(state))}`",
            event,
        )
        page = open_phone(new_context, shots, line.split()[1])
        wait(lambda: root(page, "online") == "true", what="the page online")
        assert page.locator("html").get_attribute("lang") == "zh-CN"
        wait(lambda: len(hand(page)) == 27, what="the deal", timeout=30)
        # A view drawn before the page's hello said its language may come first: its hello's follows.
        wait(lambda: drawn_in_chinese(page), what="the screen in Chinese")
        no_sideways_scroll(page)
        decisions = 0
        deadline = time.monotonic() + 40
        while decisions < 3 or len(hand(page)) == 27:
            assert time.monotonic() < deadline, f"{decisions} decisions asked, {len(hand(page))} cards left"
            if not settled(page) or not page.locator("[data-option]").count():
                time.sleep(0.1)
                continue
            asked = page.locator("#prompt").inner_text()
            labels = page.locator("[data-option]").all_inner_texts()
            assert CHINESE.search(asked) and all(CHINESE.search(label) for label in labels), (asked, labels)
            before = len(hand(page))
            play_or_pass(page)
            decisions += 1
            no_sideways_scroll(page)
            assert len(hand(page)) <= before
        assert len(hand(page)) < 27, "no card of the person's was played"
        assert page.errors == [], page.errors
        assert drawn_in_chinese(page), page.locator("[data-line]").all_inner_texts()


def test_a_person_plays_a_shengji_match_as_the_cards_arrive_in_chinese(tmp_path, new_context, shots):
    """Shengji's cards come one at a time at the server's pace until the person holds 25, and the
    person's first decisions (declaring trump as the cards arrive, or passing when the deal is done;
    burying the kitty; a lead or a follow) are asked in Chinese and made by tapping."""
    with started(tmp_path / "play", "--game", "shengji", "--boards", "1") as (line, _, _):
        assert OPEN.fullmatch(line)
        link = Link()  # the page's connections and hellos, for the message of a failure
        page = open_phone(new_context, shots, line.split()[1], link)
        wait(lambda: root(page, "online") == "true", what="the page online")
        wait(lambda: len(hand(page)) > 0, what="the first cards", timeout=30)
        decisions = most = 0
        deadline = time.monotonic() + 50
        while decisions < 3 or most < 25:
            most = max(most, len(hand(page)))
            assert time.monotonic() < deadline, (
                f"{decisions} decisions asked, {len(hand(page))} cards held; "
                f"{link.connections} connections, hellos {link.hellos}, errors {page.errors}"
            )
            if not settled(page) or not page.locator("[data-option]").count() or not drawn_in_chinese(page):
                time.sleep(0.1)
                continue
            asked = page.locator("#prompt").inner_text()
            labels = page.locator("[data-option]").all_inner_texts()
            assert CHINESE.search(asked) and all(CHINESE.search(label) for label in labels), (asked, labels)
            kinds = [o.get_attribute("data-kind") for o in page.locator("[data-option]").all()]
            if "pass" in kinds:
                tap_option(page, "pass")
            else:  # a card the ask allows (the page enables only those), then the one option
                page.locator('[data-card]:not([aria-disabled="true"])').first.tap()
                tap_option(page, kinds[0])
            if answered(page) is None:
                decisions += 1
            no_sideways_scroll(page)
        assert page.errors == [], page.errors


def drawn_in_chinese(page: Any) -> bool:
    lines = page.locator("[data-line]").all_inner_texts()
    return bool(lines) and all(CHINESE.search(text) for text in lines)


def play_or_pass(page: Any) -> None:
    """A decision by tapping: a lead plays the lowest card; following, the highest card if it beats
    what is on the table (a refusal says not), else a pass; any other ask, its first option."""
    kinds = [o.get_attribute("data-kind") for o in page.locator("[data-option]").all()]
    if "play" not in kinds:
        tap_option(page, kinds[0])
    elif "pass" not in kinds:
        page.locator("[data-card]").first.tap()
        tap_option(page, "play")
    else:
        page.locator("[data-card]").last.tap()
        tap_option(page, "play")
        if answered(page) is None:
            return
        page.locator("[data-card]").last.tap()  # unselected again: a pass takes no cards
        tap_option(page, "pass")
    assert answered(page) is None, page.locator("#note").get_attribute("data-reject")


def assert_no_frame_showed_another_seats_cards(
    frames: list[bytes], deckhand: Path, event: str, state: Path
) -> None:
    """The cards the AI seats still held at the end were never played: no frame the page received over
    the whole board names one of them, as a token or as the screen writes it."""
    from deckhand.engines.common.cards import parse_card
    from deckhand.engines.common.words import Words

    exported = subprocess.run(
        [str(deckhand), "event", "export", event, "--state", str(state)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert exported.returncode == 0, exported.stderr
    boards = [b for b in walk(json.loads(exported.stdout)) if "hands" in b.get("deal", {})]
    assert len(boards) == 1
    board = boards[0]
    played = [set() for _ in board["deal"]["hands"]]
    shown = set()  # seats that showed their hand (明牌): everyone may see it
    for step in (step for record in board["play"] for step in record["steps"]):
        if step["t"] == "play":
            played[step["s"]].update(step["c"])
        if step["t"] == "show" and step["v"]:
            shown.add(step["s"])
    words = Words("zh-CN")
    hidden = {
        token
        for seat, hand in enumerate(board["deal"]["hands"])
        if seat != 0 and seat not in shown  # seat 0: the player's, in round 1 of a players-vs-AI event
        for token in hand
        if token not in played[seat]
    }
    assert hidden, "every card was played: nothing to check"
    received = b"".join(frames)
    # Views came all along (the deal, each of the person's turns, the end): how many depends on the
    # deal, which is the event's own (a board the AI seats end quickly has ten or fewer).
    assert received.count(b'"t":"view"') >= 5
    for token in hidden:
        card = parse_card(token)
        assert f'"{token}"'.encode() not in received, token
        assert words.card(card).encode() not in received, (token, words.card(card))
