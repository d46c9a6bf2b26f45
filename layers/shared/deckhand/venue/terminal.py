"""``deckhand handset --thing …``: a handset a person plays from a terminal.

It runs the real handset firmware (host hardware layer) against the venue's broker; the terminal is
its display and its buttons. Typed commands become the button presses the firmware knows, so what the
server sees is exactly what a physical handset sends.
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import IO

from .simulated import SimulatedDevice

HELP = """Commands:
  play <cards>     play these cards: numbers from the hand list (1 2 3) or cards (3D 3S, 10H, QS)
  pass             pass
  bid 1|2|3|pass   in an auction: bid, or pass
  show yes|no      in a show phase: show your hand or not
  double yes|no    in a doubling phase: double (or redouble) or not
  hand             print the screen again
  help             this text
  quit             leave (the seat stays yours: start again to go on)"""

RANKS = "3456789TJQKA2"
SUITS = "DCHS"


class CommandError(ValueError):
    """A typed command the handset cannot turn into button presses; nothing is sent."""


def parse_card(word: str) -> str:
    """A card as a person types it (3D, d3, 10h, TH, qs, bj) → the device token (D3, HT, SQ, BJ)."""
    text = word.strip().upper().replace("10", "T")
    if text in ("BJ", "RJ"):
        return text
    if len(text) == 2:
        if text[0] in RANKS and text[1] in SUITS:
            return text[1] + text[0]
        if text[0] in SUITS and text[1] in RANKS:
            return text
    raise CommandError(f"{word!r} is not a card: type rank and suit, e.g. 3D, 10H, QS (suits D C H S)")


class TerminalHandset(SimulatedDevice):
    def __init__(self, thing: str, port: int, state: Path, out: IO[str], host: str = "127.0.0.1") -> None:
        super().__init__(thing, "handset", port, state)
        self.cfg["endpoint"] = host
        self.out = out
        self._frames = -1
        self._was_connected = False

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def refresh(self) -> None:
        """Print the screen when it changed, with the hand numbered for ``play``; report the link."""
        if self.conn.connected != self._was_connected:
            self._was_connected = self.conn.connected
            self.say(
                f"[{self.thing}] " + ("connected" if self.conn.connected else "link lost, reconnecting …")
            )
        if self.hal.display.frames != self._frames:
            self._frames = self.hal.display.frames
            self.show()

    def show(self) -> None:
        self.say("")
        for line in self.hal.display.lines:
            self.say("  " + line)
        hand = self.app.hand()
        if hand:
            self.say("  " + "  ".join(f"{i}:{token}" for i, token in enumerate(hand, start=1)))

    def command(self, line: str) -> bool:
        """Carry out one typed command; False when the person wants to leave."""
        words = line.split()
        if not words:
            return True
        verb, args = words[0].lower(), words[1:]
        try:
            if verb in ("quit", "exit"):
                return False
            if verb == "help":
                self.say(HELP)
            elif verb == "hand":
                self.show()
            elif verb == "play":
                self._play(args)
            elif verb == "pass":
                self._press("pass")
            elif verb == "bid":
                if len(args) != 1 or args[0].lower() not in ("1", "2", "3", "0", "pass"):
                    raise CommandError("bid 1, bid 2, bid 3 or bid pass")
                self._press("bid:" + ("0" if args[0].lower() == "pass" else args[0]))
            elif verb in ("show", "double"):
                if len(args) != 1 or args[0].lower() not in ("yes", "no", "y", "n"):
                    raise CommandError(f"{verb} yes or {verb} no")
                self._press(f"{verb}:{int(args[0].lower().startswith('y'))}")
            else:
                raise CommandError(f"unknown command {verb!r} (type help)")
        except CommandError as exc:
            self.say(f"  ! {exc}")
        return True

    def _ready(self) -> None:
        if self.app.message is None:
            raise CommandError("no board yet: wait for the round to start")
        if not self.app.ready():
            raise CommandError("your last decision is still on its way; wait for the table to update")

    def _press(self, button: str) -> None:
        self._ready()
        self.app.on_input(button)

    def _play(self, words: list[str]) -> None:
        self._ready()
        if not words:
            raise CommandError("play what? e.g. play 3D or play 1 2")
        hand = self.app.hand()
        picks: list[int] = []
        for word in words:
            if word.isdigit():
                i = int(word) - 1
                if not 0 <= i < len(hand):
                    raise CommandError(f"there is no card {word} in your hand (1–{len(hand)})")
            else:
                token = parse_card(word)
                if token not in hand:
                    raise CommandError(f"{word} is not in your hand")
                i = hand.index(token)
            if i in picks:
                raise CommandError(f"{word} is named twice")
            picks.append(i)
        for i in sorted(self.app.selected):
            self.app.on_input(f"sel:{i}")  # start from an empty selection
        for i in picks:
            self.app.on_input(f"sel:{i}")
        self.app.on_input("play")

    def run(self, lines: IO[str], *, tick: float = 0.05) -> int:
        """The main loop: network, typed commands, screen. Ends on ``quit`` or end of input."""
        typed: queue.Queue[str | None] = queue.Queue()

        def read() -> None:
            for line in lines:
                typed.put(line)
            typed.put(None)

        threading.Thread(target=read, name="terminal-input", daemon=True).start()
        self.say(
            f"Deckhand handset {self.thing}: connecting to {self.cfg['endpoint']}:{self.cfg['port']} … "
            "(type help for the commands)"
        )
        try:
            while True:
                self.step()
                self.refresh()
                try:
                    line = typed.get(timeout=tick)
                except queue.Empty:
                    continue
                if line is None or not self.command(line):
                    break
                self.step()
                self.refresh()
        finally:
            if self.conn.client is not None:
                self.conn.drop()
        return 0
