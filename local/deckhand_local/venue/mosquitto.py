"""mosquitto as the venue's broker (``deckhand venue --broker mosquitto``): a C broker in its own
process, for venues with many tables. Optional — the embedded broker needs nothing installed.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from deckhand.errors import VenueStartError

from .processes import Spawned, stop_process, wait_listening

# Bound to loopback only. Nagle off, or a handler's five messages leave one acknowledgement apart.
# A device's queued QoS 1 messages are never dropped (mosquitto's default drops past 1,000).
CONFIG = """\
listener {port} {host}
allow_anonymous true
set_tcp_nodelay true
persistence false
max_queued_messages 0
log_dest none
"""


def find_mosquitto() -> str | None:
    return shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")


class MosquittoBroker:
    def __init__(self, port: int = 1883, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None
        self._folder: tempfile.TemporaryDirectory[str] | None = None

    def start(self, timeout: float = 10, spawned: Spawned | None = None) -> MosquittoBroker:
        executable = find_mosquitto()
        if executable is None:
            raise VenueStartError(
                "mosquitto is not installed (Debian/Ubuntu: apt-get install mosquitto); "
                "without it, use the embedded broker (--broker embedded)"
            )
        self._folder = tempfile.TemporaryDirectory(prefix="deckhand-mosquitto-")
        config = Path(self._folder.name) / "mosquitto.conf"
        config.write_text(CONFIG.format(port=self.port, host=self.host))
        self.process = subprocess.Popen(
            [executable, "-c", str(config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # Ctrl-C reaches the venue, which stops it
        )
        if spawned is not None:
            spawned(self.process.pid)
        try:
            wait_listening(self.process, self.host, self.port, timeout, "mosquitto")
        except VenueStartError:
            self.stop()
            raise
        return self

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def stop(self, timeout: float = 5) -> None:
        process, self.process = self.process, None
        stop_process(process, timeout)
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None
