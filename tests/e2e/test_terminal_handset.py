"""``deckhand handset``: a person plays a seat from a terminal, through the real firmware and the venue;
and ``deckhand venue`` stops cleanly on Ctrl-C."""

import contextlib
import datetime as dt
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from deckhand.engines.bigtwo.board import SeatView
from deckhand.engines.bigtwo.bot import BigTwoBot
from deckhand.engines.common.cards import format_cards
from deckhand_local.venue.api_client import ApiClient
from deckhand_local.venue.demo_event import free_port
from deckhand_local.venue.terminal import CommandError, TerminalHandset, parse_card

THINGS = [f"term-{s}" for s in range(4)]


@pytest.mark.parametrize(
    ("typed", "token"),
    [("3D", "D3"), ("d3", "D3"), ("10h", "HT"), ("TH", "HT"), ("qs", "SQ"), ("2C", "C2"), ("bj", "BJ")],
)
def test_cards_as_people_type_them(typed, token):
    assert parse_card(typed) == token


@pytest.mark.parametrize("typed", ["1D", "3X", "", "queen", "10"])
def test_a_word_that_is_no_card_is_refused_with_the_reason(typed):
    with pytest.raises(CommandError, match="not a card"):
        parse_card(typed)


def pump(handsets, venue, until, timeout=15):
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, "the handsets did not get there in time"
        for h in handsets:
            h.step()
            h.refresh()
        venue.idle(timeout=0.2)
        time.sleep(0.01)


def command_for(venue, handset):
    """What a person would type for the bot's decision on the handset's screen: cards by name, an
    option by its label (pass) or by its number (the others). The bot reads the engine's view noted
    next to the view message; the person reads the screen."""
    view_message = handset.app.message
    seat_view = venue.sent.seat_view(handset.thing, view_message)
    action = BigTwoBot("steady").decide(SeatView.from_dict(seat_view))
    if action is None:
        assert not handset.app.options()
        return None
    if action.kind == "play":
        return "play " + " ".join(token[1] + token[0] for token in format_cards(action.cards))
    if action.kind == "pass":
        return "pass"
    options = [o["a"] for o in handset.app.options()]
    return f"choose {options.index({'k': action.kind, 'v': action.value}) + 1}"


def test_a_person_plays_a_whole_board_from_the_terminal(venue, tmp_path):
    """One registered player (the other three seats are AI): the person's handset is whichever of the
    table's handsets the seating gives them; they type every decision until the board is over."""
    venue, state = venue
    api = ApiClient(state_dir=state)
    api.request(
        "POST",
        "/events",
        {
            "event_id": "term",
            "name": "Terminal Cup",
            "ruleset": "bigtwo-2017",
            "grade": "unrated",
            "format": "pvp",
            "rounds": 1,
            "boards_per_round": 1,
            "groups": 1,
            "venue": True,
            "start": dt.date.today().isoformat(),
            "seed": "terminal",
        },
    )
    api.request("POST", "/events/term/players", {"players": [{"id": "P1", "name": "Person"}]})
    api.request("POST", "/events/term/tables", {"tables": [{"id": "T1", "seats": THINGS, "dealer": None}]})
    screens = {t: io.StringIO() for t in THINGS}
    handsets = [TerminalHandset(t, venue.link, tmp_path / t, screens[t]) for t in THINGS]
    pump(handsets, venue, lambda: all(h.conn.connected for h in handsets))
    assert all(f"[{t}] connected" in screens[t].getvalue() for t in THINGS)

    # Before the round: commands are refused with a reason, and nothing is sent.
    mine = handsets[0]
    mine.command("pass")
    assert "no board yet" in screens[mine.thing].getvalue()

    api.request("POST", "/events/term/rounds")
    pump(handsets, venue, lambda: any(h.app.message for h in handsets))
    person = next(h for h in handsets if h.app.message)
    out = screens[person.thing]
    assert sum(1 for h in handsets if h.app.message) == 1  # AI seats have no device view

    person.command("help")
    assert "play <cards>" in out.getvalue() and "choose <n>" in out.getvalue()
    person.command("dance")
    assert "unknown command 'dance'" in out.getvalue()
    person.command("play 99")
    assert "no card 99" in out.getvalue()
    assert len(person.conn.queue) == 0  # nothing was sent

    typed = []
    deadline = time.monotonic() + 60
    while person.app.message["st"] != "ended":
        assert time.monotonic() < deadline
        pump([person], venue, lambda: person.app.ready(), timeout=10)
        if person.app.message["st"] == "ended":
            break
        line = command_for(venue, person)
        if line is None:  # not this seat's decision: wait for the table to move
            version = person.app.message["v"]
            pump([person], venue, lambda v=version: person.app.message["v"] != v)
            continue
        typed.append(line)
        assert person.command(line)
        pump([person], venue, lambda: len(person.conn.queue) == 0 and person.app.ready())
    pump([person], venue, lambda: person.app.message["st"] == "ended")
    assert any(t.startswith("play ") for t in typed) and any(t.startswith("choose ") for t in typed)
    screen = out.getvalue()
    assert "board over" in screen and "Refused" not in screen
    assert "Show your hand? (stakes x3)" in screen and "Double? (stakes x2)" in screen
    status = api.request("GET", "/events/term/rounds/1")
    assert status["boards_done"] == status["boards_total"] == 1
    assert person.command("quit") is False


def test_the_handset_command_connects_to_the_running_venue_and_leaves_on_quit(venue, tmp_path):
    venue, state = venue
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "deckhand_local.cli.main",
            "handset",
            "--thing",
            "term-9",
            "--state",
            str(state),
        ],
        input="help\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert f"127.0.0.1:{venue.mqtt_port}" in proc.stdout and "play <cards>" in proc.stdout


def test_a_bad_thing_name_is_refused_before_connecting():
    proc = subprocess.run(
        [sys.executable, "-m", "deckhand_local.cli.main", "handset", "--thing", "no spaces"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "thing name" in proc.stderr and proc.stdout == ""


def test_ctrl_c_stops_the_venue_cleanly_and_keeps_its_data(tmp_path):
    ports = [free_port() for _ in range(3)]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "deckhand_local.cli.main",
            "venue",
            "--dynamodb-port",
            str(ports[0]),
            "--mqtt-port",
            str(ports[1]),
            "--http-port",
            str(ports[2]),
            "--state",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        first = proc.stdout.readline()
        if "Ctrl-C stops it" not in first:
            proc.kill()
            pytest.fail(f"the venue did not start: {first!r} {proc.communicate()[1]}")
        assert json.loads((tmp_path / "venue.json").read_text())["mqtt_port"] == ports[1]
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "stopping" in out and "Traceback" not in err
    assert not (tmp_path / "venue.json").exists()  # no stale pointer to a venue that is gone
    key = (tmp_path / "dynamodb-key").read_text().strip()  # one database per access key: the venue's own
    assert (tmp_path / "dynamodb" / f"{key}_us-east-1.db").stat().st_size > 0
    # Nothing the venue started is left running: no process names its folder (DynamoDB Local's data, the
    # broker's credentials). A port check would race the other workers' venues, which may take a freed port.
    left = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError):
            if str(tmp_path).encode() in cmdline.read_bytes():
                left.append(cmdline.parent.name)
    assert left == [], f"processes left running by the stopped venue: {left}"
