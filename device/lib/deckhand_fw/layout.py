# The handset's screen on the ESP32's 128x64 display (SSD1306, the 8x8 framebuf font): exactly 8 rows
# of at most 16 ASCII characters, and marks drawn over them (inverse video, a box, corner dots). What
# does not fit scrolls rather than being cut: a board's window follows the cursor, a hand's rows the
# hand's cursor, the options the highlighted one, and the status lines page by themselves every few
# seconds. No hardware here: the display draws a Frame (paint), the tests read it. Knows no game.
from . import board
from .views import ask_of, countdown, selectable

COLS = 16
ROWS = 8
PAGE_MS = 3000  # the status lines that do not fit are shown in turn, a page every 3 s
CARD = 3  # a hand's card: a mark then two characters ("*3D": selected)
INVERSE = "i"  # the cursor, the highlighted option, the turn, a warning
BOX = "b"  # a picked square
DOTS = "d"  # a square of the last move: dots at its corners
# The font has ASCII only: the suits and the few signs the server's lines use, in letters.
SIGNS = {
    "\u2660": "S",
    "\u2665": "H",
    "\u2663": "C",
    "\u2666": "D",
    "\u2026": "..",
    "\u2192": ">",
    "\u2014": "-",
}


class Frame:
    """``rows``: exactly ROWS strings of at most COLS characters; ``marks``: (row, col, n, kind) over
    them; ``paged``: a part shows its lines in turn (the handset redraws on the next page)."""

    def __init__(self):
        self.rows = []
        self.marks = []
        self.paged = False

    def add(self, text, kind=None):
        """A row (cut to COLS); ``kind`` marks the whole of it. Returns its index."""
        text = text[:COLS]
        if kind is not None and text:
            self.marks.append((len(self.rows), 0, len(text), kind))
        self.rows.append(text)
        return len(self.rows) - 1

    def mark(self, row, col, n, kind):
        self.marks.append((row, col, n, kind))

    def done(self):
        while len(self.rows) < ROWS:
            self.rows.append("")
        return self


def in_font(text):
    """The text in the font's characters: suits as letters (10♥ → 10H), any other sign as ``?``."""
    out = []
    for ch in text:
        if ch < "\x7f" and ch >= " ":
            out.append(ch)
        else:
            out.append(SIGNS.get(ch, "?"))
    return "".join(out)


