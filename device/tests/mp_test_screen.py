# The handset on the ESP32's 128x64 display under real MicroPython: layout.py's 8 rows of 16
# characters painted on a real framebuf (as the SSD1306 driver, a FrameBuffer, is), the cursor and the
# highlighted option in inverse video; then the heap over a bot game's views, each answered through
# the buttons with the display drawing every frame.
import json

import framebuf
from deckhand_fw import layout, protocol
from deckhand_fw.handset import Handset


class Oled(framebuf.FrameBuffer):
    """The SSD1306 driver's shape: a FrameBuffer of 128x64 with show()."""

    def __init__(self):
        self.buffer = bytearray(128 * 64 // 8)
        super().__init__(self.buffer, 128, 64, framebuf.MONO_VLSB)
        self.shows = 0

    def show(self):
        self.shows += 1


class Display:
    """hal/esp32.py's Display without the I2C bus."""

    small = True

    def __init__(self):
        self.oled = Oled()
        self.rows = []
        self.marks = []

    def show(self, lines, marks=None):
        layout.paint(self.oled, lines, marks)
        self.oled.show()
        if marks is None:  # what paint drew of plain lines
            frame = layout.plain(lines)
            lines, marks = frame.rows, frame.marks
        self.rows = lines
        self.marks = marks


class Part:
    def beep(self):
        pass


class Hal:
    def __init__(self):
        self.display = Display()
        self.buzzer = Part()
        self.now = 0

    def ticks_ms(self):
        return self.now


class Conn:
    def __init__(self):
        self.sent = 0

    def send(self, message):
        protocol.encode(message)
        self.sent += 1


class Ids:
    n = 0

    def next(self):
        self.n += 1
        return "hs-" + str(self.n)


def fits(display):
    """8 rows of at most 16 characters, every mark inside them and painted: an inverse cell's corner
    lit (the cell filled), its glyph drawn dark."""
    assert len(display.rows) == layout.ROWS, display.rows
    for row in display.rows:
        assert len(row) <= layout.COLS, row
    fb = display.oled
    for r, c, n, kind in display.marks:
        assert 0 <= r < layout.ROWS and c + n <= layout.COLS
        if kind == layout.INVERSE:
            assert fb.pixel(c * 8, r * 8) == 1 and fb.pixel(c * 8 + n * 8 - 1, r * 8 + 7) == 1
        elif kind == layout.DOTS:
            assert fb.pixel(c * 8 + 7, r * 8 + 7) == 1


def hand_view():
    tokens = [s + r for r in "3456789TJQKA2" for s in "DCHS"]
    hand = [t for t in tokens[:13] for _ in range(2)][:25] + ["BJ", "RJ"]
    options = [{"l": "Option " + str(n), "a": {"k": "play", "v": n, "c": True}} for n in range(5)]
    return {
        "t": "view",
        "g": "any-game",
        "b": "7",
        "r": 1,
        "v": 3,
        "s": 0,
        "st": "playing",
        "dl": 30000,
        "h": hand,
        "l": ["Seat 2 to play", "Cards: 0:27 1:20 2:11 3:27", "Trick: seat 1 10\u2660 10\u2660 10\u2665"],
        "ask": {"p": "Beat seat 1's plane or pass", "o": options},
    }


def test_a_long_hand_scrolls_under_the_cursor_in_inverse_video():
    hal = Hal()
    app = Handset(hal, Ids())
    app.attach(Conn())
    message = hand_view()
    app.on_message(message)
    display = hal.display
    assert display.rows[0].startswith("TURN 30s")
    for i in range(len(message["h"])):
        if i:
            app.on_input("right")
        fits(display)
        at = [m for m in display.marks if m[3] == layout.INVERSE and 0 < m[0] < layout.ROWS - 1]
        assert len(at) == 1, display.marks
        r, c, n, _ = at[0]
        assert display.rows[r][c : c + n] == layout.card(message["h"][i]), (i, display.rows)
    for k in range(5):
        r, c, n, _ = [m for m in display.marks if m[0] == layout.ROWS - 1][0]
        assert display.rows[r][c : c + n] == "Option " + str(k)
        app.on_input("next")
    hal.now += layout.PAGE_MS
    app.tick()  # the next page of the status lines
    fits(display)
    assert display.oled.shows >= 33


def test_plain_lines_are_wrapped_and_painted():
    display = Display()
    display.show(["CONFIG ERROR", "config.json: 'password' must be a string"])
    assert display.rows[:4] == ["CONFIG ERROR", "config.json:", "'password' must", "be a string"]
    lit = [x for x in range(128) for y in range(8) if display.oled.pixel(x, y)]
    assert lit and max(lit) < 12 * 8 and display.oled.shows == 1  # "CONFIG ERROR": 12 characters


def test_suits_and_signs_are_in_the_fonts_letters():
    assert layout.in_font("10\u2660 \u2026 A\u2665 \u2192") == "10S .. AH >"
    assert layout.card("HT") == "TH" and layout.card("BJ") == "BJ"


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
    """Feed the i-th view and answer it through the buttons, every frame painted and checked: a board
    game's cursor moved over a few squares, two picked, ok; a card game's cursor over the hand, a card
    selected, the next option, ok (no server: the move may be refused, the next view answers)."""
    if i >= len(LINES):
        return False
    app = APP[0]
    display = app.hal.display
    app.on_message(json.loads(LINES[i]))
    fits(display)
    grid = app.message.get("grid")
    presses = ["right"] * (i % 3 + 1) + ["select", "right", "select", "ok"]
    if not grid:
        presses = ["right"] * (i % 3 + 1) + ["select", "next", "ok"]
    for press in presses:
        app.on_input(press)
        fits(display)
    app.hal.now += layout.PAGE_MS
    app.tick()
    fits(display)
    app.awaiting = None
    return True


def heap_report(live_max, peak, steps):
    print(
        "small screen heap over a game of "
        + str(steps)
        + " views: live max "
        + str(live_max)
        + " B, peak between collections "
        + str(peak)
        + " B"
    )
    assert steps > 20
    assert live_max < 64 * 1024
