"""``deckhand handset --thing …``: a handset a person plays from a terminal.

It runs the real handset firmware (host hardware layer) against the venue's broker; the terminal is
its display and its buttons. Typed commands become the button presses the firmware knows (select
cards, choose an option of the prompt the server drew), so what the server sees is exactly what a
physical handset sends. The commands name no game: the prompt's options say what can be done.
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import IO, Any

from deckhand.engines.common.grid import square_names

from .provisioning import VenueLink
from .simulated import SimulatedDevice

HELP = """Commands:
  <n>, choose <n>  send option n of the prompt (with the selected cards, if the option takes cards)
  <option>         the same, by the option's label as shown (e.g. pass)
  select <cards>   select cards: numbers from the hand list (1 2 3) or cards (3D 3S, 10H, QS, BJ; with
                   two decks a card named twice selects both copies)
  play <cards>     select these cards and send the prompt's option that takes cards
                   (when they read several ways, the prompt then lists the readings: choose one)
  move <squares>   pick these squares on the board (h2 e2; one for a stone: H8) and send the
                   prompt's option that takes squares, as the board names them
  press <buttons>  press the handset's buttons in turn: left, right, select, next, ok
  hand             print the screen again
  referee          call the referee to this table
  help             this text
  quit             leave (the seat stays yours: start again to go on)"""


class CommandError(ValueError):
    """A typed command the handset cannot turn into button presses; nothing is sent."""


def parse_card(word: str) -> str:
    """A card as a person types it (3D, d3, 10h, TH, qs, bj) → the device token (D3, HT, SQ, BJ)."""
    from deckhand.engines.common.cards import TOKENS

    text = word.strip().upper().replace("10", "T")
    for token in (text, text[::-1]):  # suit then rank (the token), or rank then suit
        if len(token) == 2 and token in TOKENS:
            return token
    raise CommandError(f"{word!r} is not a card: type rank and suit, e.g. 3D, 10H, QS (suits D C H S)")


BUTTONS = ("left", "right", "select", "next", "ok")


class TerminalHandset(SimulatedDevice):
    def __init__(self, thing: str, link: VenueLink, state: Path, out: IO[str], small: bool = False) -> None:
        """``small``: print what the ESP32's 128x64 display shows (8 rows of 16) instead of every line."""
        super().__init__(thing, "handset", link, state, small)
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
        if getattr(self.hal.display, "small", False):
            # The 128x64 display's rows in a frame, each mark's cells under its row (# inverse video,
            # * a picked square, + the last move).
            self.say("  +" + "-" * 16 + "+")
            picture = self.hal.display.picture()
            for row, under in zip(picture[::2], picture[1::2], strict=True):
                self.say("  |" + row.ljust(16) + "|")
                if under:
                    self.say("   " + under)
            self.say("  +" + "-" * 16 + "+")
        else:
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
            elif verb == "press":
                self._press(args)
            elif verb == "referee":
                self.app.on_input("call")  # the platform's call, in every game
            elif verb == "select":
                self._select(args)
            elif verb == "play":
                self._play(args)
            elif verb == "move":
                self._move(args)
            elif verb == "choose" or (verb.isdigit() and not args):
                number = args[0] if verb == "choose" and len(args) == 1 else verb
                if not number.isdigit():
                    raise CommandError("choose which option? e.g. choose 2")
                self._choose(int(number) - 1)
            else:
                self._choose(self._option_named(line.strip(), verb))
        except CommandError as exc:
            self.say(f"  ! {exc}")
        return True

    def _press(self, buttons: list[str]) -> None:
        """The handset's own buttons, as on the device (the screen shows the cursor with ``--small-screen``)."""
        wrong = [b for b in buttons if b.lower() not in BUTTONS]
        if not buttons or wrong:
            raise CommandError(f"press which button? {', '.join(BUTTONS)}")
        for button in buttons:
            self.app.on_input(button.lower())

    def _ready(self) -> None:
        if self.app.message is None:
            raise CommandError("no board yet: wait for the round to start")
        if not self.app.ready():
            raise CommandError("your last decision is still on its way; wait for the table to update")

    def _options(self) -> list[dict[str, Any]]:
        self._ready()
        options: list[dict[str, Any]] = self.app.options()
        if not options:
            raise CommandError("nothing to decide now: wait for your turn")
        return options

    def _option_named(self, text: str, verb: str) -> int:
        if self.app.message is None:
            raise CommandError("no board yet: wait for the round to start")
        labels = [o["l"].lower() for o in self.app.options()]
        if text.lower() in labels:
            return labels.index(text.lower())
        raise CommandError(f"unknown command {verb!r} (type help)")

    def _choose(self, n: int) -> None:
        options = self._options()
        if not 0 <= n < len(options):
            raise CommandError(f"there is no option {n + 1} (1–{len(options)})")
        if options[n]["a"].get("q") and len(self.app.picked) != len(options[n]["a"]["q"]):
            raise CommandError("pick the squares first: type move and the squares (move h2 e2)")
        if options[n]["a"].get("c") and not self.app.selected:
            raise CommandError("select the cards first (select …), or type play and the cards")
        self.app.on_input(f"opt:{n}")
        self.app.on_input("ok")

    def _picks(self, words: list[str]) -> list[int]:
        hand = self.app.hand()
        picks: list[int] = []
        for word in words:
            if word.isdigit():
                i = int(word) - 1
                if not 0 <= i < len(hand):
                    raise CommandError(f"there is no card {word} in your hand (1–{len(hand)})")
            else:
                token = parse_card(word)
                free = [j for j, t in enumerate(hand) if t == token and j not in picks]
                if not free:
                    raise CommandError(f"{word} is not in your hand")
                i = free[0]
            if i in picks:
                raise CommandError(f"{word} is named twice")
            places = (self.app.ask() or {}).get("s")
            if places is not None and i not in places:
                allowed = " ".join(sorted({hand[j] for j in places}))
                raise CommandError(f"{word} cannot be chosen now (only {allowed})")
            picks.append(i)
        return picks

    def _select(self, words: list[str]) -> None:
        if self.app.message is None:
            raise CommandError("no board yet: wait for the round to start")
        picks = self._picks(words)
        for i in sorted(self.app.selected):
            self.app.on_input(f"sel:{i}")  # start from an empty selection
        for i in picks:
            self.app.on_input(f"sel:{i}")

    def _play(self, words: list[str]) -> None:
        options = self._options()
        if not words:
            raise CommandError("play what? e.g. play 3D or play 1 2")
        takes = next((n for n, o in enumerate(options) if o["a"].get("c")), None)
        picks = self._picks(words)
        if takes is None:
            raise CommandError("the prompt takes no cards now: choose one of its options")
        for i in sorted(self.app.selected):
            self.app.on_input(f"sel:{i}")
        for i in picks:
            self.app.on_input(f"sel:{i}")
        self._choose(takes)

    def _move(self, words: list[str]) -> None:
        """Pick the named squares (the grid's names, as the firmware names them) and send the option
        that takes them; the server judges the move."""
        options = self._options()
        grid = (self.app.message or {}).get("grid")
        takes = next((n for n, o in enumerate(options) if o["a"].get("q")), None)
        if not grid or takes is None:
            raise CommandError("there is no move to make now: choose one of the prompt's options")
        wanted = len(options[takes]["a"]["q"])
        if len(words) != wanted:
            raise CommandError(f"name {wanted} square{'s' if wanted > 1 else ''}, e.g. move h2 e2")
        cells = {name.lower(): cell for name, cell in square_names(grid).items()}
        picks = []
        for word in words:
            if word.lower() not in cells:
                raise CommandError(f"{word} is not a square of the board")
            picks.append(cells[word.lower()])
        for cell in list(self.app.picked):
            self.app.on_input(f"sq:{cell}")  # start from no square picked
        for cell in picks:
            self.app.on_input(f"sq:{cell}")
        if len(self.app.picked) != wanted:
            raise CommandError(f"{words[0]} cannot be chosen now (no piece of yours that can move)")
        self._choose(takes)

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
