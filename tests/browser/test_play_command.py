"""`deckhand play` (`make play`): a person opens the one printed line's URL on a phone-sized window and
plays a Big Two board against three AI seats to its end, in Chinese, on their own join link."""

from __future__ import annotations

import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from phone_pages import act, hand, no_sideways_scroll, open_phone, root, wait

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
    page = open_phone(new_context, shots, line.split()[1])
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
