# The host implementation: the firmware runs under CPython (or MicroPython's unix/wasm ports)
# with these in-memory parts, for tests and the local venue's simulated devices.
import time


class Display:
    def __init__(self):
        self.lines = []
        self.frames = 0

    def show(self, lines):
        self.lines = list(lines)
        self.frames += 1


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
    def __init__(self):
        self.display = Display()
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
