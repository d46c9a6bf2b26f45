# The electronic-board app under MicroPython: moves sensed → ``moved`` with the grid's square names, a
# stone placed, a piece put back, the referee's position report, a stop; then its heap over a bot game's
# positions (each answered by a move sensed, every tenth by a position report), within the handset's
# budget, every message under 1 KiB.
import json

from deckhand_fw import board, protocol
from deckhand_fw.eboard import EBoard
from deckhand_fw.hal.host import Sensors


class Part:
    def __init__(self):
        self.lines = []
        self.beeps = 0

    def show(self, lines):
        self.lines = lines

    def beep(self):
        self.beeps += 1


class Hal:
    def __init__(self):
        self.display = Part()
        self.buzzer = self.display
        self.sensors = Sensors()


class Conn:
    def __init__(self):
        self.sent = []

    def send(self, message):
        protocol.encode(message)
        self.sent.append(message)


class Ids:
    n = 0

    def next(self):
        self.n += 1
        return "eb-" + str(self.n)


# A 3×3 corner of a board named as Xiangqi's points are ({x}{y}), and one named as Gomoku's.
GRID = {"w": 3, "r": ["rh.", "...", "RH."], "y": 2, "x": "abc", "n": "{x}{y}"}


def app(q=("from", "to"), grid=GRID):
    a = EBoard(Hal(), Ids())
    a.attach(Conn())
    a.on_message({"t": "pos", "b": "1", "r": 1, "v": 3, "n": 4, "st": "playing", "q": list(q), "grid": grid})
    return a


def test_a_piece_moved_is_reported_by_its_squares():
    a = app()
    a.hal.sensors.push("up", 6)  # R on a0
    a.hal.sensors.push("down", 3)  # to a1
    a.sense()
    assert a.sense() == {"t": "moved", "msg": "eb-1", "board": "1", "n": 4, "sq": ["a0", "a1"], "r": 1}
    assert a.conn.sent[-1]["sq"] == ["a0", "a1"]


def test_a_capture_lifts_two_pieces_whatever_the_order():
    a = app()
    for kind, cell in (("up", 0), ("up", 6), ("down", 0)):  # the captured r first, then R onto a2
        a.hal.sensors.push(kind, cell)
        a.sense()
    assert a.conn.sent[-1]["sq"] == ["a0", "a2"]


def test_a_piece_put_back_sends_nothing_and_one_report_a_position():
    a = app()
    a.hal.sensors.push("up", 7)
    a.hal.sensors.push("down", 7)
    a.sense()
    a.sense()
    assert a.conn.sent == []
    a.hal.sensors.push("up", 7)
    a.hal.sensors.push("down", 4)
    a.sense()
    a.sense()
    a.hal.sensors.push("up", 6)
    a.hal.sensors.push("down", 3)
    a.sense()
    a.sense()
    assert len(a.conn.sent) == 1  # until the server's next position, nothing more is sent


def test_a_stone_placed_is_a_point():
    a = app(q=("point",), grid={"w": 3, "r": ["+++", "+++"], "y": 2, "x": "ABC", "n": "{x}{y}"})
    a.hal.sensors.push("down", 4)
    a.sense()
    assert a.conn.sent[-1]["sq"] == ["B1"]


def test_a_stop_holds_reports_until_the_position_comes_and_the_referee_button_reports_it():
    a = app()
    a.on_message({"t": "stopped", "b": "1", "why": "electronic board: a0 a2 refused"})
    assert a.hal.display.lines[0] == "STOPPED" and a.hal.display.beeps == 1
    a.hal.sensors.push("up", 6)
    a.hal.sensors.push("down", 3)
    a.sense()
    a.sense()
    assert a.conn.sent == []
    a.hal.sensors.rows = ["rh.", "...", "RH."]
    assert a.report_position()["rows"] == ["rh.", "...", "RH."]
    a.on_message(
        {"t": "pos", "b": "1", "r": 1, "v": 9, "n": 4, "st": "playing", "q": ["from", "to"], "grid": GRID}
    )
    assert a.error is None and a.hal.display.lines == ["Board 1 move 5"]


def test_a_position_without_a_move_to_make_sends_nothing():
    a = app()
    a.on_message({"t": "pos", "b": "1", "r": 1, "v": 5, "n": 9, "st": "ended", "grid": GRID})
    a.hal.sensors.push("up", 6)
    a.hal.sensors.push("down", 3)
    a.sense()
    a.sense()
    assert a.conn.sent == [] and a.hal.display.lines == ["Board 1 ended"]


LINES = []
APP = []


def heap_setup():
    with open("/data/board_views.jsonl") as f:
        for line in f:
            LINES.append(line.strip())
    a = EBoard(Hal(), Ids())
    a.attach(Conn())
    APP.append(a)


def heap_step(i):
    """The i-th position (from the i-th view of a bot game: its grid, the move's keys), answered by a
    move sensed (a movable square lifted, another square set down), every tenth by a position report."""
    if i >= len(LINES):
        return False
    a = APP[0]
    view = json.loads(LINES[i])
    grid = view["grid"]
    q = []
    for option in view.get("ask", {}).get("o", []):
        q = option["a"].get("q") or q
    a.on_message(
        {"t": "pos", "b": view["b"], "r": 1, "v": view["v"], "n": i, "st": view["st"], "q": q, "grid": grid}
    )
    cells = board.squares(grid)
    first = (grid.get("s") or cells)[0]
    if len(q) == 2:
        a.hal.sensors.push("up", first)
    a.hal.sensors.push("down", cells[(i * 7) % len(cells)])
    a.sense()
    a.sense()
    if i % 10 == 0:
        a.hal.sensors.rows = grid["r"]
        a.report_position()
    a.conn.sent = []
    return True


def heap_report(live_max, peak, steps):
    largest = max(len(line) for line in LINES)
    print(
        "eboard heap over a game of "
        + str(steps)
        + " positions: live max "
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
