"""What the console's forms send, turned into the organiser API's request bodies (service/bodies.py
checks them again: the console adds no rule of its own). A form that cannot be read is a
``FormError`` naming the line, and nothing is sent."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any
from urllib.parse import parse_qs

from deckhand.engines.registry import RULESETS, game
from deckhand.engines.spec import Competition
from deckhand.errors import DeckhandError
from deckhand.service.bodies import PairSpec, PlayerSpec
from pydantic import BaseModel, ValidationError

MAX_LINES = 10000  # the API's own limit of players in one request
HEADINGS = {"name", "姓名", "number", "id", "注册号", "region", "地区"}


class FormError(DeckhandError):
    """A form the console cannot turn into a request."""


def fields(body: bytes, content_type: str) -> dict[str, str]:
    """A form's fields (the last value of each): urlencoded, or multipart (a CSV file chosen in the
    browser comes as one field of text)."""
    kind = content_type.split(";", 1)[0].strip().lower()
    if kind == "multipart/form-data":
        return _multipart(body, content_type)
    if kind != "application/x-www-form-urlencoded":
        raise FormError("a form is sent as application/x-www-form-urlencoded or multipart/form-data")
    try:
        text = body.decode()
    except UnicodeDecodeError:
        raise FormError("the form is not UTF-8") from None
    return {k: v[-1] for k, v in parse_qs(text, keep_blank_values=True, max_num_fields=100).items()}


def _multipart(body: bytes, content_type: str) -> dict[str, str]:
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    message = BytesParser(policy=HTTP).parsebytes(head + body)
    if not message.is_multipart():
        raise FormError("a multipart form without parts")
    out: dict[str, str] = {}
    for n, part in enumerate(message.iter_parts()):
        if n >= 100:
            raise FormError("at most 100 fields")
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str):
            continue
        data = part.get_payload(decode=True)
        try:  # a spreadsheet's "CSV UTF-8" starts with a byte-order mark: dropped
            out[name] = (data if isinstance(data, bytes) else b"").decode("utf-8-sig")
        except UnicodeDecodeError:
            raise FormError(f"{name}: not UTF-8 text (save the file as CSV UTF-8)") from None
    return out


def _rows(text: str) -> list[tuple[int, list[str]]]:
    """The CSV's rows that are not blank, each with its line number in the text (a first line of
    headings left out)."""
    reader = csv.reader(io.StringIO(text))
    rows: list[tuple[int, list[str]]] = []
    try:
        for row in reader:
            cells = [cell.strip() for cell in row]
            if any(cells):
                rows.append((reader.line_num, cells))
            if len(rows) > MAX_LINES:
                raise FormError(f"at most {MAX_LINES} lines at once")
    except csv.Error as error:
        raise FormError(f"line {reader.line_num}: {error}") from None
    if rows and {cell.lower() for cell in rows[0][1]} & HEADINGS:
        rows = rows[1:]  # a line of headings
    if not rows:
        raise FormError("no lines")
    return rows


def _entries(
    text: str, entry: Callable[[list[str]], dict[str, Any]], spec: type[BaseModel]
) -> list[dict[str, Any]]:
    """Each line's entry, checked by the API's own model of it: every bad line named by its number
    (all of them, not the first), and nothing sent while one is bad."""
    entries: list[dict[str, Any]] = []
    bad: list[str] = []
    seen: dict[str, int] = {}
    for line, row in _rows(text):
        try:
            item = entry(row)
            spec.model_validate(item)
        except FormError as error:
            bad.append(f"line {line}: {error}")
            continue
        except ValidationError as error:
            why = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
            bad.append(f"line {line}: {why}")
            continue
        if item["id"] in seen:
            bad.append(f"line {line}: registration number {item['id']} is on line {seen[item['id']]} too")
        seen.setdefault(item["id"], line)
        entries.append(item)
    if bad:
        raise FormError("; ".join(bad[:20]) + (f" (and {len(bad) - 20} more)" if len(bad) > 20 else ""))
    return entries


def _player(row: list[str]) -> dict[str, Any]:
    if not 2 <= len(row) <= 3 or not row[0] or not row[1]:
        raise FormError("name, registration number[, region]")
    return {"id": row[1], "name": row[0], **({"region": row[2]} if len(row) == 3 and row[2] else {})}


def _pair(row: list[str]) -> dict[str, Any]:
    if len(row) != 7 or not all(row[:2]) or not all(row[3:]):
        raise FormError("name, registration number, region, player 1's name, number, player 2's name, number")
    players = [{"id": row[4], "name": row[3]}, {"id": row[6], "name": row[5]}]
    return {"id": row[1], "name": row[0], "players": players, **({"region": row[2]} if row[2] else {})}


def players_body(text: str) -> dict[str, Any]:
    """``name, registration number[, region]`` a line → ``{"players": [{"id", "name", "region"}]}``:
    the registration number is the player's id."""
    return {"players": _entries(text, _player, PlayerSpec)}


