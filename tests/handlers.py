"""Loads the Lambda handlers as Lambda would (each folder's app.py) and feeds them sample-shaped events."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EVENTS = ROOT / "events"


class FakeContext:
    function_name = "deckhand-test"
    memory_limit_in_mb = 512
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:deckhand-test"
    aws_request_id = "req-1"

    @staticmethod
    def get_remaining_time_in_millis() -> int:
        return 30_000


def load_handler(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"deckhand_fn_{name}", ROOT / "functions" / name / "app.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sample(name: str) -> dict[str, Any]:
    return json.loads((EVENTS / name).read_text())


def api_event(
    name: str, *, path: str | None = None, body: Any = ..., method: str | None = None
) -> dict[str, Any]:
    event = copy.deepcopy(sample(name))
    if path is not None:
        event["path"] = path
    if method is not None:
        event["httpMethod"] = method
    if body is not ...:
        event["body"] = body if isinstance(body, str) or body is None else json.dumps(body)
    return event
