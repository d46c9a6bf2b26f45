"""``deckhand pairings`` and ``deckhand match-standings``: match play of pairs (docs/cli.md).

A JSON document on stdin, one JSON answer on stdout. Bad input follows the house convention of
the other document commands (docs/cli.md "Bad input"): one line on stderr naming the field
(``deckhand pairings: error: history[0].mp: …``), nothing on stdout, exit status 2, never a
traceback. A round that cannot be paired is an answer, not bad input: ``{"error", "code":
"cannot_pair"}`` on stdout with exit status 1 (RULES.md §4.3: the organiser is told).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import IO, Any

from deckhand.competition.matchplay.documents import pairings_document, standings_document
from deckhand.competition.matchplay.errors import CannotPairError, MatchPlayError

EXIT_CANNOT_PAIR = 1
EXIT_BAD_INPUT = 2

Handler = Callable[[object], dict[str, Any]]
HANDLERS: dict[str, Handler] = {"pairings": pairings_document, "match-standings": standings_document}


def add_parsers(subparsers: Any) -> None:
    """Register both subcommands on the ``deckhand`` parser's subparsers."""
    subparsers.add_parser(
        "pairings", help="match play: the next Swiss round, a knockout draw or a round-robin schedule"
    )
    subparsers.add_parser(
        "match-standings", help="match play: standings of pairs by a ranking chain of RULES.md §4.3"
    )


def handles(args: argparse.Namespace) -> bool:
    return getattr(args, "command", None) in HANDLERS


def run(command: str, stdin: IO[str], stdout: IO[str], stderr: IO[str] | None = None) -> int:
    try:
        doc = _read(stdin)
        answer = HANDLERS[command](doc)
    except CannotPairError as exc:
        _line({"error": exc.detail, "code": "cannot_pair"}, stdout)
        return EXIT_CANNOT_PAIR
    except MatchPlayError as exc:
        err = sys.stderr if stderr is None else stderr
        err.write(f"deckhand {command}: error: {' '.join(str(exc).split())}\n")
        return EXIT_BAD_INPUT
    _line(answer, stdout)
    return 0


def _read(stdin: IO[str]) -> Any:
    text = stdin.read()
    if not text.strip():
        raise MatchPlayError("", "no input: expected a JSON document on standard input")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise MatchPlayError("", f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


def _line(doc: dict[str, Any], stdout: IO[str]) -> None:
    stdout.write(json.dumps(doc, ensure_ascii=False) + "\n")
