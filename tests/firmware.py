"""Runs the real firmware (device/lib) under CPython against an embedded broker and the real backend.

The server side is the backend's services behind an MQTT bridge (what the IoT rule does on AWS),
with moto as DynamoDB: the firmware talks to exactly what it talks to in production.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for folder in (ROOT / "device" / "lib", ROOT / "device" / "host"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from deckhand.service.device_io import pipeline as devices  # noqa: E402
from deckhand.service.infra.messaging import MqttPublisher  # noqa: E402
from deckhand.service.infra.runtime import Runtime  # noqa: E402
from deckhand_fw.app import build  # noqa: E402
from deckhand_fw.hal.host import HostHal  # noqa: E402
from deckhand_local.venue.bridge import Bridge as VenueBridge  # noqa: E402
from deckhand_local.venue.bridge import mqtt_client  # noqa: E402
from deckhand_local.venue.broker import EmbeddedBroker  # noqa: E402
from deckhand_local.venue.credentials import SERVER, VenueCredentials  # noqa: E402
from deckhand_local.venue.lockstep import LastSent  # noqa: E402
from umqtt.simple import MQTTClient  # noqa: E402

# The test broker's credentials: the bridge connects as the server, each device as its thing.
CREDENTIALS = VenueCredentials.generate()
SERVER_LOGIN = (SERVER, CREDENTIALS.server_password)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Bridge(VenueBridge):
    """The venue's bridge in front of the play service, replies published through a second client."""

    def __init__(self, port: int, invoke) -> None:
        out = mqtt_client("server-publisher", "127.0.0.1", port, SERVER_LOGIN)
        # LastSent keeps the engine's view of each seat next to its view message, for the tests' bots.
        self.sent = LastSent(MqttPublisher(out))
        self.rt = Runtime(self.sent, invoke)
        self._publisher_client = out

        def handle(event: dict[str, Any]) -> dict[str, Any]:
            thing = event.pop("thing")
            return devices.handle(self.rt, thing, event)

        super().__init__("127.0.0.1", port, handle, login=SERVER_LOGIN)

    def close(self) -> None:
        super().close()
        self._publisher_client.loop_stop()
        self._publisher_client.disconnect()


class Device:
    def __init__(self, thing: str, role: str, port: int, state: Path) -> None:
        self.hal = HostHal()
        self.cfg = {
            "thing": thing,
            "role": role,
            "endpoint": "127.0.0.1",
            "port": port,
            "tls": False,
            "username": thing,
            "password": CREDENTIALS.password(thing),
        }
        self.state = state
        state.mkdir(parents=True, exist_ok=True)
        self.clients: list[MQTTClient] = []

        def make_client(cfg: dict[str, Any]) -> MQTTClient:
            client = MQTTClient(
                cfg["thing"],
                cfg["endpoint"],
                cfg["port"],
                user=cfg["username"],
                password=cfg["password"],
                keepalive=30,
            )
            self.clients.append(client)
            return client

        self.app, self.conn = build(self.cfg, self.hal, make_client, str(state))

    def step(self) -> None:
        self.conn.step()

    def last_view(self) -> dict[str, Any] | None:
        return getattr(self.app, "message", None)


def start_broker() -> tuple[EmbeddedBroker, int]:
    port = free_port()
    return EmbeddedBroker(port, CREDENTIALS).start(), port
