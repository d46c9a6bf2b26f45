"""What the console's forms send, turned into the organiser API's request bodies (service/bodies.py
checks them again: the console adds no rule of its own). A form that cannot be read is a
``FormError`` naming the line, and nothing is sent."""

from __future__ import annotations

import csv
import io
from typing import Any
from urllib.parse import parse_qs

from deckhand.errors import DeckhandError

MAX_LINES = 10000  # the API's own limit of players in one request
HEADINGS = {"name", "姓名", "number", "id", "注册号", "region", "地区"}


class FormError(DeckhandError):
    """A form the console cannot turn into a request."""


def fields(body: bytes, content_type: str) -> dict[str, str]:
    """A urlencoded form's fields (the last value of each)."""
    if content_type.split(";", 1)[0].strip().lower() != "application/x-www-form-urlencoded":
        raise FormError("a form is sent as application/x-www-form-urlencoded")
    try:
        text = body.decode()
    except UnicodeDecodeError:
        raise FormError("the form is not UTF-8") from None
    return {k: v[-1] for k, v in parse_qs(text, keep_blank_values=True, max_num_fields=100).items()}


def _rows(text: str) -> list[list[str]]:
    rows = [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(text.strip()))]
    rows = [row for row in rows if any(row)]
    if len(rows) > MAX_LINES:
        raise FormError(f"at most {MAX_LINES} lines at once")
    if rows and {cell.lower() for cell in rows[0]} & HEADINGS:
        rows = rows[1:]  # a line of headings
    if not rows:
        raise FormError("no lines")
    return rows


def players_body(text: str) -> dict[str, Any]:
    """``name, registration number[, region]`` a line → ``{"players": [{"id", "name"}]}``. The
    registration number is the player's id; the API's player has no region, so it is read (a line
    must not have more than three cells) but not sent."""
    players = []
    for n, row in enumerate(_rows(text), start=1):
        if not 2 <= len(row) <= 3 or not row[0] or not row[1]:
            raise FormError(f"line {n}: name, registration number[, region]")
        players.append({"id": row[1], "name": row[0]})
    return {"players": players}


def tables_body(text: str) -> dict[str, Any]:
    """``table id, seat device, seat device, …`` a line → ``{"tables": [{"id", "seats"}]}``."""
    tables = []
    for n, row in enumerate(_rows(text), start=1):
        if len(row) < 2 or not all(row):
            raise FormError(f"line {n}: table id, then one device (thing name) a seat")
        tables.append({"id": row[0], "seats": row[1:]})
    return {"tables": tables}


def event_body(form: dict[str, str]) -> dict[str, Any]:
    """The new-event form → ``EventSpec``'s body (numbers as numbers; blanks left out)."""
    body: dict[str, Any] = {}
    for key in ("event_id", "name", "ruleset", "grade", "start"):
        if form.get(key, "").strip():
            body[key] = form[key].strip()
    for key in ("rounds", "boards_per_round", "groups"):
        value = form.get(key, "").strip()
        if value:
            if not (value.isascii() and value.isdigit()):
                raise FormError(f"{key}: a whole number")
            body[key] = int(value)
    return body
