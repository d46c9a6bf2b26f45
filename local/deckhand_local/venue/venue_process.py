"""``deckhand venue`` as a child process that a test or bench can kill with SIGKILL and start again on
the same state folder and ports, as a venue's laptop losing power and booting again would."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from deckhand.errors import VenueStartError

from .api_client import ApiClient
from .credentials import VenueCredentials
from .processes import stop_orphan
from .provisioning import VenueLink

READY = "Ctrl-C stops it"


class VenueProcess:
    """One venue's process over its lifetimes: ``start`` (again after ``kill``) on the same ports and
    data; each start's output goes to a log file in the state folder, never to a pipe nobody reads."""

    def __init__(self, state: Path, ports: tuple[int, int, int], *extra: str) -> None:
        self.state = state
        self.ports = ports  # DynamoDB, MQTT, HTTP
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.start_seconds: list[float] = []  # how long each start took until the venue answered
        self.server: int | None = None  # the database server of the last start killed
        self.refusals: list[str] = []  # starts refused for a port still taken, and what held it

    @property
    def mqtt_port(self) -> int:
        return self.ports[1]

    def command(self) -> list[str]:
        command = [sys.executable, "-m", "deckhand_local.cli.main", "venue", "--state", str(self.state)]
        for option, port in zip(("--dynamodb-port", "--mqtt-port", "--http-port"), self.ports, strict=True):
            command += [option, str(port)]
        return [*command, *self.extra]

    def start(self, timeout: float = 120, tries: int = 5) -> float:
        """Start the venue and wait until it says it runs; the seconds that took. A start refused
        because a port is still taken is tried again a little later (what held it is noted)."""
        began = time.monotonic()
        for attempt in range(tries):
            try:
                self._start(timeout)
                break
            except VenueStartError as exc:
                if "already in use" not in str(exc) or attempt == tries - 1:
                    raise
                self.refusals.append(f"{exc}; listening: {listeners(self.ports)}")
                if isinstance(self.server, int):
                    stop_orphan(self.server)  # the venue.json naming it went with the refused start
                time.sleep(2.0)
        seconds = time.monotonic() - began
        self.start_seconds.append(seconds)
        return seconds

    def _start(self, timeout: float) -> None:
        self.state.mkdir(parents=True, exist_ok=True)
        self.starts += 1
        log = self.state / f"venue-{self.starts}.log"
        began = time.monotonic()
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                self.command(),
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        while READY not in log.read_text(errors="replace"):
            if self.process.poll() is not None or time.monotonic() - began > timeout:
                self.kill()
                raise VenueStartError(f"the venue did not start: {log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no handler runs, nothing is flushed or stopped (its database server lives on)."""
        self.server = self.info().get("dynamodb_pid", self.server)
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        """A clean stop (SIGINT), or at least nothing left running: a killed venue's orphaned database
        server is stopped too."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=90)
            except subprocess.TimeoutExpired:
                self.kill()
        server = self.info().get("dynamodb_pid")
        if isinstance(server, int):
            stop_orphan(server)

    def info(self) -> dict[str, Any]:
        """The running venue's venue.json (API, token, database endpoint and table); {} when none."""
        try:
            info: dict[str, Any] = json.loads((self.state / "venue.json").read_text())
        except (OSError, ValueError):
            return {}
        return info

    def link(self) -> VenueLink:
        """Where and with which credentials this venue's devices connect (its key is in the state folder)."""
        return VenueLink(self.mqtt_port, VenueCredentials.for_state(self.state))

    def api(self) -> ApiClient:
        """An organiser API client for the current start (each start has a new token)."""
        return ApiClient(state_dir=self.state)


def listeners(ports: tuple[int, ...]) -> str:
    """Which processes listen on ``ports`` (``ss``), for a start refused because one is taken."""
    try:
        out = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    found = [
        line.split()[3] + " " + line.split()[-1]
        for line in out.splitlines()
        if any(f":{p} " in line + " " for p in ports)
    ]
    return "; ".join(found) or "nothing"
