# The device side of docs/protocol.md: message ids, building and parsing messages.
import json

MAX_BYTES = 1024
ACTIONS = ("play", "pass", "show", "double", "bid")


def up_topic(thing):
    return "dh/" + thing + "/up"


def down_topic(thing):
    return "dh/" + thing + "/down"


class MessageIds:
    """Unique message ids across reboots: a counter kept in a file, saved before each id is used."""

    def __init__(self, thing, store):
        self.thing = thing
        self.store = store
        self.counter = store.load_int("msgid", 0)

    def next(self):
        self.counter += 1
        self.store.save_int("msgid", self.counter)
        return self.thing + "-" + str(self.counter)


def action(kind, msg, board, cards=None, value=None, rnd=None):
    """An action for ``board`` of round ``rnd`` (from the view: the server then reads the board directly)."""
    if kind not in ACTIONS:
        raise ValueError("unknown action " + kind)
    m = {"t": kind, "msg": msg, "board": board}
    if rnd is not None:
        m["r"] = rnd
    if kind == "play":
        m["cards"] = list(cards or [])
    if kind in ("show", "double"):
        m["v"] = 1 if value else 0
    if kind == "bid":
        m["v"] = int(value or 0)  # Dou Dizhu: 1, 2 or 3; 0 passes
    return m


def hello(msg):
    return {"t": "hello", "msg": msg}


def dealt(msg, board, cards, rnd=None):
    m = {"t": "dealt", "msg": msg, "board": board, "cards": list(cards)}
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
