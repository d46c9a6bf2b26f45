"""The referee's forms of the console: one a kind of ``POST /events/{id}/referee``, its choices taken
from the round in play (tables, seats, players, boards) and the kinds the event's rules allow, then a
preview that says in words what the action will change — before anything is written — and a confirm
that sends it to the API as the signed-in identity, showing the audit entry the API answers.

The preview checks the body with the API's own model (service/bodies.py's ``RefereeAction``) and the
choices against the round's status (a table of the round, a board that table plays, a player seated
in it); the API checks everything again at the confirm, and its refusal is shown as it gives it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from deckhand.competition.artificial import Artificial
from deckhand.engines.registry import game
from deckhand.errors import DeckhandError
from deckhand.service.bodies import RefereeAction
from pydantic import ValidationError

from .forms import FormError
from .words import Words

# The form's slug (a URL segment) → the API's kind.
SLUGS = {
    "warning": "warning",
    "violation": "violation",
    "foul": "foul",
    "forfeit": "forfeit",
    "disqualify": "disqualify",
    "withdraw": "withdraw",
    "adjust": "adjust",
    "artificial": "artificial",
    "reseat": "reseat",
    "takeover": "serve_deal",
    "claim": "adjudicate",
    "correct": "correct_move",
    "absent": "no_show",
    "resume": "resume",
}
KIND_SLUG = {kind: slug for slug, kind in SLUGS.items()}
# What each kind names besides its reason.
FIELDS: dict[str, tuple[str, ...]] = {
    "warning": ("player",),
    "violation": ("player",),
    "foul": ("player",),
    "forfeit": ("player",),
    "disqualify": ("player",),
    "withdraw": ("player",),
    "adjust": ("table", "board", "scores"),
    "artificial": ("table", "board", "artificial"),
    "reseat": ("player", "table", "seat"),
    "serve_deal": ("table",),
    "adjudicate": ("table", "board", "version", "claim", "decision", "winner"),
    "correct_move": ("table", "board", "version", "move", "data"),
    "no_show": ("player", "version"),
    "resume": ("table", "board", "version"),
}
MATCH_ONLY = frozenset({"foul", "forfeit", "disqualify", "serve_deal"})  # a game of pairs' penalties
# A board compared across tables; a seat changed within a round (a match's pairs keep theirs: the API
# refuses a match's re-seat, not_for_matches).
DUPLICATE_ONLY = frozenset({"adjust", "artificial", "reseat"})
# A board game's board in play (a match of individuals, one board a game): the referee's rulings, and
# the resume of a board its electronic board stopped (the pieces put back).
BOARD_GAME_ONLY = frozenset({"adjudicate", "correct_move", "no_show", "resume"})
DECISIONS = ("upheld", "rejected")
DRAW = "draw"  # an upheld claim's choice for no winner (null in the body)
ARTIFICIAL_KINDS = tuple(a.value for a in Artificial)
AI_SEAT = "ai"  # an artificial form's choice for a seat the AI plays (null in the body)


def kinds_of(event: dict[str, Any]) -> list[str]:
    """The kinds the event's rules allow, in the forms' order."""
    skip = DUPLICATE_ONLY if event.get("match") is not None else MATCH_ONLY
    if event.get("match") is None or not _board_game(event.get("ruleset")):
        skip = skip | BOARD_GAME_ONLY
    return [k for k in SLUGS.values() if k not in skip]


def _board_game(ruleset: Any) -> bool:
    """A game of two players a board, moved in turn (its spec has a position): its boards take rulings."""
    try:
        return game(str(ruleset)).position is not None
    except DeckhandError:
        return False


@dataclass(frozen=True)
class Choices:
    """What the forms offer, from the round in play."""

    round: int | None
    tables: list[str]
    boards: dict[str, list[str]]  # table → its boards of the round
    seats: dict[str, int]  # table → how many seats
    players: list[tuple[str, str]]  # (id, name), seated in the round, in name order
    board_status: dict[tuple[str, str], str]  # (table, board) → status
    seat_of: dict[str, tuple[str, int]]  # player → (table, seat)
    versions: dict[tuple[str, str], int] | None = None  # (table, board in play) → its version

    @property
    def all_boards(self) -> list[str]:
        """Every board of the round, in the order the tables play them."""
        return list(dict.fromkeys(b for t in self.tables for b in self.boards[t]))

    @property
    def most_seats(self) -> int:
        return max(self.seats.values(), default=0)


def choices(status: dict[str, Any] | None) -> Choices:
    if not status:
        return Choices(None, [], {}, {}, [], {}, {})
    tables, boards, seats, status_of, seat_of, versions = [], {}, {}, {}, {}, {}
    players: dict[str, str] = {}
    for t in status.get("tables") or []:
        tables.append(t["table"])
        boards[t["table"]] = [b["board"] for b in t.get("boards") or []]
        seats[t["table"]] = len(t.get("players") or [])
        for b in t.get("boards") or []:
            status_of[(t["table"], b["board"])] = b.get("status", "")
            if "version" in b:
                versions[(t["table"], b["board"])] = int(b["version"])
        for p in t.get("players") or []:
            if p.get("player"):
                players[p["player"]] = p.get("name") or p["player"]
                seat_of[p["player"]] = (t["table"], p["seat"])
    ordered = sorted(players.items(), key=lambda p: (p[1], p[0]))
    return Choices(status.get("round"), tables, boards, seats, ordered, status_of, seat_of, versions)


def body_of(kind: str, form: dict[str, str], offered: Choices) -> dict[str, Any]:
    """The form's fields → the API's body, checked by its own model and against the round's choices;
    a ``FormError`` says which field is wrong, and nothing is sent."""
    if kind not in FIELDS:
        raise FormError("no such referee action")
    if form.get("round", "") != str(offered.round):  # the form was drawn for another round than now
        raise FormError(
            f"round: the form was for round {form.get('round') or '-'}, round {offered.round} is in play"
        )
    body: dict[str, Any] = {"kind": kind, "reason": form.get("reason", "").strip()}
    wanted = FIELDS[kind]
    if "player" in wanted:
        body["player"] = form.get("player", "")
        if kind != "withdraw" and body["player"] not in dict(offered.players):
            raise FormError(f"player: {body['player']!r} is not seated in this round")
    if "table" in wanted:
        table = form.get("table", "")
        if table not in offered.tables:
            raise FormError(f"table: {table!r} is not a table of this round")
        body["table"] = table
        if kind in ("adjust", "artificial", "adjudicate", "correct_move", "resume"):
            body["round"] = offered.round
            board = form.get("board", "")
            if board not in offered.boards.get(table, []):
                raise FormError(f"board: table {table} plays no board {board!r} in this round")
            body["board"] = board
    seats = offered.seats.get(body.get("table", ""), 0)
    if "scores" in wanted:
        body["scores"] = [_number(form.get(f"score{s}", ""), f"score{s}") for s in range(seats)]
    if "artificial" in wanted:
        given = [form.get(f"artificial{s}", "") for s in range(seats)]
        if any(g not in (*ARTIFICIAL_KINDS, AI_SEAT) for g in given):
            raise FormError("artificial: one kind a seat")
        body["artificial"] = [None if g == AI_SEAT else g for g in given]
    if "seat" in wanted:
        body["seat"] = _number(form.get("seat", ""), "seat")
        if not 0 <= body["seat"] < seats:
            raise FormError(f"seat: table {body['table']} has seats 1 to {seats}")
        if offered.round is not None:
            body["round"] = offered.round
    if kind in BOARD_GAME_ONLY:
        body.update(_ruling(kind, form, body, offered))
    try:
        RefereeAction.model_validate(body)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ())) or "body"
        raise FormError(f"{where}: {first.get('msg', 'not valid')}") from None
    return body


def _ruling(kind: str, form: dict[str, str], body: dict[str, Any], offered: Choices) -> dict[str, Any]:
    """A ruling's fields: the board's version (as the form names it, or the board's in play now, so
    the confirm is bound to what the preview showed), the claim and decision, the corrected move."""
    out: dict[str, Any] = {}
    table, board = body.get("table", ""), body.get("board", "")
    if kind == "no_show":
        table = offered.seat_of.get(body.get("player", ""), ("", 0))[0]
        board = next((b for (t, b) in (offered.versions or {}) if t == table), "")
    given = form.get("version", "").strip()
    if given:
        out["version"] = _number(given, "version")
    elif (table, board) in (offered.versions or {}):
        out["version"] = (offered.versions or {})[(table, board)]
    else:
        raise FormError(f"version: board {board or '-'} at table {table or '-'} is not in play")
    if kind == "adjudicate":
        out["claim"] = form.get("claim", "").strip()
        decision = form.get("decision", "")
        if decision not in DECISIONS:
            raise FormError("decision: upheld or rejected")
        out["decision"] = decision
        winner = form.get("winner", DRAW)
        if decision == "upheld" and winner != DRAW:
            out["winner"] = _number(winner, "winner")
    if kind == "correct_move":
        out["move"] = _number(form.get("move", ""), "move")
        out["data"] = move_data(form.get("data", ""))
    return {k: v for k, v in out.items() if v is not None}


def move_data(text: str) -> dict[str, str]:
    """A corrected move as the referee types it: ``b2-e2`` (from, to), ``H8`` (a point) or the
    device's own JSON object."""
    value = text.strip()
    if value.startswith("{"):
        try:
            data = json.loads(value)
        except ValueError:
            raise FormError("data: not a JSON object") from None
        if not isinstance(data, dict):
            raise FormError("data: not a JSON object")
        return {str(k): str(v) for k, v in data.items()}
    if "-" in value:
        frm, _, to = value.partition("-")
        return {"from": frm.strip(), "to": to.strip()}
    if not value:
        raise FormError("data: the corrected move, like b2-e2 or H8")
    return {"point": value}


