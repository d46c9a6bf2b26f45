"""The stack's Lambda handlers, loaded from ``functions/`` as Lambda loads them, and invoked locally.

Asynchronous invocations (deal, score) go through a queue and a worker thread, as Lambda's event
invocations do: the caller does not wait, failures are retried twice, then counted as failed.
"""

from __future__ import annotations

import importlib.util
import os
import queue
import threading
import traceback
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

FUNCTIONS = ("api", "deal", "play", "score", "timers")


def repository_root() -> Path:
    # local/deckhand_local/venue/lambdas.py: three levels below the checkout's root.
    return Path(__file__).resolve().parents[3]


class Context:
    """The parts of a Lambda context that Powertools reads."""

    memory_limit_in_mb = 512
    aws_request_id = "local"

    def __init__(self, name: str) -> None:
        self.function_name = f"deckhand-{name}-local"
        self.invoked_function_arn = f"arn:aws:lambda:local:000000000000:function:{self.function_name}"

    @staticmethod
    def get_remaining_time_in_millis() -> int:
        return 30_000


def quiet_powertools() -> None:
    """Local runs print progress, not one JSON log line and one metrics blob per invocation."""
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", "Deckhand")
    # With metrics off, an invocation that recorded none is normal, not worth a warning on the console.
    warnings.filterwarnings("ignore", message="No application metrics to publish", category=UserWarning)


def load_handlers(root: Path | None = None) -> dict[str, ModuleType]:
    root = root or repository_root()
    quiet_powertools()
    modules = {}
    for name in FUNCTIONS:
        path = root / "functions" / name / "app.py"
        if not path.exists():
            raise FileNotFoundError(f"{path} is missing: run the venue from a checkout of the repository")
        spec = importlib.util.spec_from_file_location(f"deckhand_function_{name}", path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        modules[name] = module
    return modules


def call(module: ModuleType, name: str, event: dict[str, Any]) -> Any:
    """Invoke a handler in-process. Metrics are disabled locally, and Powertools keeps (and, past 100
    values, prints) disabled metrics, so they are cleared after every invocation."""
    try:
        return module.handler(event, Context(name))
    finally:
        metrics = getattr(module, "metrics", None)
        if metrics is not None:
            metrics.clear_metrics()


class AsyncInvoker:
    """``invoke(name, payload)`` like Lambda's InvocationType=Event: queued, retried twice."""

    RETRIES = 2

    def __init__(self, handlers: dict[str, ModuleType]) -> None:
        self.handlers = handlers
        self.jobs: queue.Queue[tuple[str, dict[str, Any]] | None] = queue.Queue()
        self.failed: list[tuple[str, dict[str, Any], str]] = []
        self.pending = 0
        self._lock = threading.Lock()
        self.worker = threading.Thread(target=self._work, name="lambda-async", daemon=True)
        self.worker.start()

    def __call__(self, name: str, payload: dict[str, Any]) -> None:
        with self._lock:
            self.pending += 1
        self.jobs.put((name, payload))

    def _work(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                return
            name, payload = job
            for attempt in range(self.RETRIES + 1):
                try:
                    call(self.handlers[name], name, dict(payload))
                    break
                except Exception:  # noqa: BLE001 - kept for the failure destination, like Lambda
                    if attempt == self.RETRIES:
                        self.failed.append((name, payload, traceback.format_exc(limit=3)))
            with self._lock:
                self.pending -= 1

    def close(self) -> None:
        self.jobs.put(None)
