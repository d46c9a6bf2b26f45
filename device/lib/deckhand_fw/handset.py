# The handset app: shows the seat's hand and the table, takes the player's choices, sends them.
from . import protocol
from .cards import sort_hand
from .views import screen


class Handset:
    def __init__(self, hal, ids):
        self.hal = hal
        self.ids = ids
        self.conn = None
        self.message = None
        self.selected = set()
        self.rejection = None
        self.stopped = None
        self.awaiting = None  # the id of a sent action not yet answered: no second decision meanwhile
        self.acked_board = None
        self.acked_version = 0  # views older than the board version our last action made are stale
        self.bid_choice = 0  # Dou Dizhu: the bid the play button sends

    def attach(self, conn):
        self.conn = conn

    def ready(self):
        """True when the screen shows the latest state and no decision is on its way."""
        if self.message is None or self.awaiting is not None:
            return False
        here = (self.message["r"], self.message["b"])
        return here != self.acked_board or self.message["v"] >= self.acked_version

    def hand(self):
        return sort_hand(self.message["view"]["hand"]) if self.message else []

    def on_message(self, message):
        kind = message["t"]
        if kind in ("ack", "reject") and message.get("msg") == self.awaiting:
            self.awaiting = None
            if kind == "ack" and isinstance(message.get("v"), int):
                self.acked_version = message["v"]
        if kind == "view":
            current = self.message
            same = current is not None and (message["r"], message["b"]) == (current["r"], current["b"])
            if current is None or not same or message["v"] >= current["v"]:
                self.message = message
                self.selected = set()
                self.bid_choice = 0
                self.rejection = None
                if message["st"] != "stopped":
                    self.stopped = None
        elif kind == "reject":
            self.rejection = message.get("code", "") + ": " + message.get("why", "")
            self.hal.buzzer.beep()
        elif kind == "stopped":
            self.stopped = message.get("why", "")
            self.hal.buzzer.beep()
        else:
            return
        self.render()

    def _next_bid(self):
        """The next bid above the highest so far (cycling back to the lowest allowed)."""
        high = self.message["view"].get("bid", 0) if self.message else 0
        shown = self.bid_choice or high + 1
        return shown + 1 if shown < 3 else min(high + 1, 3)

    def render(self):
        if self.message is None:
            self.hal.display.show(["Waiting for the board…"])
            return
        lines = screen(self.message, self.selected, self.hal.ticks_ms(), self.rejection, self.bid_choice)
        if self.stopped:
            lines.append("STOPPED: " + self.stopped)
        self.hal.display.show(lines)

    def on_input(self, event):
        """Buttons or touch: 'sel:<index in sorted hand>', 'play', 'pass', 'show:0|1', 'double:0|1',
        'bid:0|1|2|3' (Dou Dizhu; 0 passes)."""
        if self.message is None or self.conn is None:
            return
        board = self.message["b"]
        phase = self.message["view"].get("phase")
        if phase == "bid" and event.startswith("sel:"):
            self.bid_choice = self._next_bid()  # Dou Dizhu: select steps through the bids allowed
            self.render()
            return
        if event in ("play", "pass"):
            # Decision phases on physical buttons: play means yes (or the bid shown), pass means no.
            yes = "1" if event == "play" else "0"
            if phase == "show":
                event = "show:" + yes
            elif phase in ("double", "redouble"):
                event = "double:" + yes
            elif phase == "bid":
                high = self.message["view"].get("bid", 0)
                event = "bid:" + (str(self.bid_choice or min(high + 1, 3)) if yes == "1" else "0")
        if not event.startswith("sel:") and not self.ready():
            return  # the last decision is still on its way, or the view is older than it
        if event.startswith("sel:"):
            i = int(event[4:])
            if 0 <= i < len(self.hand()):
                if i in self.selected:
                    self.selected.discard(i)
                else:
                    self.selected.add(i)
            self.render()
            return
        if event == "play":
            hand = self.hand()
            cards = [hand[i] for i in sorted(self.selected)]
            if not cards:
                return
            self._send(protocol.action("play", self.ids.next(), board, cards))
        elif event == "pass":
            self._send(protocol.action("pass", self.ids.next(), board))
        elif event.startswith("show:") or event.startswith("double:"):
            kind, value = event.split(":")
            self._send(protocol.action(kind, self.ids.next(), board, None, value == "1"))
        elif event.startswith("bid:") and event[4:] in ("0", "1", "2", "3"):
            self._send(protocol.action("bid", self.ids.next(), board, None, int(event[4:])))

    def _send(self, message):
        if self.message is not None:
            message["r"] = self.message["r"]  # the round of the view the decision was taken on
        self.rejection = None
        self.awaiting = message["msg"]
        self.acked_board = (self.message["r"], message["board"]) if self.message else None
        # Versions of this board only: a version left from an earlier board would hold back every
        # view of this one if the answer carries none (a refusal, an old server's duplicate ack).
        self.acked_version = self.message["v"] if self.message else 0
        if self.conn is not None:
            self.conn.send(message)
