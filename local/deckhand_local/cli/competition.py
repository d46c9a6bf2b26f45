"""``deckhand standings``, ``deckhand seat`` and ``deckhand event check`` (docs/cli.md).

Documents come on stdin, results go to stdout; bad input is one clear line on stderr naming the
field, exit status 2, never a traceback.
"""

from __future__ import annotations

import json
from typing import IO, Any

from deckhand.competition import swiss
from deckhand.competition.documents import (
    is_export,
    parse_event,
    parse_field,
    parse_names,
    parse_results,
    standings_document,
)
from deckhand.competition.grades import check_event
from deckhand.competition.render import results_html, standings_csv
from deckhand.competition.standings import standings
from deckhand.errors import DeckhandError

EXIT_BAD_INPUT = 2


class InputError(DeckhandError):
    pass


def read_document(stdin: IO[str]) -> Any:
    text = stdin.read()
    if not text.strip():
        raise InputError("no input: expected a JSON document on standard input")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


def dump(doc: Any, stdout: IO[str]) -> None:
    stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")


def run_standings(stdin: IO[str], stdout: IO[str], *, ranking: str, fmt: str) -> int:
    """Standings from board results, or from an event's export as the API gives it (its players'
    names then go with the standings, and its name heads the page)."""
    document = read_document(stdin)
    ruleset, boards = parse_results(document)
    comparisons, table = standings(boards, ruleset, ranking)
    doc = standings_document(comparisons, table, parse_names(document) if is_export(document) else None)
    if fmt == "json":
        dump(doc, stdout)
    elif fmt == "csv":
        stdout.write(standings_csv(doc))
    else:
        event = document.get("event") if is_export(document) else None
        name = event.get("name") if isinstance(event, dict) else None
        title = f"{name} — standings" if isinstance(name, str) and name else f"Standings — {ruleset}"
        stdout.write(results_html(doc, title=title))
    return 0


def run_seat(stdin: IO[str], stdout: IO[str]) -> int:
    field = parse_field(read_document(stdin))
    k, groups = field["seats_per_table"], field["groups"]
    if "standings" in field:
        tables = swiss.next_round(field["standings"], k, groups)
    else:
        tables = swiss.first_round(field["players"], k, groups, field["seed"])
    dump({"tables": [{"group": t.group, "table": t.table, "seats": list(t.seats)} for t in tables]}, stdout)
    return 0


def run_event_check(stdin: IO[str], stdout: IO[str]) -> int:
    violations = check_event(parse_event(read_document(stdin)))
    dump(
        {"ok": not violations, "violations": [{"rule": v.rule, "message": v.message} for v in violations]},
        stdout,
    )
    return 1 if violations else 0
