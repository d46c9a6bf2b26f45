"""Runs the real firmware (device/lib) under CPython against an embedded broker and the real backend.

The server side is the backend's services behind an MQTT bridge (what the IoT rule does on AWS),
with moto as DynamoDB: the firmware talks to exactly what it talks to in production.
"""

from __future__ import annotations

import json
import queue
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for folder in (ROOT / "device" / "lib", ROOT / "device" / "host"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import paho.mqtt.client as mqtt  # noqa: E402
from deckhand.service import devices  # noqa: E402
from deckhand.service.messaging import MqttPublisher  # noqa: E402
from deckhand.service.runtime import Runtime  # noqa: E402
from deckhand.venue.broker import EmbeddedBroker  # noqa: E402
from deckhand_fw.app import build  # noqa: E402
from deckhand_fw.hal.host import HostHal  # noqa: E402
from umqtt.simple import MQTTClient  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Bridge:
    """dh/+/up → the play service (one worker, in order), replies published back through MQTT."""

    def __init__(self, port: int, invoke) -> None:
        self.port = port
        self.inbox: queue.Queue[tuple[str, Any] | None] = queue.Queue()
        self.out = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id="server-out", protocol=mqtt.MQTTv311
        )
        self.out.connect("127.0.0.1", port)
        self.out.loop_start()
        self.rt = Runtime(MqttPublisher(self.out), invoke)
        self.sub = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id="server-in", protocol=mqtt.MQTTv311
        )
        ready = threading.Event()
        self.sub.on_subscribe = lambda *a: ready.set()
        self.received = 0
        self.processed = 0

        def on_message(c, u, m):
            self.received += 1
            self.inbox.put((m.topic.split("/")[1], m.payload))

        self.sub.on_message = on_message
        self.sub.connect("127.0.0.1", port)
        self.sub.loop_start()
        self.sub.subscribe("dh/+/up", qos=1)
        assert ready.wait(5)
        self.outcomes: list[dict[str, Any]] = []
        self.worker = threading.Thread(target=self._work, daemon=True)
        self.worker.start()

    def _work(self) -> None:
        while True:
            item = self.inbox.get()
            if item is None:
                return
            thing, payload = item
            try:
                message = json.loads(payload)
            except ValueError:
                message = payload
            try:
                self.outcomes.append(devices.handle(self.rt, thing, message))
            finally:
                self.processed += 1

    def idle(self, timeout: float = 5, settle: float = 0.01) -> None:
        """Wait until every message that reached the bridge has been handled."""
        time.sleep(settle)
        deadline = time.monotonic() + timeout
        while self.processed < self.received and time.monotonic() < deadline:
            time.sleep(0.005)

    def close(self) -> None:
        self.inbox.put(None)
        for c in (self.sub, self.out):
            c.loop_stop()
            c.disconnect()


class Device:
    def __init__(self, thing: str, role: str, port: int, state: Path) -> None:
        self.hal = HostHal()
        self.cfg = {"thing": thing, "role": role, "endpoint": "127.0.0.1", "port": port, "tls": False}
        self.state = state
        state.mkdir(parents=True, exist_ok=True)
        self.clients: list[MQTTClient] = []

        def make_client(cfg: dict[str, Any]) -> MQTTClient:
            client = MQTTClient(cfg["thing"], cfg["endpoint"], cfg["port"], keepalive=30)
            self.clients.append(client)
            return client

        self.app, self.conn = build(self.cfg, self.hal, make_client, str(state))

    def step(self) -> None:
        self.conn.step()

    def last_view(self) -> dict[str, Any] | None:
        return getattr(self.app, "message", None)


def start_broker() -> tuple[EmbeddedBroker, int]:
    port = free_port()
    return EmbeddedBroker(port).start(), port
