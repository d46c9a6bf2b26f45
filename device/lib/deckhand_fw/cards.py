# Card tokens on the device: sorting a hand for display, in the game's order (Big Two: 3 … A 2, D < C < H < S).
RANKS = "3456789TJQKA2"
SUITS = "DCHS"
SYMBOLS = {"S": "\u2660", "H": "\u2665", "C": "\u2663", "D": "\u2666"}


def key(token):
    """Sort key of a token in Big Two order; jokers above everything."""
    if token == "BJ":
        return 52
    if token == "RJ":
        return 53
    return RANKS.index(token[1]) * 4 + SUITS.index(token[0])


def sort_hand(tokens):
    return sorted(tokens, key=key)


def pretty(token):
    """A short label for a small display: rank then suit symbol (T shown as 10)."""
    if token in ("BJ", "RJ"):
        return token
    rank = "10" if token[1] == "T" else token[1]
    return rank + SYMBOLS[token[0]]
