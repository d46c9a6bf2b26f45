"""Writes docs/openapi.json from the API's routes and models (`make openapi`); a test keeps it current."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from deckhand.service.api import build_app

DOC = Path(__file__).resolve().parents[1] / "docs" / "openapi.json"


def render() -> str:
    app = build_app(lambda: None)  # type: ignore[arg-type, return-value]
    schema = json.loads(
        app.get_openapi_json_schema(
            title="Deckhand organiser API",
            version="1.0.0",
            summary="Events, players, tables, rounds, results, standings, referee actions, export.",
            description="Every route requires IAM (SigV4) authorization at API Gateway.",
        )
    )
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    DOC.write_text(render())
    print(f"wrote {DOC.relative_to(Path.cwd()) if DOC.is_relative_to(Path.cwd()) else DOC}", file=sys.stderr)
