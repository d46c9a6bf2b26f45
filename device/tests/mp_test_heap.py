# Heap used by the handset app over a whole board under MicroPython (gc.mem_alloc), and message sizes.
# The runner drives heap_step() from outside the interpreter and collects between steps, as a device's
# main loop does between messages (the WebAssembly port only collects between top-level calls).
import json

from deckhand_fw import board, protocol
from deckhand_fw.handset import Handset


class Part:
    def show(self, lines):
        self.lines = lines

    def beep(self):
        pass


class Hal:
    def __init__(self):
        self.display = self.buzzer = Part()

    def ticks_ms(self):
        return 0


class Conn:
    def send(self, message):
        protocol.encode(message)


class Ids:
    n = 0

    def next(self):
        self.n += 1
        return "hs-" + str(self.n)


LINES = []
APP = []


def heap_setup():
    with open("/data/board_views.jsonl") as f:
        for line in f:
            LINES.append(line.strip())
    app = Handset(Hal(), Ids())
    app.attach(Conn())
    APP.append(app)


def heap_step(i):
    """Feed the i-th view; answer its prompt with the buttons as a player would (a board game's: the
    first square that may be picked and the next square, then ok; the move may be illegal: no server)."""
    if i >= len(LINES):
        return False
    app = APP[0]
    app.on_message(json.loads(LINES[i]))
    grid = app.message.get("grid")
    if grid and app.options() and app.options()[0]["a"].get("q"):
        app.on_input("right")
        app.on_input("select")
        app.on_input("sq:" + str(board.squares(grid)[i % 7]))
        app.on_input("ok")
        app.awaiting = None
        return True
    app.on_input("sel:0")  # a card selected, the next option highlighted, sent: the whole chooser
    app.on_input("next")
    app.on_input("ok")
    app.awaiting = None  # no server here to answer: the next view is the answer
    return True


def heap_report(live_max, peak, steps):
    largest = max(len(line) for line in LINES)
    print(
        "handset heap over a board of "
        + str(steps)
        + " views: live max "
        + str(live_max)
        + " B, peak between collections "
        + str(peak)
        + " B; largest view message "
        + str(largest)
        + " B"
    )
    assert steps > 20
    assert live_max < 64 * 1024
    assert largest < 1024
