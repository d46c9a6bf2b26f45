"""Simulated handsets play Guandan through the real firmware (device/lib) and its buttons: the bot
decides from the engine's view of its seat, selects cards (tribute and return among the cards the ask
lets be selected), and answers a refusal's offered readings with the one it meant. A small in-process
server stands in for the backend: it draws the screens, applies the actions as the service parses
them, and refuses with the game's offer."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from deckhand.engines.common.cards import make_deck
from deckhand.engines.common.shuffle import seeded_shuffle
from deckhand.engines.contract import Rejected
from deckhand.engines.registry import game
from deckhand.service.device_io import incoming as device_messages
from deckhand.service.infra import outgoing
from deckhand.service.infra.messaging import encode
from deckhand_local.venue.simulated import BotHandset

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "device" / "lib") not in sys.path:
    sys.path.insert(0, str(ROOT / "device" / "lib"))

from deckhand_fw.handset import Handset  # noqa: E402

SPEC = game("guandan-2023")


class Part:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.beeps = 0

    def show(self, lines: list[str]) -> None:
        self.lines = lines

    def beep(self) -> None:
        self.beeps += 1


class Hal:
    def __init__(self) -> None:
        self.display = self.buzzer = Part()

    def ticks_ms(self) -> int:
        return 0


class Ids:
    def __init__(self, thing: str) -> None:
        self.thing, self.n = thing, 0

    def next(self) -> str:
        self.n += 1
        return f"{self.thing}-{self.n}"


class Table:
    """The server's side for one table of four handsets: views out, actions in, refusals with offers."""

    def __init__(self) -> None:
        self.board: Any = None
        self.version = 0
        self.apps: list[Handset] = []
        self.noted: dict[tuple[str, int], dict[str, Any]] = {}
        self.sent: list[dict[str, Any]] = []
        self.kinds: Counter[str] = Counter()
        self.offers = 0
        self.chosen = 0

    def seat_view(self, thing: str, message: dict[str, Any]) -> dict[str, Any] | None:
        return self.noted.get((thing, message["v"]))

    def publish(self) -> None:
        self.version += 1
        for seat, app in enumerate(self.apps):
            message = outgoing.view(
                ruleset=SPEC.ruleset,
                board="1",
                round_no=1,
                version=self.version,
                seat=seat,
                status="ended" if self.board.finished else "playing",
                left_ms=0,
                screen=SPEC.screen(self.board, seat),
            )
            self.noted[(f"hs-{seat}", self.version)] = self.board.view(seat)
            app.on_message(json.loads(encode(message)))

    def receive(self, seat: int, message: dict[str, Any]) -> None:
        encode(message)
        self.sent.append(message)
        parsed = device_messages.parse(json.loads(json.dumps(message)))
        assert isinstance(parsed, device_messages.Act)
        action = device_messages.to_action(SPEC, seat, parsed.a)
        try:
            self.board.apply(action)
        except Rejected as exc:
            asked = SPEC.offer(self.board, action, exc.code) if SPEC.offer else None
            self.offers += asked is not None
            refusal = outgoing.reject(message["msg"], exc.code, exc.message, asked)
            self.apps[seat].on_message(json.loads(encode(refusal)))
            return
        self.kinds[action.kind] += 1
        self.chosen += action.data is not None
        self.apps[seat].on_message(outgoing.ack(message["msg"], version=self.version + 1))
        self.publish()


class Conn:
    def __init__(self, table: Table, seat: int) -> None:
        self.table, self.seat = table, seat

    def send(self, message: dict[str, Any]) -> None:
        self.table.receive(self.seat, message)


def bot_handset(app: Handset, thing: str, table: Table) -> BotHandset:
    """A BotHandset's deciding and pressing, on a firmware handset with no broker behind it."""
    bot = BotHandset.__new__(BotHandset)
    bot.thing, bot.app, bot.views, bot.style, bot.think = thing, app, table, "steady", 0
    bot.bots, bot.acted, bot.seen, bot.seen_tick = {}, None, None, 0
    bot.decision, bot.unseen, bot.answered = None, False, None
    bot.player_style, bot.board = None, None  # the handset's own style; no electronic board
    return bot


@pytest.mark.parametrize("seed", ["one", "two"])
def test_bot_handsets_play_guandan_games_with_their_buttons(seed: str) -> None:
    table = Table()
    bots = []
    for seat in range(4):
        app = Handset(Hal(), Ids(f"hs-{seat}"))
        app.attach(Conn(table, seat))
        table.apps.append(app)
        bots.append(bot_handset(app, f"hs-{seat}", table))
    carry = None
    deck = make_deck(decks=2, jokers=True)
    for b in range(5):
        table.board = SPEC.new_board(seeded_shuffle(deck, f"{seed}/{b}"), carry)
        table.publish()
        for tick in range(3000):
            if table.board.finished:
                break
            due = [h for h in bots if h.due(tick)]
            assert due, f"nobody acts at tick {tick}: {table.board.pending()}"
            for h in due:
                h.play()
        assert table.board.finished
        carry = table.board.result()["carry"]
        if carry["game_over"]:
            break
    assert table.kinds["tribute"] and table.kinds["return"] and table.kinds["play"] and table.kinds["pass"]
    for message in table.sent:  # tribute and return: one card, among those the ask let be selected
        if message["a"]["k"] in ("tribute", "return"):
            assert len(message["a"]["c"]) == 1


def test_a_bot_answers_the_readings_offered_with_the_one_it_meant() -> None:
    """Seat 0 leads ♠9 ♠10 ♠J ♥2 ♥2 at level 2 meaning the straight 9–K: the Play option is refused with
    six readings and the bot presses the one it meant; the same cards go up with its data."""
    from deckhand.engines.common.cards import parse_cards
    from deckhand.engines.contract import Action
    from deckhand.engines.guandan.board import reading_to_data
    from deckhand.engines.guandan.combos import readings
    from test_guandan_screen import wild_board

    table = Table()
    table.board = wild_board()
    app = Handset(Hal(), Ids("hs-0"))
    app.attach(Conn(table, 0))
    table.apps = [app] + [Handset(Hal(), Ids(f"hs-{s}")) for s in (1, 2, 3)]
    table.publish()
    bot = bot_handset(app, "hs-0", table)
    cards = tuple(sorted(parse_cards(["S9", "ST", "SJ", "H2", "H2"], decks=2)))
    meant = next(
        r for r in readings(cards, table.board.level) if r.type.json_name == "straight" and r.rank == 13
    )
    bot.decision = Action(0, "play", cards, data=reading_to_data(meant))
    bot.seen = bot._current()
    assert bot.play()
    assert table.offers == 1 and app.offered is not None and bot.deciding(1)
    assert bot.play()
    last = table.sent[-1]["a"]
    assert sorted(last["c"]) == sorted(["S9", "ST", "SJ", "H2", "H2"]) and last["d"]["type"] == "straight"
    assert table.board.last_reading == meant and table.chosen == 1
    assert not bot.deciding(2)  # answered: nothing more to do until the next view asks
