"""`deckhand play` (`make play`): a person opens the one printed line's URL on a phone-sized window and
plays a Big Two board against three AI seats to its end, in Chinese, on their own join link."""

from __future__ import annotations

import json
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from phone_pages import PHONE, act, hand, no_sideways_scroll, open_phone, root, wait

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
    state = tmp_path / "play"
    process = subprocess.Popen(
        [str(DECKHAND), "play", "--boards", "1", "--state", str(state)],
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


def test_a_person_plays_a_big_two_board_against_three_ai_seats_in_chinese(play, new_context, shots):
    line, event, state = play
    assert re.fullmatch(r"Open http://127\.0\.0\.1:\d+/play/\?lang=zh-CN#t=[a-z2-7]{10}\.[\w-]{43}\n", line)
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
    assert lines and all(re.search(r"[\u4e00-\u9fff]", text) for text in lines), lines  # drawn in Chinese
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
    assert received.count(b'"t":"view"') > 10
    for token in hidden:
        card = parse_card(token)
        assert f'"{token}"'.encode() not in received, token
        assert words.card(card).encode() not in received, (token, words.card(card))


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
