# What the handset screen shows, as plain lines, from the last view the server sent.
from .cards import pretty, sort_hand


def countdown(deadline_ms, now_ms):
    """Whole seconds left for a timed decision (0 when none or over)."""
    if not deadline_ms:
        return 0
    left = deadline_ms - now_ms
    return left // 1000 + (1 if left % 1000 else 0) if left > 0 else 0


def screen(message, selected, now_ms, rejection=None):
    """Lines for the display: board and turn, the table, the hand with the selection marked."""
    view = message["view"]
    seat = view["seat"]
    lines = []
    head = "Board " + str(message["b"]) + "  seat " + str(seat)
    phase = view["phase"]
    if message.get("st") == "stopped":
        head += "  STOPPED"
    elif phase == "end":
        head += "  board over"
    elif view["turn"] == seat or (phase == "show" and view["shown"][seat] is None):
        head += "  YOUR TURN"
        left = countdown(message.get("dl", 0), now_ms)
        if left:
            head += " " + str(left) + "s"
    else:
        head += "  seat " + str(view["turn"]) + " to act"
    lines.append(head)
    counts = view["counts"]
    lines.append("Cards: " + " ".join(str(s) + ":" + str(n) for s, n in enumerate(counts)))
    if view["one_card"]:
        lines.append("LAST CARD: seat " + ",".join(str(s) for s in view["one_card"]))
    last = view.get("last")
    if last:
        lines.append("Last: seat " + str(last["seat"]) + " " + " ".join(pretty(c) for c in last["cards"]))
    for s, cards in view["shown_hands"].items():
        lines.append("Shown " + s + ": " + " ".join(pretty(c) for c in sort_hand(cards)))
    hand = sort_hand(view["hand"])
    marks = []
    for i, card in enumerate(hand):
        marks.append(("[" + pretty(card) + "]") if i in selected else pretty(card))
    lines.append("Hand: " + " ".join(marks))
    legal = message.get("legal")
    if legal is not None and selected:
        chosen = sorted(hand[i] for i in selected if i < len(hand))
        ok = any(sorted(play) == chosen for play in legal)
        lines.append("Selection: " + ("legal" if ok else "not a legal play"))
    if rejection:
        lines.append("Refused: " + rejection)
    return lines
