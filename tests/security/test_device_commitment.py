"""Players can check the deal commitment: the handset shows it at the round's start, before any card
is played, so a deal changed after the commitment was published would be caught by the players."""

import pytest
from backend import THINGS, cup_started, setup_moto_env
from deckhand.service.duplicate import rounds

setup_moto_env()


@pytest.fixture
def started():
    with cup_started() as (b, bots):
        yield b, bots


def commitment_lines(view):
    return [line for line in view["l"] if line.startswith("Deal commitment ")]


def test_every_handset_shows_the_published_commitment_at_the_round_s_start(started):
    b, _ = started
    published = next(p for t, p in b.publisher.sent if t == "dh/events/cup" and p["t"] == "round")["commit"]
    assert published == rounds.round_status("cup", 1)["commitment"]
    for thing in THINGS:
        (line,) = commitment_lines(b.last_view(thing))
        shown = line.removeprefix("Deal commitment ").replace(" ", "")
        assert len(shown) == 16 and published.startswith(shown)


def test_the_line_gives_way_to_play_once_a_player_acted(started):
    b, bots = started
    assert next(o for o in (bot.act() for bot in bots) if o is not None)["status"] == "accepted"
    assert all(commitment_lines(b.last_view(thing)) == [] for thing in THINGS[:4])


def test_a_hello_at_the_round_s_start_shows_it_again(started):
    b, _ = started
    b.send(THINGS[5], {"t": "hello", "msg": "h"})
    assert commitment_lines(b.last_view(THINGS[5]))
