"""What every API request must fit before any route sees it: a path whose segments are no longer
than an id may be, and a body that nests no deeper than a body needs. Checked on the raw event, so
neither the parser (``RecursionError`` on a body nested thousands deep) nor DynamoDB (its key-length
``ValidationException`` on a 2,000-character event id) ever meets it: the answer is a 400 in the one
``{"error": …}`` shape."""

from __future__ import annotations

import json
import re
from typing import Any

from .infra.json_depth import MAX_DEPTH, too_deep

MAX_SEGMENT = 64  # an id's longest (bodies.ID); round numbers and route names are shorter
MAX_PATH = 512
# The POST routes that take no body (start a round, retry a deal): like every GET, nothing may be sent.
NO_BODY = re.compile(r"^/events/[^/]+/rounds(/[^/]+/deal)?/?$")
EMPTY = ("", "{}", "null")


def refusal(event: dict[str, Any]) -> str | None:
    """Why the request is refused before routing (None: it fits)."""
    path = event.get("path") or ""
    if len(path) > MAX_PATH or any(len(segment) > MAX_SEGMENT for segment in path.split("/")):
        return f"the path is too long: each segment at most {MAX_SEGMENT} characters (an id's longest)"
    body = event.get("body")
    if isinstance(body, str) and too_deep(body):
        return f"the body nests deeper than {MAX_DEPTH} levels"
    method = str(event.get("httpMethod") or "").upper()
    takes_none = method in ("GET", "DELETE", "HEAD") or (method == "POST" and NO_BODY.match(path))
    if takes_none and isinstance(body, str) and "".join(body.split()) not in EMPTY:
        return f"{method} {path} takes no body: nothing may be sent with it"
    return None


def refused(message: str) -> dict[str, Any]:
    """The API Gateway proxy answer for a refusal."""
    return {
        "statusCode": 400,
        "headers": {"Content-Type": "application/json"},
        "body": json.dumps({"error": message}),
        "isBase64Encoded": False,
    }
