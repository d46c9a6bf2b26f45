"""An embedded MQTT 3.1.1 broker (amqtt) in a thread of this process, bound to 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import warnings
from typing import Any

from deckhand.errors import VenueStartError


class EmbeddedBroker:
    def __init__(self, port: int = 1883, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = port
        self._loop = asyncio.new_event_loop()
        self._thread: threading.Thread | None = None
        self._broker: Any = None

    def start(self, timeout: float = 10) -> EmbeddedBroker:
        from amqtt.broker import Broker

        for name in ("amqtt", "transitions"):
            logging.getLogger(name).setLevel(logging.CRITICAL)  # a failed start is reported by us
        config = {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
            "sys_interval": 0,
            "auth": {"allow-anonymous": True},
            "topic-check": {"enabled": False},
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
