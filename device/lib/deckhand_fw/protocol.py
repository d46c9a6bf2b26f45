# The device side of docs/protocol.md: message ids, building and parsing messages.
import json

MAX_BYTES = 1024
# The message kinds and every field each may carry (besides "t"); the server's service/outgoing.py
# declares the same, and a contract test holds the two together.
UP_FIELDS = {
    "hello": ("msg",),
    "act": ("msg", "board", "r", "a"),
    "dealt": ("msg", "board", "r", "cards", "upto"),
    "moved": ("msg", "board", "r", "n", "sq"),
    "position": ("msg", "board", "r", "rows"),
}
DOWN_FIELDS = {
    "ack": ("msg", "v", "dup"),
    "reject": ("msg", "code", "why", "ask"),
    "view": ("g", "b", "r", "v", "s", "st", "dl", "h", "l", "grid", "ask"),
    "deal": ("b", "r", "seats", "kitty", "n", "each", "order"),
    "stopped": ("b", "why"),
    "pos": ("b", "r", "v", "n", "st", "q", "grid"),
}
# kind, value, cards (tokens up; true in an option), data; q (an option's): the keys of the data the
# picked squares go under, in order
ACTION_FIELDS = ("k", "v", "c", "d", "q")
GRID_FIELDS = ("w", "r", "y", "x", "n", "m", "s")  # a board's grid: docs/protocol.md, "Boards"
ASK_FIELDS = ("p", "o", "s")  # an ask: the prompt, its options, the places of the selectable cards
OPTION_FIELDS = ("l", "a")  # an option: its label and the action it sends
UNKNOWN_DEVICE = "unknown_device"  # the refusal of a thing no table has: the screen says so


def up_topic(thing):
    return "dh/" + thing + "/up"


def down_topic(thing):
    return "dh/" + thing + "/down"


ID_BLOCK = 32  # ids reserved in flash at a time: a dealing table takes one a card


class MessageIds:
    """Unique message ids across reboots: the file keeps the end of a block of ids reserved before any
    of them is used; after a reboot the ids go on past it (the rest of the block is never used)."""

    def __init__(self, thing, store):
        self.thing = thing
        self.store = store
        self.counter = store.load_int("msgid", 0)
        self.reserved = self.counter

    def next(self):
        self.counter += 1
        if self.counter > self.reserved:
            self.reserved = self.counter + ID_BLOCK - 1
            self.store.save_int("msgid", self.reserved)
        return self.thing + "-" + str(self.counter)


def act(msg, board, action, cards=None, rnd=None, squares=None):
    """The action of an option of the view's ask, for ``board`` of round ``rnd`` (from the view: the
    server then reads the board directly): its kind, value and data as the server gave them, the
    player's selected cards when the option takes cards (``c``), and the names of the picked squares
    as its data when it takes squares (``q``: the data's keys, in the order picked)."""
    a = {"k": action["k"]}
    if "v" in action:
        a["v"] = action["v"]
    if action.get("c"):
        a["c"] = list(cards or [])
    if "d" in action:
        a["d"] = action["d"]
    if action.get("q"):
        names = squares or []
        a["d"] = {key: names[i] for i, key in enumerate(action["q"]) if i < len(names)}
    m = {"t": "act", "msg": msg, "board": board, "a": a}
    if rnd is not None:
        m["r"] = rnd
    return m


def hello(msg):
    return {"t": "hello", "msg": msg}


def dealt(msg, board, cards, rnd=None, upto=None):
    """What the table read; ``upto``: a report while dealing (the cards read so far, ``upto`` of them)."""
    m = {"t": "dealt", "msg": msg, "board": board, "cards": list(cards)}
    if rnd is not None:
        m["r"] = rnd
    if upto is not None:
        m["upto"] = upto
    return m


def moved(msg, board, n, squares, rnd=None):
    """An electronic board's move: the squares sensed, in the order of the move's keys, made in the
    position numbered ``n`` (the server's ``pos``)."""
    m = {"t": "moved", "msg": msg, "board": board, "n": n, "sq": list(squares)}
    if rnd is not None:
        m["r"] = rnd
    return m


def position(msg, board, rows, rnd=None):
    """An electronic board's whole position as sensed: the grid's rows of glyphs."""
    m = {"t": "position", "msg": msg, "board": board, "rows": list(rows)}
    if rnd is not None:
        m["r"] = rnd
    return m


def encode(message):
    data = json.dumps(message).encode()
    if len(data) > MAX_BYTES:
        raise ValueError("message too large: " + str(len(data)))
    return data


def parse(payload):
    """A message from the server, or None when it is not one (never raises on bad input)."""
    try:
        message = json.loads(payload)
    except (ValueError, TypeError):
        return None
    if not isinstance(message, dict) or not isinstance(message.get("t"), str):
        return None
    return message
