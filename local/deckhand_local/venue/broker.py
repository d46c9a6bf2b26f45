"""The embedded MQTT 3.1.1 broker (amqtt), bound to 127.0.0.1 only: in a thread of this process
(``EmbeddedBroker``, tests), or in a process of its own (``BrokerProcess``, ``--broker embedded``), so
its work does not take the interpreter lock the handlers need (a third of the venue's busy time at 16
tables). Like Aedes it takes only the things' and the server's credentials and enforces the IoT
policy's topic rules (``amqtt_policy.py``); it has no ``$SYS`` topics.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import subprocess
import sys
import threading
import warnings
from pathlib import Path
from typing import Any, Self

from deckhand.errors import VenueStartError

from .credentials import VenueCredentials
from .processes import Spawned, stop_process, wait_listening

POLICY = "deckhand_local.venue.amqtt_policy"


class EmbeddedBroker:
    def __init__(self, port: int, credentials: VenueCredentials, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = port
        self.credentials = credentials
        self._loop = asyncio.new_event_loop()
        self._thread: threading.Thread | None = None
        self._broker: Any = None

    def start(self, timeout: float = 10) -> EmbeddedBroker:
        from amqtt.broker import Broker

        from .amqtt_policy import install

        install()
        for name in ("amqtt", "transitions"):
            logging.getLogger(name).setLevel(logging.CRITICAL)  # a failed start is reported by us
        config = {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
            "plugins": {
                f"{POLICY}.ThingAuthPlugin": {"key": self.credentials.key.hex()},
                f"{POLICY}.ThingTopicPlugin": {},
            },
        }
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            self._broker = Broker(config, loop=self._loop)
        started = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            asyncio.set_event_loop(self._loop)
            try:
                self._loop.run_until_complete(self._broker.start())
            except BaseException as exc:  # noqa: BLE001 - reported to the starting thread
                failure.append(exc)
                started.set()
                return
            started.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, name="mqtt-broker", daemon=True)
        self._thread.start()
        if not started.wait(timeout):
            raise VenueStartError(f"MQTT broker did not start on {self.host}:{self.port}")
        if failure:
            raise VenueStartError(f"MQTT broker could not start on {self.host}:{self.port}: {failure[0]}")
        return self

    def stop(self, timeout: float = 3) -> None:
        if self._thread is None:
            return
        future = asyncio.run_coroutine_threadsafe(self._broker.shutdown(), self._loop)
        with contextlib.suppress(Exception):
            future.result(timeout)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout)
        self._thread = None


class BrokerProcess:
    """``EmbeddedBroker`` run as ``python -m deckhand_local.venue.broker`` in a session of its own
    (Ctrl-C reaches the venue, which stops it). The venue key reaches it on its standard input; what
    it prints goes to ``log`` (the venue's state folder), so a broker that dies says why."""

    def __init__(
        self, port: int, credentials: VenueCredentials, host: str = "127.0.0.1", log: Path | None = None
    ) -> None:
        self.host = host
        self.port = port
        self.credentials = credentials
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    NAME = "the embedded MQTT broker"

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "deckhand_local.venue.broker",
            "--host",
            self.host,
            "--port",
            str(self.port),
        ]

    # The venue's loopback join-token check (venue/link_check.py), which Aedes asks about players' own
    # devices; None: the broker admits none.
    link_check_port: int | None = None

    def environment(self) -> dict[str, str] | None:
        """The broker process's environment: the venue's own, and where its join-token check is."""
        if self.link_check_port is None:
            return None
        return {**os.environ, "DECKHAND_LINK_CHECK_PORT": str(self.link_check_port)}

    def start(self, timeout: float = 20, spawned: Spawned | None = None) -> Self:
        out = self.log.open("ab") if self.log is not None else None
        try:
            self.process = subprocess.Popen(
                self.command(),
                stdin=subprocess.PIPE,
                stdout=out or subprocess.DEVNULL,
                stderr=subprocess.STDOUT if out else subprocess.DEVNULL,
                start_new_session=True,
                env=self.environment(),
            )
        finally:
            if out is not None:
                out.close()
        if spawned is not None:
            spawned(self.process.pid)
        send_key(self.process, self.credentials)
        try:
            wait_listening(self.process, self.host, self.port, timeout, self.NAME)
        except VenueStartError as exc:
            gone = self.exited()
            self.process = None
            if gone is not None:
                raise VenueStartError(f"{exc}: {gone}") from None
            raise
        return self

    def exited(self) -> str | None:
        """Why the broker is gone, if it is (its exit code and the end of its log); None while it runs."""
        code = None if self.process is None else self.process.poll()
        if code is None:
            return None
        said = ""
        if self.log is not None:
            with contextlib.suppress(OSError):
                said = self.log.read_text(errors="replace").strip()[-1000:]
        return f"{self.NAME} exited (code {code})" + (f": {said}" if said else "")

    def stop(self, timeout: float = 5) -> None:
        process, self.process = self.process, None
        stop_process(process, timeout)


def send_key(process: subprocess.Popen[bytes], credentials: VenueCredentials) -> None:
    """Hand a broker process the venue key on its standard input (never in a file or its arguments)."""
    assert process.stdin is not None
    try:
        process.stdin.write(credentials.key.hex().encode() + b"\n")
        process.stdin.close()
    except OSError:
        pass  # it exited already: waiting for it to listen says so


def main(argv: list[str] | None = None) -> int:
    """Run the broker until SIGTERM or SIGINT, with the venue key read from standard input."""
    parser = argparse.ArgumentParser(description="Deckhand's embedded MQTT broker")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=1883)
    args = parser.parse_args(argv)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    credentials = VenueCredentials(bytes.fromhex(sys.stdin.readline().strip()))
    broker = EmbeddedBroker(args.port, credentials, args.host).start()
    stop.wait()
    broker.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
