"""The venue's parts that run as processes of their own (DynamoDB Local, moto's server, the brokers):
wait until one listens, stop one for good, stop one a dead venue left behind."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from deckhand.errors import VenueStartError

Spawned = Callable[[int], None]  # told a server's process id as soon as it exists (before it listens)


def wait_listening(process: subprocess.Popen[bytes], host: str, port: int, timeout: float, name: str) -> None:
    """Return once ``process`` accepts connections on ``host:port``; stop it and raise if it never does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise VenueStartError(f"{name} exited at start (is port {port} free?)")
        try:
            with socket.create_connection((host, port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    stop_process(process)
    raise VenueStartError(f"{name} did not listen on {host}:{port} within {timeout:.0f} s")


def stop_process(process: subprocess.Popen[bytes] | None, timeout: float = 10) -> None:
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


# What a server the venue starts (database, broker) has in its command line.
SERVER_MARKERS = (
    b"DynamoDBLocal.jar",
    b"moto.server",
    b"deckhand_local.venue.broker",
    b"tools/broker/broker.mjs",
    b"mosquitto",
)


def is_venue_server(pid: int) -> bool:
    """Whether ``pid`` is still one of the venue's servers, not a reused process id."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return any(marker in command for marker in SERVER_MARKERS)


def stop_orphan(pid: int, timeout: float = 15) -> None:
    """Stop the server a venue killed with SIGKILL left running (it has a session of its own), so a
    restarted venue can take its port and data files."""
    if not is_venue_server(pid):
        return
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and is_venue_server(pid):
        time.sleep(0.05)
    if is_venue_server(pid):
        os.kill(pid, signal.SIGKILL)
