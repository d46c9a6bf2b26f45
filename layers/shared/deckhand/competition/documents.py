"""The JSON documents of the competition CLI (docs/cli.md): parsing with errors that name the field.

Kept apart from the algorithms so the same documents serve the CLI, the API and the results export.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from ..engines.registry import DUPLICATE_RULESETS as RULESETS
from ..errors import DeckhandError
from .artificial import Artificial
from .grades import Change, Entrant, EventPlan
from .standings import BoardResults, Comparison, Result, Standing


class DocumentError(DeckhandError):
    """Bad input document; the message starts with the path of the offending field."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path


def _get(
    obj: Any,
    key: str,
    path: str,
    kind: type | tuple[type, ...],
    *,
    default: Any = ...,
    optional: bool = False,
) -> Any:
    if not isinstance(obj, dict):
        raise DocumentError(path or "document", "must be a JSON object")
    where = f"{path}.{key}" if path else key
    if key not in obj:
        if default is not ...:
            return default
        raise DocumentError(where, "is missing")
    value = obj[key]
    if optional and value is None:
        return None
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise DocumentError(where, f"must be {_kind_name(kinds)}, got {value!r}")
    if not isinstance(value, kinds):
        raise DocumentError(where, f"must be {_kind_name(kinds)}, got {value!r}")
    return value


def _kind_name(kinds: tuple[type, ...]) -> str:
    names = {
        str: "a string",
        int: "a whole number",
        float: "a number",
        bool: "true or false",
        list: "a list",
        dict: "an object",
    }
    return " or ".join(dict.fromkeys(names.get(k, k.__name__) for k in kinds))


def _date(value: Any, path: str) -> dt.date:
    if not isinstance(value, str):
        raise DocumentError(path, f"must be a date YYYY-MM-DD, got {value!r}")
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise DocumentError(path, f"must be a date YYYY-MM-DD, got {value!r}") from None


def is_export(doc: Any) -> bool:
    """An event's export (``{"event", "players", "rounds", "results", "standings"}``), not bare results."""
    return isinstance(doc, dict) and "ruleset" not in doc and isinstance(doc.get("results"), dict)


def parse_results(doc: Any) -> tuple[str, list[BoardResults]]:
    """``{"ruleset": …, "boards": [{"board", "round", "group", "results": [...]}]}``, or an event's
    export, whose ``results`` are that document."""
    where = ""
    if is_export(doc):
        if "matches" in doc["results"]:
            raise DocumentError(
                "results", "a match event's export: its standings are in it (deckhand match-standings)"
            )
        doc, where = doc["results"], "results"
    ruleset = _get(doc, "ruleset", where, str)
    if ruleset not in RULESETS:
        raise DocumentError(
            f"{where}.ruleset" if where else "ruleset",
            f"unknown rule set {ruleset!r}; use one of {', '.join(sorted(RULESETS))}",
        )
    boards = []
    for i, b in enumerate(_get(doc, "boards", where, list)):
        path = f"{where}.boards[{i}]" if where else f"boards[{i}]"
        board = str(_get(b, "board", path, (str, int)))
        round_no = _get(b, "round", path, int, default=1)
        group = str(_get(b, "group", path, (str, int), default="1"))
        results = []
        for j, r in enumerate(_get(b, "results", path, list)):
            rp = f"{path}.results[{j}]"
            seat = _get(r, "seat", rp, int)
            if seat < 0:
                raise DocumentError(f"{rp}.seat", f"must be ≥ 0, got {seat}")
            play_time = _get(r, "play_time", rp, (int, float), default=0.0)
            if play_time < 0:
                raise DocumentError(f"{rp}.play_time", f"must be ≥ 0, got {play_time}")
            results.append(
                Result(
                    player=_get(r, "player", rp, str),
                    table=str(_get(r, "table", rp, (str, int), default="1")),
                    seat=seat,
                    score=_get(r, "score", rp, (int, float)),
                    play_time=float(play_time),
                    ai=_get(r, "ai", rp, bool, default=False),
                    artificial=_artificial(r, rp),
                )
            )
        if not results:
            raise DocumentError(f"{path}.results", "has no results")
        boards.append(BoardResults(board, round_no, group, tuple(results)))
    return ruleset, boards


def _artificial(r: Any, path: str) -> Artificial | None:
    """A referee's artificial score (``average_plus``, …) on a result, or none."""
    kind = _get(r, "artificial", path, str, default=None, optional=True)
    if kind is None:
        return None
    try:
        return Artificial(kind)
    except ValueError:
        raise DocumentError(
            f"{path}.artificial", f"unknown artificial score {kind!r}; use one of {', '.join(Artificial)}"
        ) from None


