"""Helpers for drawing a seat's handset screen (device protocol v2, docs/protocol.md).

A screen is what the firmware shows and offers, with no knowledge of the game: the hand in display
order (``h``, tokens), a few status lines in words (``l``) and, when the seat has something to
decide, ``ask``: a prompt (``p``) and options (``o``), each a label (``l``) and the action it sends
(``a``: kind ``k``, value ``v``, ``c`` when the player's selected cards go with it, ``d`` data the
game declared, e.g. a wild card's reading), and ``s`` when only some cards of the hand may be selected
(their places in ``h``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .cards import format_cards
from .words import Words

TRICK_SHOWN = 4  # the last plays of the trick a screen lists; earlier ones are summed up as "…"


def trick_line(
    w: Words,
    trick: Sequence[tuple[int, Sequence[int]]],
    me: int,
    text: Callable[[Sequence[int]], str] | None = None,
) -> str | None:
    """The trick so far, oldest first (the last few plays; passes say so); None before the lead.
    ``text``: how a play's cards read (default: in the engine's card order)."""
    if not trick:
        return None
    show = text if text is not None else lambda p: w.cards(sorted(p))
    parts = [
        w("trick.play", who=w.seat(s, me), cards=show(p)) if p else w("trick.pass", who=w.seat(s, me))
        for s, p in trick[-TRICK_SHOWN:]
    ]
    return w("trick", more=w("more") if len(trick) > TRICK_SHOWN else "", plays=w.join(parts))


def counts_text(counts: Sequence[int]) -> str:
    return " ".join(f"{s}:{n}" for s, n in enumerate(counts))


def counts_line(w: Words, counts: Sequence[int], me: int) -> str:
    last = [s for s, n in enumerate(counts) if n == 1]
    return w("cards", counts=counts_text(counts)) + (w("cards.last", who=w.seats(last, me)) if last else "")


def scores_line(w: Words, scores: Sequence[int]) -> str:
    return w("scores", scores=" ".join(f"{s}:{n:+d}" for s, n in enumerate(scores)))


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


def play_ask(w: Words, prompt: str, can_pass: bool) -> dict[str, Any]:
    options = [option(w("opt.play"), "play", cards=True)]
    if can_pass:
        options.append(option(w("opt.pass"), "pass"))
    return ask(prompt, options)


def beat_prompt(w: Words, last_seat: int, me: int, combo: str) -> str:
    """ "Beat seat 2's pair or pass": ``combo`` the last play's name in the screen's language."""
    return w("beat", who=w.seat(last_seat, me), combo=combo)


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
