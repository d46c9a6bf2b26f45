# The host implementation: the firmware runs under CPython (or MicroPython's unix/wasm ports)
# with these in-memory parts, for tests and the local venue's simulated devices.
import time

from .. import layout


class Display:
    """The screen in memory: every line as the app drew it, or with ``small`` what the ESP32's 128x64
    display shows (``lines`` its 8 rows of 16 characters, ``marks`` the inverse video, boxes and dots
    over them: layout.py), so a test or the simulator sees the real screen."""

    def __init__(self, small=False):
        self.small = small
        self.lines = []
        self.marks = []
        self.frames = 0

    def show(self, lines, marks=None):
        if self.small and marks is None:
            frame = layout.plain(lines)
            lines, marks = frame.rows, frame.marks
        self.lines = list(lines)
        self.marks = list(marks) if marks else []
        self.frames += 1

    def picture(self):
        """The rows as text, each followed by a line marking its marks' cells: ``#`` inverse video,
        ``*`` boxed, ``+`` dotted."""
        out = []
        for i, row in enumerate(self.lines):
            under = [" "] * max(len(row), 1)
            for r, col, n, kind in self.marks:
                if r == i:
                    for c in range(col, col + n):
                        while len(under) <= c:
                            under.append(" ")
                        under[c] = {"i": "#", "b": "*"}.get(kind, "+")
            out.append(row)
            out.append("".join(under).rstrip())
        return out


class Buttons:
    def __init__(self):
        self.events = []

    def push(self, event):
        self.events.append(event)

    def poll(self):
        return self.events.pop(0) if self.events else None


class Buzzer:
    def __init__(self):
        self.beeps = 0

    def beep(self):
        self.beeps += 1


class Reader:
    """Reads cards as they pass; ``deck`` is what is physically there (None: nothing readable)."""

    def __init__(self, deck=None):
        self.deck = list(deck or [])

    def read(self):
        return self.deck.pop(0) if self.deck else None


class Motor:
    def __init__(self):
        self.dealt = []
        self.stops = 0

    def deal(self, seat):
        self.dealt.append(seat)

    def stop(self):
        self.stops += 1


class Sensors:
    """An electronic board's sensors in memory: the events the test (or the venue's simulated board)
    pushes, ``("up", cell)`` or ``("down", cell)``, and the pieces on the board as rows of glyphs."""

    def __init__(self):
        self.events = []
        self.rows = []

    def push(self, kind, cell):
        self.events.append((kind, cell))

    def poll(self):
        return self.events.pop(0) if self.events else None

    def scan(self, grid):
        return list(self.rows)


class HostHal:
    """``small``: the display shows what the ESP32's 128x64 one does (layout.py), not every line."""

    def __init__(self, small=False):
        self.display = Display(small)
        self.buttons = Buttons()
        self.buzzer = Buzzer()
        self.reader = Reader()
        self.motor = Motor()
        self.sensors = Sensors()
        self._t0 = time.time()

    def ticks_ms(self):
        return int((time.time() - self._t0) * 1000)

    def epoch_ms(self):
        return int(time.time() * 1000)

    def connect_network(self, cfg):
        return True