def results_document(ruleset: str, boards: list[BoardResults]) -> dict[str, Any]:
    """The inverse of :func:`parse_results`: what an export writes so anyone can recompute standings."""
    return {
        "ruleset": ruleset,
        "boards": [
            {
                "board": b.board,
                "round": b.round,
                "group": b.group,
                "results": [
                    {
                        "player": r.player,
                        "table": r.table,
                        "seat": r.seat,
                        "score": r.score,
                        "play_time": r.play_time,
                        **({"ai": True} if r.ai else {}),
                        **({"artificial": r.artificial.value} if r.artificial else {}),
                    }
                    for r in b.results
                ],
            }
            for b in boards
        ],
    }


def parse_names(doc: Any) -> dict[str, str]:
    """The registered players' names of an event's export (``players``: ``[{"id", "name", …}]``), by
    id; none for bare results."""
    if not is_export(doc):
        return {}
    names = {}
    for i, p in enumerate(_get(doc, "players", "", list, default=[])):
        path = f"players[{i}]"
        names[_get(p, "id", path, str)] = _get(p, "name", path, str)
    return names


def standings_document(
    comparisons: list[Comparison], table: list[Standing], names: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Board comparisons and standings; with ``names`` (the registered players'), each standing
    carries the player's ``name`` too (null for one without: an unregistered id)."""
    return {
        "boards": [
            {
                "board": c.board,
                "round": c.round,
                "group": c.group,
                "seat": c.seat,
                "results": [
                    {
                        "player": o.player,
                        "mp": o.mp,
                        "mp_pct": o.mp_pct,
                        "place": o.place,
                        "rank_points": o.rank_points_cents / 100,
                        **({"artificial": o.artificial.value} if o.artificial else {}),
                    }
                    for o in c.outcomes
                ],
            }
            for c in comparisons
        ],
        "standings": [
            {
                "player": s.player,
                **({"name": names.get(s.player)} if names is not None else {}),
                "place": s.place,
                "total": s.total_cents / 100,
                "tie_break": s.tie_break,
            }
            for s in table
        ],
    }


def parse_field(doc: Any) -> dict[str, Any]:
    """``deckhand seat`` input: standings (later rounds) or players + seed (round 1)."""
    k = _get(doc, "seats_per_table", "", int)
    groups = _get(doc, "groups", "", int, default=1)
    has_standings = isinstance(doc, dict) and "standings" in doc
    has_players = isinstance(doc, dict) and "players" in doc
    if has_standings == has_players:
        raise DocumentError(
            "standings", "give either standings (a later round) or players and seed (round 1)"
        )
    key = "standings" if has_standings else "players"
    names = _get(doc, key, "", list)
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name:
            raise DocumentError(f"{key}[{i}]", f"must be a player id (a non-empty string), got {name!r}")
    out: dict[str, Any] = {"seats_per_table": k, "groups": groups, key: names}
    if has_players:
        out["seed"] = _get(doc, "seed", "", str)
    return out


def parse_event(doc: Any) -> EventPlan:
    entrants = []
    for i, e in enumerate(_get(doc, "players", "", list, default=[])):
        path = f"players[{i}]"
        if isinstance(e, str):
            entrants.append(Entrant(e))
            continue
        entrants.append(
            Entrant(
                _get(e, "id", path, str),
                _get(e, "silver_points", path, int, default=0),
                _get(e, "red_points", path, int, default=0),
            )
        )
    changes = []
    for i, c in enumerate(_get(doc, "changes", "", list, default=[])):
        path = f"changes[{i}]"
        changes.append(Change(_date(_get(c, "date", path, str), f"{path}.date"), _get(c, "field", path, str)))

    def optional_date(key: str) -> dt.date | None:
        value = _get(doc, key, "", str, default=None, optional=True)
        return None if value is None else _date(value, key)

    return EventPlan(
        name=_get(doc, "name", "", str),
        grade=_get(doc, "grade", "", str),
        organiser=_get(doc, "organiser", "", str),
        venue=_get(doc, "venue", "", bool),
        rounds=_get(doc, "rounds", "", int),
        boards=_get(doc, "boards", "", int),
        fee=_get(doc, "fee", "", int, default=0),
        start=_date(_get(doc, "start", "", str), "start"),
        registration_opens=optional_date("registration_opens"),
        changes=tuple(changes),
        entrants=tuple(entrants),
        ended=optional_date("ended"),
        exported=optional_date("exported"),
    )