def _number(text: str, field: str) -> int:
    value = text.strip()
    digits = value.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 15:
        raise FormError(f"{field}: a whole number")
    return int(value)


def described(body: dict[str, Any], offered: Choices, w: Words, match: bool) -> list[str]:
    """What the action will change, in words, a sentence a line."""
    kind = body["kind"]
    names = dict(offered.players)
    who = names.get(body.get("player", ""), body.get("player", ""))
    lines = [w(f"referee.does.{kind}", player=who, table=body.get("table", ""), board=body.get("board", ""))]
    if kind in ("warning", "violation") and match:
        lines.append(w("referee.does.match_penalty"))
    if kind == "adjust":
        lines.append(w("referee.does.scores", scores=", ".join(str(s) for s in body["scores"])))
    if kind == "artificial":
        shown = [w("referee.ai") if a is None else w(f"referee.artificial.{a}") for a in body["artificial"]]
        lines.append(w("referee.does.kinds", kinds=w("referee.list_sep").join(shown)))
        if offered.board_status.get((body["table"], body["board"])) != "ended":
            lines.append(w("referee.does.unplayed", board=body["board"], table=body["table"]))
    if kind == "reseat":
        now = offered.seat_of.get(body["player"])
        lines.append(w("referee.does.seat", seat=body["seat"] + 1))
        if now is not None:
            lines.append(w("referee.does.swap", table=now[0], seat=now[1] + 1))
    if kind == "adjudicate":
        upheld = body["decision"] == "upheld"
        lines.append(w(f"referee.does.{body['decision']}", claim=body["claim"]))
        if upheld:
            winner = body.get("winner")
            lines.append(
                w("referee.does.draw") if winner is None else w("referee.does.winner", seat=winner + 1)
            )
    if kind == "correct_move":
        lines.append(w("referee.does.replay", move=body["move"], data=request_text(body["data"])))
    if kind in BOARD_GAME_ONLY:
        lines.append(w("referee.does.version", version=body["version"]))
    lines.append(w("referee.does.audit"))
    return lines


