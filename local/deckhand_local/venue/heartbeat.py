"""The venue's heartbeat, and the outages it reveals: a running venue rewrites a small file in its
state folder every second; a clean stop removes it. A venue that finds one on starting died (kill -9,
a power cut): it was down from that last beat until it runs again, and the players' clocks must not
have run meanwhile (``service.outage``).

Each outage is written down (``outages.json``) before any clock is moved and marked done after, so a
venue that dies while moving them finishes the job on its next start with the same figures, and a
board already moved is not moved twice (it keeps which outage it was moved for).
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

from deckhand.service.infra.clock import now_ms
from deckhand.service.refereeing.outage import Outage, Stopped, stop_clocks

from .state_folder import write_private

BEAT_SECONDS = 1.0
KEPT = 10  # outages made up for that stay listed (for whoever looks at the state folder)
log = logging.getLogger(__name__)


class Heartbeat:
    """A venue's sign of life in its state folder, and the outages not yet made up for."""

    def __init__(self, state_dir: Path, beat_seconds: float = BEAT_SECONDS) -> None:
        self.beat_file = state_dir / "heartbeat"
        self.outages_file = state_dir / "outages.json"
        self.beat_seconds = beat_seconds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def last_beat(self) -> int | None:
        """The last beat of a venue that did not stop cleanly (ms), None if it did (or never ran)."""
        try:
            return int(self.beat_file.read_text().strip())
        except (OSError, ValueError):
            return None

    def outages(self) -> list[dict[str, Any]]:
        try:
            found = json.loads(self.outages_file.read_text())
        except (OSError, ValueError):
            return []
        return [o for o in found if isinstance(o, dict) and isinstance(o.get("since"), int)]

    def _write_outages(self, outages: list[dict[str, Any]]) -> None:
        write_private(self.outages_file, json.dumps(outages))

    def note_restart(self) -> bool:
        """Before the first beat: an outage is noted if the venue before died (True)."""
        since = self.last_beat()
        outages = self.outages()
        if since is None or any(o["since"] == since for o in outages):
            return False
        kept = [o for o in outages if not o.get("done")] + [o for o in outages if o.get("done")][-KEPT:]
        self._write_outages([*kept, {"since": since, "until": None, "done": False}])
        return True

    def forget(self) -> None:
        """A fresh start: nothing to make up for (the data the clocks were in is gone)."""
        self.beat_file.unlink(missing_ok=True)
        self.outages_file.unlink(missing_ok=True)

    def start(self) -> None:
        """Beat now and every ``beat_seconds`` until stopped."""
        self.beat()
        self._thread = threading.Thread(target=self._run, name="heartbeat", daemon=True)
        self._thread.start()

    def beat(self) -> None:
        write_private(self.beat_file, str(now_ms()))

    def _run(self) -> None:
        while not self._stop.wait(self.beat_seconds):
            try:
                self.beat()
            except OSError as exc:  # a full disk: the next beat tries again
                log.warning("heartbeat not written: %s", exc)

    def make_up(self, grace_seconds: float = 0.0) -> list[tuple[Outage, Stopped]]:
        """Stop the clocks for every outage noted and not yet made up for (the database is up, nothing
        plays yet), until ``grace_seconds`` from now: the players are back at their handsets only once
        the handsets are. Each outage's end is fixed the first time, so a redo moves by the same time."""
        outages = self.outages()
        done: list[tuple[Outage, Stopped]] = []
        for entry in outages:
            if entry.get("done"):
                continue
            if not isinstance(entry.get("until"), int):
                entry["until"] = now_ms() + round(grace_seconds * 1000)
                self._write_outages(outages)
            outage = Outage(entry["since"], entry["until"])
            stopped = stop_clocks(outage)
            entry["done"] = True
            self._write_outages(outages)
            log.warning(
                "clocks stopped for %d s after the venue restarted: %d boards, %d matches",
                round(outage.ms / 1000),
                stopped.boards,
                stopped.matches,
            )
            done.append((outage, stopped))
        return done

    def stop(self) -> None:
        """A clean stop: no more beats, and no beat left behind (the next start is no restart)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.beat_file.unlink(missing_ok=True)
