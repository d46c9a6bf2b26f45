# What the handset screen shows, as plain lines, from the last view the server sent: one generic
# screen for every game (the server draws the status lines and the ask; docs/protocol.md).
from . import board
from .cards import pretty


def countdown(left_ms, elapsed_ms):
    """Whole seconds left for a timed decision (0 when none or over): ``left_ms`` the time the view
    gave (its ``dl``: milliseconds left when the server sent it), ``elapsed_ms`` the time since it came.
    The handset's clock counts from its boot, the server's from 1970: only durations cross between them."""
    if not left_ms:
        return 0
    left = left_ms - elapsed_ms
    return left // 1000 + (1 if left % 1000 else 0) if left > 0 else 0


def ask_of(message):
    """The decision the view asks for (a prompt and its options), or None."""
    if message is None or message.get("st") != "playing":
        return None
    ask = message.get("ask")
    return ask if ask and ask.get("o") else None


def selectable(ask, i):
    """Whether card i of the hand may be selected for this ask (``s``: only those places; else any)."""
    places = ask.get("s") if ask is not None else None
    return places is None or i in places


def screen(message, selected, elapsed_ms, rejection=None, choice=0, offered=None, picked=(), cursor=None):
    """Lines for the display (``elapsed_ms``: since the view came): board and whether it is this
    seat's turn with the seconds left to decide, the server's status lines, a board game's grid with
    the cursor, the ``picked`` squares and the last move marked, the hand with the selection marked
    (cards that cannot be selected now in parentheses), the prompt and its options (the highlighted
    one in brackets) — ``offered``'s when a refusal offered a choice."""
    head = "Board " + str(message["b"]) + "  seat " + str(message["s"])
    ask = ask_of(message)
    if ask is not None and offered is not None:
        ask = offered
    status = message.get("st")
    if status == "stopped":
        head += "  STOPPED"
    elif status == "ended":
        head += "  board over"
    elif ask is not None:
        head += "  YOUR TURN"
        left = countdown(message.get("dl", 0), elapsed_ms)
        if left:
            head += " " + str(left) + "s"
    lines = [head]
    for line in message.get("l", ()):
        lines.append(line)
    grid = message.get("grid")
    if grid:
        lines.extend(board.lines(grid, picked, cursor))
        if picked:
            lines.append("Picked: " + " ".join(board.name(grid, c) for c in picked))
    hand = message.get("h", ())
    marks = []
    for i, card in enumerate(hand):
        if i in selected:
            marks.append("[" + pretty(card) + "]")
        elif selectable(ask, i):
            marks.append(pretty(card))
        else:
            marks.append("(" + pretty(card) + ")")
    if hand or not grid:
        lines.append("Hand: " + " ".join(marks))
    legal = message.get("legal")
    if legal is not None and selected:
        chosen = sorted(hand[i] for i in selected if i < len(hand))
        ok = any(sorted(play) == chosen for play in legal)
        lines.append("Selection: " + ("legal" if ok else "not a legal play"))
    if ask is not None:
        lines.append(ask["p"])
        labels = []
        for i, option in enumerate(ask["o"]):
            label = str(i + 1) + " " + option["l"]
            labels.append(("[" + label + "]") if i == choice else label)
        lines.append("  ".join(labels))
    if rejection:
        lines.append("Refused: " + rejection)
    return lines
