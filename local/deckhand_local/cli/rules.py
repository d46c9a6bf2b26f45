"""``deckhand rules``: a referee's calculator over JSON Lines (docs/cli.md).

One JSON object out for every line in, in order; a bad line gets ``{"error": …}`` and the next line
is still read, so a referee can paste a whole session without it stopping at the first typo.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import IO, Any

from deckhand.engines.registry import by_alias
from deckhand.engines.spec import Referee
from deckhand.errors import DeckhandError

Handler = Callable[[dict[str, Any]], dict[str, Any]]


def answer(referee: Referee, line: str) -> dict[str, Any]:
    """The reply to one input line; never raises for bad input."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not JSON: {exc.msg} at column {exc.colno}"}
    if not isinstance(request, dict):
        return {"error": "each line must be a JSON object"}
    op = request.get("op")
    ops = referee.ops()
    handler = ops.get(op) if isinstance(op, str) else None
    if handler is None:
        return {"error": f"unknown op {op!r}; use {', '.join(ops)}"}
    try:
        result: dict[str, Any] = handler(request)
        return result
    except DeckhandError as exc:
        return {"error": str(exc)}


def run(game: str, stdin: IO[str], stdout: IO[str]) -> int:
    referee = by_alias(game).referee()
    for line in stdin:
        reply = answer(referee, line.rstrip("\r\n"))
        stdout.write(json.dumps(reply, separators=(",", ":"), ensure_ascii=False) + "\n")
        stdout.flush()
    return 0