def request_text(body: dict[str, Any]) -> str:
    """The request as the API gets it (shown under the preview, for the record)."""
    return json.dumps(body, ensure_ascii=False, sort_keys=True)


def refusal(answer: Any, status: int, w: Words) -> dict[str, str]:
    """The API's structured refusal for a page: its code, its words where the catalogue has them, and
    the API's own message."""
    error = answer if isinstance(answer, dict) else {}
    code = str(
        error.get("code") or {403: "forbidden", 404: "not_found", 409: "conflict"}.get(status, "refused")
    )
    key = f"referee.code.{code}"
    return {
        "code": code,
        "status": str(status),
        "words": w(key) if key in w.words else w("referee.code.other"),
        "message": str(error.get("error", status)),
    }


def newest_first(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(entries, key=lambda e: int(e.get("at", 0)), reverse=True)


def open_calls(status: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The round's calls, unanswered first then by time: where, who, when, and who handled it."""
    out = []
    for t in (status or {}).get("tables") or []:
        names = {p["seat"]: p.get("name") or p.get("player") or "AI" for p in t.get("players") or []}
        for b in t.get("boards") or []:
            for c in b.get("calls") or []:
                out.append(
                    {
                        "round": status["round"] if status else None,
                        "table": t["table"],
                        "board": b["board"],
                        "seat": c["seat"],
                        "name": names.get(c["seat"], ""),
                        "at": c["at"],
                        "handled": c.get("handled"),
                    }
                )
    return sorted(out, key=lambda c: (c["handled"] is not None, c["at"]))


def call_body(form: dict[str, str]) -> dict[str, Any]:
    """The "handled" form → ``POST /events/{id}/calls/handled``'s body."""
    body: dict[str, Any] = {
        "round": _number(form.get("round", ""), "round"),
        "table": form.get("table", ""),
        "board": form.get("board", ""),
        "seat": _number(form.get("seat", ""), "seat"),
        "at": _number(form.get("at", ""), "at"),
    }
    if form.get("note", "").strip():
        body["note"] = form["note"].strip()
    return body
