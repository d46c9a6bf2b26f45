"""``deckhand venue``: the whole system on one machine, each part on 127.0.0.1.

moto's server (in its own process) is the DynamoDB endpoint (the table made from template.yaml), an
embedded broker (or mosquitto) carries MQTT, the bridge does what the IoT rule does, the Lambda
handlers run in-process, the timers sweep every second, and an HTTP adapter serves the organiser API.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import threading
from pathlib import Path
from typing import Any

from deckhand.service import context, models
from deckhand.service.messaging import MqttPublisher
from deckhand.service.runtime import Runtime

from .bridge import Bridge, mqtt_client
from .broker import EmbeddedBroker
from .http_adapter import ApiServer
from .lambdas import AsyncInvoker, call, load_handlers, repository_root
from .lockstep import LastSent
from .mosquitto import MosquittoBroker
from .motoserver import MotoServer
from .tables import create_table, export_items, import_items

REGION = "us-east-1"
BROKERS = ("embedded", "mosquitto")
BRIDGE_WORKERS = 4


def table_of(thing: str) -> str:
    """The table a thing is at (cached assignment), so the bridge keeps one table's messages in order."""
    from deckhand.service.events import get_device

    device = get_device(thing)
    return thing if device is None else f"{device.event_id}/{device.table}"


class Venue:
    def __init__(
        self,
        *,
        dynamodb_port: int = 8000,
        mqtt_port: int = 1883,
        http_port: int = 8080,
        state_dir: Path = Path(".deckhand"),
        persist: bool = False,
        table: str = "deckhand-local",
        sweep_seconds: float = 1.0,
        broker: str = "embedded",
        bridge_workers: int = BRIDGE_WORKERS,
    ) -> None:
        if broker not in BROKERS:
            raise ValueError(f"broker {broker!r}: one of {', '.join(BROKERS)}")
        self.dynamodb_port = dynamodb_port
        self.mqtt_port = mqtt_port
        self.http_port = http_port
        self.state_dir = state_dir
        self.persist = persist
        self.table = table
        self.sweep_seconds = sweep_seconds
        self.broker_kind = broker
        self.bridge_workers = bridge_workers
        self.token = secrets.token_urlsafe(24)
        self._stop = threading.Event()
        self._parts: list[Any] = []

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def data_file(self) -> Path:
        return self.state_dir / "table.json"

    def start(self) -> Venue:
        try:
            return self._start()
        except BaseException:
            for part in reversed(self._parts):  # nothing is left running when a part cannot start
                with contextlib.suppress(Exception):
                    part.stop()
            raise

    def _start(self) -> Venue:
        os.environ.setdefault("AWS_ACCESS_KEY_ID", "local")
        os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "local")
        os.environ["AWS_DEFAULT_REGION"] = REGION
        for name in ("werkzeug", "moto", "amqtt", "transitions", "botocore", "urllib3"):
            logging.getLogger(name).setLevel(logging.ERROR)
        self.moto = MotoServer(self.dynamodb_port).start()
        self._parts.append(self.moto)
        endpoint = f"http://127.0.0.1:{self.dynamodb_port}"
        models.configure(table_name=self.table, host=endpoint, region=REGION)
        import boto3

        self.dynamodb = boto3.client("dynamodb", endpoint_url=endpoint, region_name=REGION)
        create_table(self.dynamodb, self.table, repository_root() / "template.yaml")
        if self.persist and self.data_file.exists():
            import_items(self.dynamodb, self.table, json.loads(self.data_file.read_text()))

        broker_class = MosquittoBroker if self.broker_kind == "mosquitto" else EmbeddedBroker
        self.broker = broker_class(self.mqtt_port).start()
        self._parts.append(self.broker)
        self.handlers = load_handlers()
        self.invoker = AsyncInvoker(self.handlers)
        self.publisher_client = mqtt_client("server-publisher", "127.0.0.1", self.mqtt_port)
        self.sent = LastSent(MqttPublisher(self.publisher_client))
        context.set_runtime(Runtime(self.sent, self.invoker))
        self.bridge = Bridge(
            "127.0.0.1",
            self.mqtt_port,
            lambda event: call(self.handlers["play"], "play", event),
            workers=self.bridge_workers,
            route=table_of,
        )
        self.api = ApiServer(
            lambda event: call(self.handlers["api"], "api", event), self.token, port=self.http_port
        ).start()
        self.http_port = self.api.port
        self.timers = threading.Thread(target=self._sweep, name="timers", daemon=True)
        self.timers.start()
        self.state_dir.mkdir(parents=True, exist_ok=True)
        (self.state_dir / "venue.json").write_text(
            json.dumps(
                {
                    "api": self.api_url,
                    "token": self.token,
                    "mqtt_port": self.mqtt_port,
                    "dynamodb": endpoint,
                    "table": self.table,
                }
            )
        )
        return self

    def _sweep(self) -> None:
        while not self._stop.wait(self.sweep_seconds):
            # A failed sweep is simply retried on the next tick, as the schedule would.
            with contextlib.suppress(Exception):
                call(self.handlers["timers"], "timers", {"source": "local.schedule"})

    def quiet(self) -> bool:
        """Nothing is being handled: every message that reached the bridge is done, no invocation queued."""
        return self.invoker.pending == 0 and self.bridge.processed >= self.bridge.received

    def idle(self, timeout: float = 10) -> None:
        """Wait until the bridge and the asynchronous invocations have nothing left to do."""
        import time

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.bridge.idle(timeout=0.5)
            if self.quiet():
                return
            time.sleep(0.01)

    def stop(self) -> None:
        self._stop.set()
        if self.persist:
            self.data_file.write_text(json.dumps(export_items(self.dynamodb, self.table)))
        self.api.stop()
        self.bridge.close()
        self.invoker.close()
        self.publisher_client.loop_stop()
        self.publisher_client.disconnect()
        context.set_runtime(None)
        self.broker.stop()
        self.moto.stop()
        (self.state_dir / "venue.json").unlink(missing_ok=True)
