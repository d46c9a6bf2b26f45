"""The stack's Lambda handlers, loaded from ``functions/`` as Lambda loads them, and invoked locally.

Asynchronous invocations (deal, score) go through a queue and a worker thread, as Lambda's event
invocations do: the caller does not wait, failures are retried twice after a pause (a fault that
passes — a database restarting, a lost race — has time to pass), then counted as failed. As
Lambda's queue does, the venue's survives a crash: each invocation is written to the journal folder
(and synced) before the caller goes on, and removed once done; a venue started again runs what its
journal still holds.
"""

from __future__ import annotations

import importlib.util
import json
import os
import queue
import threading
import traceback
import uuid
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

FUNCTIONS = ("api", "deal", "play", "presence", "score", "timers")


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


class OneAtATime:
    """A handler invoked as one Lambda container runs it: one invocation at a time. The venue's HTTP
    server answers on a thread per request, and the API's resolver (Powertools) keeps the request it
    resolves on the app itself — its event, identity and route arguments: two requests resolved at once
    would mix them (one organiser's call run with another's identity, or the public site's)."""

    def __init__(self, module: ModuleType, name: str) -> None:
        self.module = module
        self.name = name
        self.lock = threading.Lock()

    def __call__(self, event: dict[str, Any]) -> Any:
        with self.lock:
            return call(self.module, self.name, event)


Job = tuple[str, dict[str, Any], Path | None]  # function, payload, its journal file
Attempt = tuple[Job, int]  # a job and how many times it has failed so far


# Work the venue's own sweep does (every second): a paced deal's cards are given out by it, so its
# pacer (service/schedule/pacing.py: AWS's schedule runs once a minute) is not run here.
SWEPT_HERE = frozenset({"pace"})


class AsyncInvoker:
    """``invoke(name, payload)`` like Lambda's InvocationType=Event: queued, retried twice; journaled
    in ``journal`` (a folder) when given, so a crash loses no invocation."""

    RETRIES = 2
    # The pause before each retry. Lambda waits a minute, then two; the venue's sweep (every second)
    # re-drives what a lost invocation leaves undone, so its pauses are seconds: long enough for what
    # failed to pass, and a failing job waits on a timer, never holding up the jobs behind it.
    BACKOFF_SECONDS = (1.0, 2.0)

    def __init__(self, handlers: dict[str, ModuleType], journal: Path | None = None) -> None:
        self.handlers = handlers
        self.journal = journal
        self.jobs: queue.Queue[Attempt | None] = queue.Queue()
        self.failed: list[tuple[str, dict[str, Any], str]] = []
        self.pending = 0
        self._lock = threading.Lock()
        if journal is not None:
            journal.mkdir(parents=True, exist_ok=True)
            for path in sorted(journal.glob("*.json"), key=lambda p: p.stat().st_mtime_ns):
                self._resume(path)
        self.worker = threading.Thread(target=self._work, name="lambda-async", daemon=True)

    def start(self) -> AsyncInvoker:
        """Begin running invocations (the journal's first): once what they need (runtime, broker) is up."""
        self.worker.start()
        return self

    def __call__(self, name: str, payload: dict[str, Any]) -> None:
        if name in SWEPT_HERE:
            return
        path = None
        if self.journal is not None:
            path = self.journal / f"{uuid.uuid4().hex}.json"
            staged = path.with_suffix(".tmp")
            with staged.open("w") as out:
                json.dump({"function": name, "payload": payload}, out)
                out.flush()
                os.fsync(out.fileno())
            staged.replace(path)  # whole or absent: a crash mid-write leaves only the .tmp
        self._enqueue((name, payload, path))

    def _resume(self, path: Path) -> None:
        try:
            job = json.loads(path.read_text())
            name, payload = job["function"], job["payload"]
        except (OSError, ValueError, KeyError, TypeError):
            path.rename(path.with_suffix(".unreadable"))  # kept for a person to look at, never run
            return
        self._enqueue((name, payload, path))

    def _enqueue(self, job: Job) -> None:
        with self._lock:
            self.pending += 1
        self.jobs.put((job, 0))

    def _retry_later(self, job: Job, failures: int) -> None:
        """The job back in the queue after its pause (still pending, still in the journal meanwhile)."""
        timer = threading.Timer(self.BACKOFF_SECONDS[failures - 1], self.jobs.put, args=((job, failures),))
        timer.daemon = True
        timer.start()

    def _work(self) -> None:
        while True:
            attempt = self.jobs.get()
            if attempt is None:
                return
            job, failures = attempt
            name, payload, path = job
            try:
                call(self.handlers[name], name, dict(payload))
            except Exception:  # noqa: BLE001 - kept for the failure destination, like Lambda
                if failures < self.RETRIES:
                    self._retry_later(job, failures + 1)
                    continue
                self.failed.append((name, payload, traceback.format_exc(limit=3)))
            if path is not None:
                path.unlink(missing_ok=True)  # done, or failed for good (kept in ``failed``)
            with self._lock:
                self.pending -= 1

    def close(self) -> None:
        self.jobs.put(None)
