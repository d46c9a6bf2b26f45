"""The venue's parts that run as processes of their own (moto's server, mosquitto): wait until one
listens, stop one for good."""

from __future__ import annotations

import socket
import subprocess
import time

from deckhand.errors import VenueStartError


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
