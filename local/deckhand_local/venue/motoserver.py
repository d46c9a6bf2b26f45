"""moto's DynamoDB server in its own process: the venue's other parts keep this process's core, the
server gets the machine's other one (in one process both would share one interpreter lock)."""

from __future__ import annotations

import subprocess
import sys

from deckhand.errors import VenueStartError

from .processes import Spawned, stop_process, wait_listening


class MotoServer:
    def __init__(self, port: int, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30.0, spawned: Spawned | None = None) -> MotoServer:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", self.host, "-p", str(self.port)],
            stdout=subprocess.DEVNULL,  # it logs every request
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # Ctrl-C reaches the venue, which stops it
        )
        if spawned is not None:
            spawned(self.process.pid)
        try:
            wait_listening(self.process, self.host, self.port, timeout, "moto's server")
        except VenueStartError:
            self.process = None
            raise
        return self

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def stop(self) -> None:
        process, self.process = self.process, None
        stop_process(process)
