# What the handset screen shows, as plain lines, from the last view the server sent.
from .cards import pretty, sort_hand


def countdown(deadline_ms, now_ms):
    """Whole seconds left for a timed decision (0 when none or over)."""
    if not deadline_ms:
        return 0
    left = deadline_ms - now_ms
    return left // 1000 + (1 if left % 1000 else 0) if left > 0 else 0


def screen(message, selected, now_ms, rejection=None, bid_choice=0):
    """Lines for the display: board and turn, the table, the hand with the selection marked."""
    view = message["view"]
    if "bids" in view:
        return landlord_screen(message, selected, now_ms, rejection, bid_choice)
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


def _head(message, view, mine, now_ms):
    head = "Board " + str(message["b"]) + "  seat " + str(view["seat"])
    if message.get("st") == "stopped":
        return head + "  STOPPED"
    if view["phase"] == "end":
        return head + "  board over"
    if mine:
        head += "  YOUR TURN"
        left = countdown(message.get("dl", 0), now_ms)
        if left:
            head += " " + str(left) + "s"
        return head
    return head + "  seat " + str(view["turn"]) + " to act"


def landlord_screen(message, selected, now_ms, rejection=None, bid_choice=0):
    """Dou Dizhu: bids, the landlord and the kitty, doubling, the table and the hand."""
    view = message["view"]
    seat = view["seat"]
    phase = view["phase"]
    landlord = view["landlord"]
    doubling = phase == "double" and seat != landlord and view["doubled"][seat] is None
    mine = doubling or (phase in ("bid", "redouble", "play") and view["turn"] == seat)
    lines = [_head(message, view, mine, now_ms)]
    if view.get("deal", 1) > 1:
        lines.append("Redeal: deal " + str(view["deal"]))
    bids = []
    for s, b in enumerate(view["bids"]):
        bids.append(str(s) + ":" + ("-" if b is None else ("pass" if b == 0 else str(b))))
    if landlord is None:
        lines.append("Bids: " + " ".join(bids))
        if mine:
            high = view["bid"]
            choice = bid_choice or min(high + 1, 3)
            lines.append("Bid " + str(choice) + "? play=bid select=change pass=no bid")
    else:
        who = "you" if landlord == seat else "seat " + str(landlord)
        lines.append("Landlord: " + who + "  bid " + str(view["bid"]))
        lines.append("Kitty: " + " ".join(pretty(c) for c in view["kitty"]))
        marks = []
        for s, d in enumerate(view["doubled"]):
            if d:
                marks.append(str(s) + " doubled")
        if view["redoubled"]:
            marks.append("landlord redoubled")
        if marks:
            lines.append(", ".join(marks))
        if mine and phase == "double":
            lines.append("Double? play=yes pass=no")
        elif mine and phase == "redouble":
            lines.append("Redouble? play=yes pass=no")
    counts = view["counts"]
    lines.append("Cards: " + " ".join(str(s) + ":" + str(n) for s, n in enumerate(counts)))
    last = view.get("last")
    if last:
        lines.append("Last: seat " + str(last["seat"]) + " " + " ".join(pretty(c) for c in last["cards"]))
    hand = sort_hand(view["hand"])
    marks = []
    for i, card in enumerate(hand):
        marks.append(("[" + pretty(card) + "]") if i in selected else pretty(card))
    lines.append("Hand: " + " ".join(marks))
    if rejection:
        lines.append("Refused: " + rejection)
    return lines
