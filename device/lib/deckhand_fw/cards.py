# Card tokens on the device: a short label for a small display. The server sends the hand already
# in the game's display order; the device knows no game's card order.
SYMBOLS = {"S": "\u2660", "H": "\u2665", "C": "\u2663", "D": "\u2666"}


def pretty(token):
    """Rank then suit symbol (T shown as 10); any other token (jokers) as it is."""
    if len(token) != 2 or token[0] not in SYMBOLS:
        return token
    rank = "10" if token[1] == "T" else token[1]
    return rank + SYMBOLS[token[0]]
