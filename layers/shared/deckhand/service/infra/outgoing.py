"""Every message the server sends a device (docs/protocol.md, "Server → device"), built here only.

This module mirrors the firmware's ``deckhand_fw/protocol.py``: the message kinds and their fields
are declared once on each side (``DOWN_FIELDS`` here, ``DOWN_FIELDS`` there) and a contract test
checks that the two agree, and that what the firmware sends up parses here (``UP_FIELDS``).
"""

from __future__ import annotations

import json
from typing import Any

from ...engines.common.words import Words
from . import words

# Server → device: kind → every field it may carry (besides ``t``).
DOWN_FIELDS: dict[str, tuple[str, ...]] = {
    "ack": ("msg", "v", "dup"),
    "reject": ("msg", "code", "why", "ask"),
    "view": ("g", "b", "r", "v", "s", "st", "dl", "h", "l", "grid", "ask", "res", "layout"),
    "deal": ("b", "r", "seats", "kitty", "n", "each", "order"),
    "stopped": ("b", "why"),
    "pos": ("b", "r", "v", "n", "st", "q", "grid"),
}
# Device → server, as ``service.devices`` parses them. The firmware's are these but ``UP_ONLY_CLIENTS``:
# fields a handset never sends (its display fonts have no CJK: it never says a language).
UP_FIELDS: dict[str, tuple[str, ...]] = {
    "hello": ("msg", "lang"),
    "act": ("msg", "board", "r", "a"),
    "dealt": ("msg", "board", "r", "cards", "upto"),
    "moved": ("msg", "board", "r", "n", "sq"),
    "position": ("msg", "board", "r", "rows"),
}
UP_ONLY_CLIENTS: dict[str, tuple[str, ...]] = {"hello": ("lang",)}
# Server → device fields only a client is sent (a seat whose device said its language): the results
# site's address, which a handset has no way to open, and a board game's layout (how the browser draws
# the grid: docs/protocol.md, "Board layouts"), which would not fit a handset's 1 KiB.
DOWN_ONLY_CLIENTS: dict[str, tuple[str, ...]] = {"view": ("res", "layout")}
# An action: kind, value, cards (tokens up; true in an option), data; ``q`` in an option only: the keys of
# its data the squares the player picks go under, in order (a board game's move: ``["from", "to"]``).
ACTION_FIELDS = ("k", "v", "c", "d", "q")
GRID_FIELDS = ("w", "r", "y", "x", "n", "m", "s")  # a board's grid (docs/protocol.md, "Boards")
ASK_FIELDS = ("p", "o", "s")  # the prompt, its options, the places of the cards that may be selected
OPTION_FIELDS = ("l", "a")  # an option: its label and its action
# The refusal of a thing assigned to no table (a hello too): the firmware shows it (protocol.UNKNOWN_DEVICE).
UNKNOWN_DEVICE = "unknown_device"
WHY_MAX = 200  # characters of a reason a device is sent
# What a handset is told when its table's board stops (in its language: words.py's ``stopped.referee``):
# the detail (a misread names a card and where it lies in a duplicate board other tables still play) is
# for the dealing table and the referee only.
STOPPED_FOR_HANDSETS = words.words()("stopped.referee")


def ack(msg: str, *, version: int | None = None, duplicate: bool = False) -> dict[str, Any]:
    """The message was accepted (or had been: ``dup``); ``v``: the board version that includes it."""
    payload: dict[str, Any] = {"t": "ack", "msg": msg}
    if version is not None:
        payload["v"] = version
    if duplicate:
        payload["dup"] = True
    return payload


MAX_BYTES = 1024  # what the firmware accepts (protocol.MAX_BYTES; messaging refuses larger)


def reject(msg: str | None, code: str, why: str, ask: dict[str, Any] | None = None) -> dict[str, Any]:
    """Refused, nothing changed: a reason code and a reason for people; ``ask``: the decision that
    resolves the refusal (a play that reads several ways: which reading), offered by the handset in
    place of its view's ask. An ask that would not fit the message is left out (never the refusal)."""
    payload: dict[str, Any] = {"t": "reject", "msg": msg, "code": code, "why": why[:WHY_MAX]}
    if ask:
        payload["ask"] = ask
        if len(json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()) > MAX_BYTES:
            del payload["ask"]
    return payload