def pairs_body(text: str) -> dict[str, Any]:
    """A match event's pairs, ``name, registration number, region, player 1's name, player 1's number,
    player 2's name, player 2's number`` a line → ``{"pairs": [{"id", "name", "region", "players"}]}``."""
    return {"pairs": _entries(text, _pair, PairSpec)}


def tables_body(text: str) -> dict[str, Any]:
    """``table id, seat device, seat device, …`` a line → ``{"tables": [{"id", "seats"}]}``."""
    tables = []
    for n, row in _rows(text):
        if len(row) < 2 or not all(row):
            raise FormError(f"line {n}: table id, then one device (thing name) a seat")
        tables.append({"id": row[0], "seats": row[1:]})
    return {"tables": tables}


ROLES = ("organiser", "referee")


def roles_body(text: str) -> dict[str, Any]:
    """``identity, organiser|referee`` a line → ``{"roles": {identity: role}}``; nothing written: no
    roles but the owner's (the API's PUT replaces every role, so the form always sends them all)."""
    if not text.strip():
        return {"roles": {}}
    roles: dict[str, str] = {}
    for n, row in _rows(text):
        if len(row) != 2 or not row[0] or row[1].lower() not in ROLES:
            raise FormError(f"line {n}: an identity, then organiser or referee")
        if row[0] in roles:
            raise FormError(f"line {n}: {row[0]} has a role on an earlier line")
        roles[row[0]] = row[1].lower()
    return {"roles": roles}


MATCH_DOCUMENTS = ("swiss", "ranking", "round_robin", "knockout", "extra_board", "stages")


def event_body(form: dict[str, str]) -> dict[str, Any]:
    """The new-event form → ``EventSpec``'s body (numbers as numbers; JSON documents parsed; blanks
    left out). A match game's rule set takes the match settings and the rule options; a duplicate
    game's, the boards of a round."""
    body: dict[str, Any] = {}
    for key in (
        "event_id",
        "name",
        "ruleset",
        "grade",
        "start",
        "organiser",
        "format",
        "ranking",
        "seed",
        "deal_seed",
    ):
        if form.get(key, "").strip():
            body[key] = form[key].strip()
    match = form.get("ruleset", "") in RULESETS and game(form["ruleset"]).competition is Competition.MATCH
    numbers = ("rounds", "fee") + (() if match else ("boards_per_round", "groups"))
    for key in numbers:
        if (value := _number(form, key)) is not None:
            body[key] = value
    if "venue" in form:  # a checkbox: sent when ticked; the form says it is there by "venue_shown"
        body["venue"] = form["venue"] == "on"
    elif form.get("venue_shown"):
        body["venue"] = False
    if not match:
        return body
    settings: dict[str, Any] = {}
    for key in ("format", "games"):
        if form.get(f"match_{key}", "").strip():
            settings[key] = form[f"match_{key}"].strip()
    settings["same_boards"] = form.get("match_same_boards") == "on"
    for key in ("no_new_board_after", "deal_ms", "max_games"):
        if (value := _number(form, f"match_{key}")) is not None:
            settings[key] = value
    for key in MATCH_DOCUMENTS:
        if (doc := _document(form, f"match_{key}")) is not None:
            settings[key] = doc
    body["match"] = settings
    if (options := _document(form, "options")) is not None:
        body["options"] = options
    return body


def _number(form: dict[str, str], key: str) -> int | None:
    value = form.get(key, "").strip()
    if not value:
        return None
    if not (value.isascii() and value.isdigit()):
        raise FormError(f"{key}: a whole number")
    return int(value)


def _document(form: dict[str, str], key: str) -> Any:
    text = form.get(key, "").strip()
    if not text:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise FormError(f"{key}: not JSON ({error.msg}, column {error.colno})") from None


def csv_text(form: dict[str, str]) -> str:
    """A registration's CSV: the file chosen, else the text pasted."""
    return form.get("csv_file", "").strip() or form.get("csv", "")


def pairing_body(form: dict[str, str]) -> dict[str, Any]:
    """The override form → ``PairingBody``: ``pair, pair`` a line (the two pairs of a table), the bye
    and the reason."""
    pairs = []
    for n, row in _rows(form.get("pairs", "")):
        if len(row) != 2 or not all(row):
            raise FormError(f"line {n}: two pairs' registration numbers, one table a line")
        pairs.append(row)
    body: dict[str, Any] = {"pairs": pairs, "reason": form.get("reason", "").strip()}
    if form.get("bye", "").strip():
        body["bye"] = form["bye"].strip()
    return body
