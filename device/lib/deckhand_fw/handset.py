# The handset app: one generic screen for every game and a chooser. It shows the hand (or a board
# game's grid), the status lines and the prompt the server drew; the buttons select cards (or pick
# squares) and move between the prompt's options; the chosen option goes up as one `act` message. The
# handset knows no game.
from . import board, layout, protocol
from .views import ask_of, countdown, screen, selectable

CALL = "call"  # the platform's action: call the referee to the table (docs/protocol.md)
TICKS_MASK = (1 << 30) - 1  # MicroPython's ticks_ms wraps at 2**30: durations are taken modulo it


class Handset:
    def __init__(self, hal, ids):
        self.hal = hal
        self.ids = ids
        self.conn = None
        self.message = None
        self.selected = set()
        self.choice = 0  # the highlighted option of the view's ask
        self.rejection = None
        self.offered = None  # the ask a refusal offered (e.g. which reading): shown until the view moves on
        self.stopped = None
        self.awaiting = None  # the id of a sent action not yet answered: no second decision meanwhile
        self.acked_board = None
        self.acked_version = 0  # views older than the board version our last action made are stale
        self.called = None  # the board on which this seat called the referee (shown until the next)
        self.shown_at = 0  # when the view came (the hal's ticks): its ``dl`` counts down from there
        self.seconds = 0  # the seconds left the screen shows (0: none)
        self.unknown = None  # why the server refused this thing (no table has it), until it answers otherwise
        self.picked = []  # the grid's cells picked, in order (a move's from and to)
        self.cursor = None  # the grid's cell the buttons point at
        self.hand_cursor = 0  # the card of the hand the buttons point at
        self.page = None  # a small display's page of the lines shown in turn (None: nothing paged)

    def attach(self, conn):
        self.conn = conn

    def ready(self):
        """True when the screen shows the latest state and no decision is on its way."""
        if self.message is None or self.awaiting is not None:
            return False
        here = (self.message["r"], self.message["b"])
        return here != self.acked_board or self.message["v"] >= self.acked_version

    def hand(self):
        """The hand in the order the server sent it (the game's display order)."""
        return list(self.message.get("h", ())) if self.message else []

    def ask(self):
        """The decision asked for now: a refusal's offered ask over the view's, or None."""
        ask = ask_of(self.message)
        if ask is not None and self.offered is not None:
            return self.offered
        return ask

    def options(self):
        """The options of the decision asked for now ([] when there is nothing to decide)."""
        ask = self.ask()
        return ask["o"] if ask is not None else []

    def on_message(self, message):
        kind = message["t"]
        if kind in ("ack", "reject") and message.get("msg") == self.awaiting:
            self.awaiting = None
            if kind == "ack" and isinstance(message.get("v"), int):
                self.acked_version = message["v"]
            ask = message.get("ask") if kind == "reject" else None
            if isinstance(ask, dict) and ask.get("o"):
                # The refusal offers the choice that resolves it, for the cards still selected.
                self.offered = ask
                self.choice = 0
        if kind == "reject" and message.get("code") == protocol.UNKNOWN_DEVICE:
            # No table has this thing: nothing it sends is taken, and no board will come until the
            # referee registers it. Said on the screen, not hidden behind "waiting for the board".
            if self.unknown is None:
                self.hal.buzzer.beep()
            self.unknown = message.get("why", "") or "not registered at any table"
            self.render()
            return
        if self.unknown is not None and kind in ("ack", "view"):
            self.unknown = None  # registered since (a hello acknowledged, or a view)
            if kind == "ack":
                self.render()
        if kind == "view":
            current = self.message
            same = current is not None and (message["r"], message["b"]) == (current["r"], current["b"])
            if current is None or not same or message["v"] >= current["v"]:
                kept = self._selection_kept(message) if same else None
                self.message = message
                self.shown_at = self.hal.ticks_ms()
                self.selected = kept if kept is not None else set()
                self.choice = self.choice if kept is not None else 0
                self.rejection = None
                self.offered = None
                if kept is None:
                    self.picked = []
                    self.cursor = None
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

    def _selection_kept(self, message):
        """The selection on ``message``'s hand, when it asks the same as the view shown (a card arriving
        while the player selects cards to declare): the same cards, found by token where they now
        lie; None when the decision changed or a selected card is gone."""
        before, after = ask_of(self.message), ask_of(message)
        if before is None or after is None or before.get("p") != after.get("p") or not self.selected:
            return None
        if len(before["o"]) != len(after["o"]):
            return None
        old = self.hand()
        new = list(message.get("h", ()))
        kept = set()
        for i in sorted(self.selected):
            token = old[i] if i < len(old) else None
            found = None
            for j in range(len(new)):
                if new[j] == token and j not in kept:
                    found = j
                    break
            if found is None or not selectable(after, found):
                return None
            kept.add(found)
        return kept

    def elapsed(self):
        """Milliseconds since the view came."""
        return (self.hal.ticks_ms() - self.shown_at) & TICKS_MASK

    def tick(self):
        """Called from the main loop: redraw when the seconds left to decide change."""
        message = self.message
        if message is None:
            return
        elapsed = self.elapsed()
        if self.page is not None and elapsed // layout.PAGE_MS != self.page:
            self.render()  # the next page of the lines that do not fit a small display
            return
        if not message.get("dl") or ask_of(message) is None:
            return
        if countdown(message["dl"], elapsed) != self.seconds:
            self.render()

    def render(self):
        self.page = None
        if self.unknown is not None:
            self.hal.display.show(["UNKNOWN DEVICE", self.unknown, "Ask the referee to register it"])
            return
        if self.message is None:
            self.hal.display.show(["Waiting for the board…"])
            return
        elapsed = self.elapsed()
        self.seconds = countdown(self.message.get("dl", 0), elapsed)
        notes = []
        if self.stopped:
            notes.append("STOPPED: " + self.stopped)
        if self.called == self.message["b"]:
            notes.append("Referee called")
        shown = (
            self.message,
            self.selected,
            elapsed,
            self.rejection,
            self.choice,
            self.offered,
            self.picked,
            self.cursor,
        )
        if getattr(self.hal.display, "small", False):
            # The 128x64 display: its own layout of the same screen, with the hand's cursor.
            frame = layout.handset(*shown, self.hand_cursor, notes)
            self.page = elapsed // layout.PAGE_MS if frame.paged else None
            self.hal.display.show(frame.rows, frame.marks)
            return
        lines = screen(*shown)
        self.hal.display.show(lines + notes)

    def on_input(self, event):
        """Buttons or touch: 'sel:<i>' selects or unselects card i of the hand (only the cards the ask
        lets be selected; a new selection drops a choice a refusal offered for the old one); 'next'
        highlights the next option, 'opt:<n>' option n (from 0); 'ok' sends the highlighted option;
        'call' calls the referee to the table. A board game's grid: 'sq:<i>' picks (or unpicks) cell i;
        'left'/'right' move the cursor over the squares that may be picked, 'select' picks the cursor's
        (without a grid they move over the hand and select its card)."""
        if self.message is None or self.conn is None:
            return
        grid = self.message.get("grid")
        if event in ("left", "right", "select"):
            if grid:
                self._grid_button(grid, event)
                return
            if event == "select":
                event = "sel:" + str(self.hand_cursor)
            else:
                step = 1 if event == "right" else -1
                self.hand_cursor = max(0, min(len(self.hand()) - 1, self.hand_cursor + step))
                self.render()  # a small display shows the hand's cursor
                return
        if event.startswith("sq:"):
            try:
                cell = int(event[3:])
            except ValueError:
                return
            if grid:
                self._pick(grid, cell)
            return
        if event == "call":
            # Any game, any moment of a board: the referee is called to this table (never blocks play).
            self.conn.send(
                protocol.act(self.ids.next(), self.message["b"], {"k": CALL}, None, self.message["r"])
            )
            self.called = self.message["b"]
            self.render()
            return
        if event.startswith("sel:") or event.startswith("opt:"):
            try:
                i = int(event[4:])
            except ValueError:
                return
            if event[0] == "s" and 0 <= i < len(self.hand()):
                if i in self.selected:
                    self.selected.discard(i)
                elif selectable(self.ask(), i):
                    self.selected.add(i)
                else:
                    self.rejection = "that card cannot be chosen now"
                    self.hal.buzzer.beep()
                    self.render()
                    return
                if self.offered is not None:
                    self.offered = None
                    self.choice = 0
            elif event[0] == "o" and 0 <= i < len(self.options()):
                self.choice = i
            self.render()
            return
        options = self.options()
        if not options:
            return
        if event == "next":
            self.choice = (self.choice + 1) % len(options)
            self.render()
            return
        if event != "ok" or not self.ready():
            return  # the last decision is still on its way, or the view is older than it
        action = options[self.choice if self.choice < len(options) else 0]["a"]
        if action.get("q"):
            grid = self.message.get("grid")
            if not grid or len(self.picked) != len(action["q"]):
                self.rejection = "choose the squares first"
                self.render()
                return
            self.act(action, None, [board.name(grid, c) for c in self.picked])
            return
        cards = None
        if action.get("c"):
            hand = self.hand()
            cards = [hand[i] for i in sorted(self.selected)]
            if not cards:
                self.rejection = "select the cards first"
                self.render()
                return
        self.act(action, cards)

    def act(self, action, cards=None, squares=None):
        """Send one action ({"k", "v"?, "c"?, "d"?, "q"?}) for the board shown; the chooser sends the
        highlighted option through it (``squares``: the picked squares' names, for an option with ``q``)."""
        if self.message is not None:
            self._send(protocol.act(self.ids.next(), self.message["b"], action, cards, None, squares))

    def _squares_wanted(self):
        """How many squares the ask's move takes (0: none is asked for)."""
        for option in self.options():
            if option["a"].get("q"):
                return len(option["a"]["q"])
        return 0

    def _pick(self, grid, cell):
        """Pick a square (a picked one again: unpick it); the last pick is replaced once the move has
        all its squares. Only while a move is asked for, the first among the squares the grid offers."""
        if cell in self.picked:
            self.picked.remove(cell)
        elif not self._squares_wanted() or not board.may_pick(grid, self.picked, cell):
            self.rejection = "that square cannot be chosen now"
            self.hal.buzzer.beep()
        else:
            if len(self.picked) >= self._squares_wanted():
                self.picked.pop()
            self.picked.append(cell)
            self.rejection = None
            self.offered = None
        self.cursor = cell if board.is_square(grid, cell) else self.cursor
        self.render()

    def _grid_button(self, grid, event):
        """The buttons on a grid: left/right move the cursor over the squares that may be picked
        (wrapping), select picks the cursor's."""
        if event == "select":
            if self.cursor is not None:
                self._pick(grid, self.cursor)
            return
        cells = board.first_choices(grid, self.picked)
        if not cells:
            return
        if self.cursor not in cells:
            self.cursor = cells[0] if event == "right" else cells[-1]
        else:
            at = cells.index(self.cursor) + (1 if event == "right" else -1)
            self.cursor = cells[at % len(cells)]
        self.render()

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
