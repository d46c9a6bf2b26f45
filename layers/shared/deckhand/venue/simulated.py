"""Simulated devices: the real firmware (device/lib) with the host hardware layer, over MQTT.

Handsets are played by the deterministic bot through their buttons, exactly as a person would press
them; a dealing table deals from a simulated physical deck that holds the board's cards.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from .lambdas import repository_root


def firmware_on_path(root: Path | None = None) -> None:
    root = root or repository_root()
    for folder in (root / "device" / "lib", root / "device" / "host"):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))


class SimulatedDevice:
    def __init__(self, thing: str, role: str, port: int, state: Path) -> None:
        firmware_on_path()
        from deckhand_fw.app import build
        from deckhand_fw.hal.host import HostHal
        from umqtt.simple import MQTTClient

        self.thing = thing
        self.hal = HostHal()
        self.cfg = {"thing": thing, "role": role, "endpoint": "127.0.0.1", "port": port, "tls": False}
        self.state = state
        state.mkdir(parents=True, exist_ok=True)

        def make_client(cfg: dict[str, Any]) -> Any:
            return MQTTClient(cfg["thing"], cfg["endpoint"], cfg["port"], keepalive=30)

        self.app, self.conn = build(self.cfg, self.hal, make_client, str(state))

    def step(self) -> None:
        self.conn.step()


class BotHandset(SimulatedDevice):
    """A handset whose buttons are pressed by the deterministic bot."""

    def __init__(self, thing: str, port: int, state: Path, style: str = "steady") -> None:
        super().__init__(thing, "handset", port, state)
        from ..bigtwo.bot import BigTwoBot

        self.bot = BigTwoBot(style)
        self.acted: tuple[str, int] | None = None

    def play(self) -> bool:
        """Press the buttons for the bot's decision on the current view; True if it acted."""
        from ..bigtwo.board import SeatView
        from ..cards import format_cards

        app = self.app
        message = app.message
        if message is None or message["st"] != "playing" or not app.ready():
            return False
        key = (message["b"], message["v"])
        if self.acted == key:
            return False
        action = self.bot.decide(SeatView.from_dict(message["view"]))
        if action is None:
            return False
        self.acted = key
        if action.kind == "play":
            hand = app.hand()
            for token in format_cards(action.cards):
                app.on_input(f"sel:{hand.index(token)}")
            app.on_input("play")
        elif action.kind == "pass":
            app.on_input("pass")
        else:
            app.on_input(f"{action.kind}:{action.value}")
        return True


class DealingTable(SimulatedDevice):
    """Deals from a simulated deck: the cards of each board as the deal order arrives (``misread``
    swaps two cards, as a jammed shoe would)."""

    def __init__(self, thing: str, port: int, state: Path, misread_board: str | None = None) -> None:
        super().__init__(thing, "dealer", port, state)
        self.misread_board = misread_board
        original = self.app.on_message

        def on_message(message: dict[str, Any]) -> None:
            if message.get("t") == "deal":
                deck = list(message["order"])
                if message["b"] == self.misread_board:
                    deck[7], deck[8] = deck[8], deck[7]
                self.hal.reader.deck = deck
            original(message)

        self.conn.on_message = on_message