def wrap(text, width):
    """The text in rows of at most ``width`` characters, broken between words (a longer word split)."""
    rows = []
    if width <= 0:
        return rows
    line = ""
    for word in in_font(text).split():
        while len(word) > width:
            if line:
                rows.append(line)
                line = ""
            rows.append(word[:width])
            word = word[width:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            rows.append(line)
            line = word
    if line or not rows:
        rows.append(line)
    return rows


def page(texts, width, n, elapsed_ms, frame):
    """``n`` rows of the texts wrapped to ``width``, a page of them at a time (turned every PAGE_MS)."""
    rows = []
    for text in texts:
        rows.extend(wrap(text, width))
    if n <= 0:
        return []
    pages = (len(rows) + n - 1) // n
    if pages > 1:
        frame.paged = True
        at = (elapsed_ms // PAGE_MS) % pages * n
        rows = rows[at : at + n]
    return rows[:n]


def plain(lines):
    """Plain lines (a start-up message, an error) wrapped into the rows: what fits."""
    frame = Frame()
    for line in lines:
        for row in wrap(line, COLS):
            if len(frame.rows) < ROWS:
                frame.add(row)
    return frame.done()


def status(message, ask, elapsed_ms):
    """The board's state in a word, the time left to decide with it: ``TURN 41s`` (``TURN 25m`` from
    1000 s), ``WAIT``, ``OVER``, ``STOPPED``; and whether it is shown in inverse video (something to do
    or to know)."""
    st = message.get("st")
    if st == "stopped":
        return "STOPPED", True
    if st == "ended":
        return "OVER", False
    if ask is None:
        return "WAIT", False
    left = countdown(message.get("dl", 0), elapsed_ms)
    if not left:
        return "TURN", True
    if left < 1000:
        return "TURN " + str(left) + "s", True
    return "TURN " + (str(left // 60) + "m" if left < 60000 else ">999m"), True


def options(frame, ask, choice):
    """The options on one row: the highlighted one in inverse video, its neighbours as they fit, ``<``
    and ``>`` where more lie beyond."""
    labels = [in_font(o["l"]) for o in ask["o"]]
    choice = choice if 0 <= choice < len(labels) else 0
    first = last = choice
    used = len(labels[choice])
    grew = True
    while grew:
        grew = False
        for j in (last + 1, first - 1):
            if 0 <= j < len(labels) and used + 1 + len(labels[j]) <= COLS - 2:
                used += 1 + len(labels[j])
                first, last = min(first, j), max(last, j)
                grew = True
    text = "<" if first > 0 else ""
    at = 0
    for j in range(first, last + 1):
        if j > first:
            text += " "
        if j == choice:
            at = len(text)
        text += labels[j]
    if last < len(labels) - 1:
        text += ">"
    row = frame.add(text)
    frame.mark(row, at, min(len(labels[choice]), COLS - at), INVERSE)


def warnings_of(rejection, notes, elapsed_ms, frame):
    """At most two rows of what went wrong: the stop and the referee called (``notes``), then a
    refusal, in turn when they do not fit."""
    texts = list(notes)
    if rejection:
        texts.append("Refused: " + rejection)
    return page(texts, COLS, 2, elapsed_ms, frame) if texts else []


def window(focus, size, length):
    """The first of ``size`` places shown of ``length``, ``focus`` and its neighbours in the middle."""
    if length <= size:
        return 0
    return max(0, min(length - size, focus - size // 2))


def focus_of(grid, picked, cursor):
    """The cell the board's window centres on: the cursor, else the last pick, else the last move,
    else the squares that may be picked, else the middle of the board."""
    w = grid["w"]
    if cursor is not None:
        return cursor // w, cursor % w
    if picked:
        return picked[-1] // w, picked[-1] % w
    cells = grid.get("m") or grid.get("s") or ()
    if cells:
        return sum(c // w for c in cells) // len(cells), sum(c % w for c in cells) // len(cells)
    return len(grid["r"]) // 2, w // 2


def square_note(grid, picked, cursor):
    """The squares picked and the cursor's by name: ``h2-e2``, ``h2>e2``, ``>h2``."""
    text = "-".join(board.name(grid, c) for c in picked)
    if cursor is not None and cursor not in picked:
        text += ">" + board.name(grid, cursor)
    return in_font(text)


def draw_board(frame, grid, picked, cursor, n):
    """The labels row then ``n`` rows of the board's window: the rank labels at the left, one
    character a square, the cursor in inverse video, the picked squares boxed, the last move dotted."""
    rows = grid["r"]
    w = grid["w"]
    top = grid["y"]
    pad = max(len(str(top)), len(str(top - len(rows) + 1)))
    width = 0
    for r in rows:
        width = max(width, len(r))
    shown = min(width, COLS - pad)
    fr, fc = focus_of(grid, picked, cursor)
    r0 = window(fr, n, len(rows))
    c0 = window(fc, shown, width)
    labels = " " * pad + grid.get("x", "")[c0 : c0 + shown]
    note = square_note(grid, picked, cursor)
    if note and len(labels) + 1 + len(note) <= COLS:
        labels += " " * (COLS - len(labels) - len(note)) + note
    frame.add(labels)
    marked = grid.get("m", ())
    for i in range(r0, min(len(rows), r0 + n)):
        label = str(top - i)
        row = frame.add(" " * (pad - len(label)) + label + rows[i][c0 : c0 + shown])
        for j in range(c0, min(len(rows[i]), c0 + shown)):
            cell = i * w + j
            col = pad + j - c0
            if cell == cursor:
                frame.mark(row, col, 1, INVERSE)
            if cell in picked:
                frame.mark(row, col, 1, BOX)
            elif cell in marked:
                frame.mark(row, col, 1, DOTS)


def card(token):
    """A card in two characters: rank then suit (``TH`` the ten of hearts, ``BJ`` a joker)."""
    if len(token) == 2 and token[0] in "SHCD":
        return token[1] + token[0]
    return in_font(token)[:2]


def draw_hand(frame, hand, selected, ask, hand_cursor, n):
    """``n`` rows of the hand, 5 cards a row, the window on the cursor's row: the card under the
    cursor in inverse video, ``*`` before a selected card, ``-`` before one the ask does not let be
    selected, ``^`` / ``v`` (``|``: both) at the right where more rows lie above / below."""
    per = COLS // CARD
    lines = (len(hand) + per - 1) // per
    at = max(0, min(len(hand) - 1, hand_cursor))
    r0 = window(at // per, n, lines)
    for line in range(r0, min(lines, r0 + n)):
        text = ""
        for i in range(line * per, min(len(hand), line * per + per)):
            mark = "*" if i in selected else (" " if selectable(ask, i) else "-")
            text += mark + card(hand[i])
        up = line == r0 and r0 > 0
        down = line == r0 + n - 1 and line < lines - 1
        if up or down:
            text += " " * (COLS - 1 - len(text)) + ("|" if up and down else "^" if up else "v")
        row = frame.add(text)
        if line == at // per:
            frame.mark(row, (at % per) * CARD + 1, CARD - 1, INVERSE)


def handset(
    message,
    selected,
    elapsed_ms,
    rejection=None,
    choice=0,
    offered=None,
    picked=(),
    cursor=None,
    hand_cursor=0,
    notes=(),
):
    """The handset's screen (views.screen's content) in ROWS x COLS: the state and seconds left on the
    first row; a board game's window on its grid, or the status lines, the hand and the prompt; the
    warnings (a refusal, a stop, the referee called: ``notes``) and the options last."""
    frame = Frame()
    ask = ask_of(message)
    if ask is not None and offered is not None:
        ask = offered
    state, loud = status(message, ask, elapsed_ms)
    hand = message.get("h", ())
    info = list(message.get("l", ()))
    legal = message.get("legal")
    if legal is not None and selected:
        chosen = sorted(hand[i] for i in selected if i < len(hand))
        info.insert(0, "Selection: " + ("legal" if any(sorted(p) == chosen for p in legal) else "not legal"))
    warned = warnings_of(rejection, notes, elapsed_ms, frame)
    bottom = len(warned) + (1 if ask is not None else 0)
    grid = message.get("grid")
    if grid:
        # The status lines, then the prompt, in turn beside the state: the board keeps the other rows.
        texts = info + [ask["p"]] if ask is not None else info
        frame.add(state + " " + "".join(page(texts, COLS - len(state) - 1, 1, elapsed_ms, frame)))
        if loud:
            frame.mark(0, 0, len(state), INVERSE)
        draw_board(frame, grid, picked, cursor, ROWS - 2 - bottom)
    else:
        tag = "b" + str(message.get("b", "")) + " s" + str(message.get("s", ""))
        frame.add(
            state + " " * (COLS - len(state) - len(tag)) + tag if len(state) + len(tag) < COLS else state
        )
        if loud:
            frame.mark(0, 0, len(state), INVERSE)
        prompt = page([ask["p"]], COLS, 2, elapsed_ms, frame) if ask is not None else []
        room = ROWS - 1 - bottom - len(prompt)
        per = COLS // CARD
        hand_rows = min((len(hand) + per - 1) // per, room - 1 if info and room > 1 else room)
        for row in page(info, COLS, room - hand_rows, elapsed_ms, frame):
            frame.add(row)
        if hand_rows > 0:
            draw_hand(frame, hand, selected, ask, hand_cursor, hand_rows)
        for row in prompt:
            frame.add(row)
    for row in warned:
        frame.add(row, INVERSE)
    if ask is not None:
        while len(frame.rows) < ROWS - 1:
            frame.add("")
        options(frame, ask, choice)
    return frame.done()


def paint(fb, rows, marks=None):
    """Draw a frame on a framebuf (the SSD1306 driver is one): the rows in the 8x8 font, then the
    marks — inverse video (a filled cell, its text in colour 0), a box, dots at a cell's corners.
    Without marks the rows are plain lines, wrapped first."""
    if marks is None:
        frame = plain(rows)
        rows, marks = frame.rows, frame.marks
    fb.fill(0)
    for i in range(min(ROWS, len(rows))):
        fb.text(rows[i][:COLS], 0, i * 8, 1)
    for row, col, n, kind in marks:
        x, y = col * 8, row * 8
        if kind == INVERSE:
            fb.fill_rect(x, y, n * 8, 8, 1)
            fb.text(rows[row][col : col + n], x, y, 0)
        elif kind == BOX:
            fb.rect(x, y, n * 8, 8, 1)
        else:
            for dx, dy in ((0, 0), (7, 0), (0, 7), (7, 7)):
                fb.pixel(x + dx, y + dy, 1)
