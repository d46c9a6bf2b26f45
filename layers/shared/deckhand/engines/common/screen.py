"""Helpers for drawing a seat's handset screen (device protocol v2, docs/protocol.md).

A screen is what the firmware shows and offers, with no knowledge of the game: the hand in display
order (``h``, tokens), a few status lines in words (``l``) and, when the seat has something to
decide, ``ask``: a prompt (``p``) and options (``o``), each a label (``l``) and the action it sends
(``a``: kind ``k``, value ``v``, ``c`` when the player's selected cards go with it, ``d`` data the
game declared, e.g. a wild card's reading), and ``s`` when only some cards of the hand may be selected
(their places in ``h``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .cards import format_cards

SYMBOLS = {"S": "\u2660", "H": "\u2665", "C": "\u2663", "D": "\u2666"}
TRICK_SHOWN = 4  # the last plays of the trick a screen lists; earlier ones are summed up as "…"


def card_text(card: int) -> str:
    """A card as people read it on a small display: rank then suit symbol (10 for T); BJ, RJ."""
    token = format_cards([card])[0]
    if token in ("BJ", "RJ"):
        return token
    rank = "10" if token[1] == "T" else token[1]
    return rank + SYMBOLS[token[0]]


def cards_text(cards: Iterable[int]) -> str:
    return " ".join(card_text(c) for c in cards)


def seat_name(seat: int, me: int) -> str:
    return "you" if seat == me else f"seat {seat}"


def seats_text(seats: Iterable[int], me: int) -> str:
    """Several seats as the player reads them: "you, seat 2"."""
    return ", ".join(seat_name(s, me) for s in seats)


def won_line(winner: int, me: int) -> str:
    """The status of a board won by one seat (the first out of cards)."""
    return f"Board over: {seat_name(winner, me)} won"


def trick_line(trick: Sequence[tuple[int, Sequence[int]]], me: int) -> str | None:
    """The trick so far, oldest first (the last few plays; passes say so); None before the lead."""
    if not trick:
        return None
    parts = [f"{seat_name(s, me)} {cards_text(sorted(p)) if p else 'pass'}" for s, p in trick[-TRICK_SHOWN:]]
    return "Trick: " + ("…, " if len(trick) > TRICK_SHOWN else "") + ", ".join(parts)


def counts_line(counts: Sequence[int], me: int) -> str:
    text = "Cards: " + " ".join(f"{s}:{n}" for s, n in enumerate(counts))
    last = [seat_name(s, me) for s, n in enumerate(counts) if n == 1]
    return text + ("  last card: " + ", ".join(last) if last else "")


def scores_line(scores: Sequence[int]) -> str:
    return "Scores: " + " ".join(f"{s}:{n:+d}" for s, n in enumerate(scores))


def action(kind: str, value: int | None = None, cards: bool = False, data: Any = None) -> dict[str, Any]:
    a: dict[str, Any] = {"k": kind}
    if value is not None:
        a["v"] = value
    if cards:
        a["c"] = True
    if data is not None:
        a["d"] = data
    return a


def option(
    label: str, kind: str, value: int | None = None, cards: bool = False, data: Any = None
) -> dict[str, Any]:
    return {"l": label, "a": action(kind, value, cards, data)}


def ask(prompt: str, options: list[dict[str, Any]], selectable: list[int] | None = None) -> dict[str, Any]:
    """A decision: the prompt, its options and, when only some cards may be chosen, their places in the
    hand shown (``s``: the handset lets no other card be selected)."""
    drawn: dict[str, Any] = {"p": prompt, "o": options}
    if selectable is not None:
        drawn["s"] = selectable
    return drawn


def yes_no(prompt: str, kind: str, yes: str, no: str) -> dict[str, Any]:
    return ask(prompt, [option(yes, kind, 1), option(no, kind, 0)])


def play_ask(prompt: str, can_pass: bool) -> dict[str, Any]:
    options = [option("Play", "play", cards=True)]
    if can_pass:
        options.append(option("Pass", "pass"))
    return ask(prompt, options)


def beat_prompt(last_seat: int, me: int, combo_name: str) -> str:
    words = combo_name.replace("_", " ")
    return f"Beat {seat_name(last_seat, me)}'s {words} or pass"


def screen(
    hand: Sequence[int],
    lines: list[str | None],
    asking: dict[str, Any] | None,
    order: Callable[[int], Any] | None = None,
) -> dict[str, Any]:
    """The screen: the hand in display order (``order``'s, else the engine's card order), the lines,
    the ask if any."""
    drawn: dict[str, Any] = {
        "h": format_cards(sorted(hand, key=order)),
        "l": [line for line in lines if line],
    }
    if asking is not None:
        drawn["ask"] = asking
    return drawn