def view(
    *,
    ruleset: str,
    board: str,
    round_no: int,
    version: int,
    seat: int,
    status: str,
    left_ms: int,
    screen: dict[str, Any],
    results: str | None = None,
    layout: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A seat's view: the board's place and state, and the screen the game drew for the seat (``h``
    the hand in display order, ``l`` status lines, ``grid`` a board game's board, ``ask`` the decision
    with its options, if any).
    ``left_ms`` (``dl``): the milliseconds left before the board's next timeout as the view is sent,
    0 for none — a duration, as a handset's clock counts from its boot (never an epoch time).
    ``results`` (``res``): where the event's results site is, sent once the board has ended.
    ``layout``: how a browser draws the grid (a client's view only)."""
    payload: dict[str, Any] = {
        "t": "view",
        "g": ruleset,
        "b": board,
        "r": round_no,
        "v": version,
        "s": seat,
        "st": status,
        "dl": max(0, left_ms),
        "h": list(screen.get("h", [])),
        "l": list(screen.get("l", [])),
    }
    if screen.get("grid"):
        payload["grid"] = screen["grid"]
    if screen.get("ask") and status == "playing":
        payload["ask"] = screen["ask"]
    if results and status == "ended":
        payload["res"] = results
    if layout and "grid" in payload:
        payload["layout"] = layout
    return payload


def deal(
    *,
    board: str,
    round_no: int,
    seats: int,
    order: list[str],
    kitty: int = 0,
    number: int = 1,
    each: bool = False,
) -> dict[str, Any]:
    """The dealing table's card order; ``kitty``: the last cards go to the kitty; ``n``: a redeal;
    ``each``: report every card as it is read (the seats receive only what the table has read)."""
    payload: dict[str, Any] = {"t": "deal", "b": board, "r": round_no, "seats": seats}
    if kitty:
        payload["kitty"] = kitty
    if number > 1:
        payload["n"] = number
    if each:
        payload["each"] = True
    payload["order"] = order
    return payload


COMMITMENT_DIGITS = 16  # the commitment's first 64 bits: enough to check by eye, short enough for a line


NAME_MAX = 24  # characters of a name on a handset's status line


def seat_line(w: Words, name: str, seat: int) -> str:
    """The status line a handset shows at a board's start: whose seat it is."""
    shown = name if len(name) <= NAME_MAX else name[: NAME_MAX - 1] + "…"
    return w("seat_line", name=shown, n=seat)


def commitment_line(w: Words, commitment: str, *, lot: bool = False) -> str:
    """The status line a handset shows at the round's start: the round's published deal commitment
    (``lot``: a board game's, which fixes the lot of colours and first moves, not a deal of cards)."""
    digits = commitment[:COMMITMENT_DIGITS]
    key = "commitment.lot" if lot else "commitment"
    return w(key, digits=" ".join(digits[i : i + 4] for i in range(0, len(digits), 4)))


def stopped(board: str, why: str) -> dict[str, Any]:
    """The table's board is stopped; a referee takes over."""
    return {"t": "stopped", "b": board, "why": why[:WHY_MAX]}


def pos(
    *,
    board: str,
    round_no: int,
    version: int,
    moves: int,
    status: str,
    fields: list[str],
    grid: dict[str, Any],
) -> dict[str, Any]:
    """An electronic board's position (a board game whose seats see the same board): the grid every seat
    sees, ``n`` the moves played so far (a ``moved`` report names it), ``q`` the keys of the move the seat
    to move makes (``["from", "to"]``, ``["point"]``; none when nobody is to move)."""
    payload: dict[str, Any] = {"t": "pos", "b": board, "r": round_no, "v": version, "n": moves, "st": status}
    if fields:
        payload["q"] = fields
    payload["grid"] = grid
    return payload
