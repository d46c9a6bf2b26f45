"""Writes docs/openapi.json from the API's routes and models (`make openapi`); a test keeps it current."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from deckhand.service.api import build_app
from deckhand.service.storage import idempotency

DOC = Path(__file__).resolve().parents[1] / "docs" / "openapi.json"


def render() -> str:
    app = build_app(lambda: None)  # type: ignore[arg-type, return-value]
    schema = json.loads(
        app.get_openapi_json_schema(
            title="Deckhand organiser API",
            version="1.0.0",
            summary="Events, players, tables, rounds, results, standings, referee actions, export.",
            description=(
                "Every route requires IAM (SigV4) authorization at API Gateway. The caller's verified "
                "identity owns the events it creates; the owner grants organiser and referee roles "
                "(PUT /events/{event_id}/roles), and every route that changes an event checks them "
                "(403). Results, standings and exports show rounds that are done only (docs/access.md)."
            ),
        )
    )
    return json.dumps(with_refusals(with_idempotency(schema)), indent=2, sort_keys=True) + "\n"


def with_refusals(schema: dict[str, Any]) -> dict[str, Any]:
    """Every refusal has the one shape, Error: a 403 on every route (no verified identity, or no role
    for this event), and a bad body or parameter (422) answered as Error too, naming the field."""
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for operations in schema["paths"].values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            responses["403"] = {
                "description": "No verified identity, or the caller has no role for this in this event",
                "content": error,
            }
            responses.setdefault(
                "400",
                {
                    "description": (
                        "Refused before routing: a path segment over 64 characters, a path over 512, or a "
                        "body nesting deeper than 32 levels (service/api_bounds.py)"
                    ),
                    "content": error,
                },
            )
            if "422" in responses:
                responses["422"]["content"] = error
    schema["components"]["schemas"].pop("HTTPValidationError", None)
    return schema


def with_idempotency(schema: dict[str, Any]) -> dict[str, Any]:
    """Every POST's Idempotency-Key header and its answers: the rule is applied to every POST by one
    middleware (service/storage/idempotency.py), not declared route by route, so it is documented the same way."""
    components = schema.setdefault("components", {})
    components.setdefault("parameters", {})["IdempotencyKey"] = {
        "name": idempotency.HEADER,
        "in": "header",
        "required": False,
        "schema": {"type": "string", "pattern": idempotency.KEY_PATTERN.pattern, "maxLength": 255},
        "description": (
            "Makes the request safe to retry: a request with the key of an earlier one (same caller, "
            "method and path) is answered with the first answer and changes nothing. Use a new key "
            "(a UUID) for each new request, the same one for its retries. Answers of 400 and above are "
            "not remembered: a retry of a refused request runs again. Remembered for 24 hours. Without "
            "the header, the request is not protected."
        ),
    }
    components.setdefault("schemas", {})["Error"] = {
        "type": "object",
        "properties": {
            "error": {"type": "string", "description": "What was refused and why, for people"},
            "field": {
                "type": "string",
                "description": "The body's field at fault (a bad body): players.0.name",
            },
            "code": {"type": "string", "description": "A stable reason code (referee actions)"},
            "violations": {"type": "array", "items": {"type": "object"}, "description": "Grade rules broken"},
        },
        "required": ["error"],
        "title": "Error",
    }
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for operations in schema["paths"].values():
        post = operations.get("post")
        if post is None:
            continue
        post.setdefault("parameters", []).append({"$ref": "#/components/parameters/IdempotencyKey"})
        responses = post.setdefault("responses", {})
        responses["400"] = {
            "description": "A malformed Idempotency-Key, or a request refused",
            "content": error,
        }
        responses["409"] = {
            "description": (
                "A request with this Idempotency-Key is still being processed (with Retry-After: retry "
                "it), or the request conflicts with the event's state"
            ),
            "content": error,
        }
        responses["422"] = {
            "description": "A bad body (the field named), or the Idempotency-Key was used with a different body",
            "content": error,
        }
    return schema


if __name__ == "__main__":
    DOC.write_text(render())
    print(f"wrote {DOC.relative_to(Path.cwd()) if DOC.is_relative_to(Path.cwd()) else DOC}", file=sys.stderr)
