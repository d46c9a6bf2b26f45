"""``deckhand venue``: the whole system on one machine, each part on 127.0.0.1.

DynamoDB Local (in its own process, its data on disk in the state folder) is the database, with the
table made from template.yaml; an embedded broker (or mosquitto) carries MQTT, the bridge does what
the IoT rule does, the Lambda handlers run in-process, the timers sweep every second, and an HTTP
adapter serves the organiser API. A venue keeps its data: restarted, even after ``kill -9``, it goes
on where it was; ``fresh`` starts from an empty database.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import shutil
import socket
import threading
from pathlib import Path
from typing import Any

from deckhand.errors import VenueStartError
from deckhand.service import context, models
from deckhand.service.messaging import MqttPublisher
from deckhand.service.runtime import Runtime

from .bridge import Bridge, mqtt_client
from .broker import BrokerProcess
from .database import Database
from .dynamodb_local import DynamoDBLocal
from .http_adapter import ApiServer
from .lambdas import AsyncInvoker, call, load_handlers, repository_root
from .lockstep import LastSent
from .mosquitto import MosquittoBroker
from .motoserver import MotoServer
from .processes import stop_orphan
from .tables import ensure_table

REGION = "us-east-1"
BROKERS = ("embedded", "mosquitto")
BRIDGE_WORKERS = 4


def table_of(thing: str) -> str | None:
    """The table a thing is at (None: at none), so the bridge keeps one table's messages in order. A
    database read (cached): the bridge asks it on a worker, never on the thread that receives."""
    from deckhand.service.events import get_device

    device = get_device(thing)
    return None if device is None else f"{device.event_id}/{device.table}"


class Venue:
    def __init__(
        self,
        *,
        dynamodb_port: int = 8000,
        mqtt_port: int = 1883,
        http_port: int = 8080,
        state_dir: Path = Path(".deckhand"),
        database: Database = Database.DYNAMODB_LOCAL,
        dynamodb_endpoint: str | None = None,
        fresh: bool = False,
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
        self.database = Database(database)
        self.dynamodb_endpoint = dynamodb_endpoint  # a database server already running (tests share one)
        self.fresh = fresh
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
    def data_dir(self) -> Path:
        return self.state_dir / "dynamodb"

    @property
    def running_file(self) -> Path:
        """Where the organiser commands find the running venue (API, token, ports): written once it is up."""
        return self.state_dir / "venue.json"

    @property
    def servers_file(self) -> Path:
        """This venue's process and its servers' processes, noted as each one is spawned: a venue killed
        at any moment, even while starting, leaves what a restart must stop."""
        return self.state_dir / "servers.json"

    def _note_server(self, name: str, pid: int | None) -> None:
        self._servers[name] = pid
        staged = self.servers_file.with_suffix(".tmp")
        staged.write_text(json.dumps(self._servers))
        staged.replace(self.servers_file)

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
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self._replace_stale_venue()
        self._servers: dict[str, int | str | None] = {}
        self._note_server("pid", os.getpid())
        self._servers["started"] = process_started(os.getpid())
        ports = [self.mqtt_port] + ([self.http_port] if self.http_port else [])
        if self.dynamodb_endpoint is None:
            ports.append(self.dynamodb_port)
        for port in ports:
            if port_taken(port):
                raise VenueStartError(
                    f"port {port} on 127.0.0.1 is already in use: stop what uses it or pick another"
                )
        endpoint = self._start_database()
        models.configure(table_name=self.table, host=endpoint, region=REGION)
        import boto3

        self.dynamodb = boto3.client("dynamodb", endpoint_url=endpoint, region_name=REGION)
        ensure_table(self.dynamodb, self.table, repository_root() / "template.yaml")

        broker_class = MosquittoBroker if self.broker_kind == "mosquitto" else BrokerProcess
        self.broker = broker_class(self.mqtt_port).start(spawned=lambda pid: self._note_server("broker", pid))
        self._parts.append(self.broker)
        self.handlers = load_handlers()
        # Journaled in the state folder (beside the database), unless the data is in memory anyway.
        journal = self.state_dir / "invocations" if self.database is Database.DYNAMODB_LOCAL else None
        if journal is not None and self.fresh and journal.exists():
            shutil.rmtree(journal)
        self.invoker = AsyncInvoker(self.handlers, journal)
        self.publisher_client = mqtt_client("server-publisher", "127.0.0.1", self.mqtt_port)
        self.sent = LastSent(MqttPublisher(self.publisher_client))
        context.set_runtime(Runtime(self.sent, self.invoker))
        self.invoker.start()
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
        self.running_file.write_text(
            json.dumps(
                {
                    "pid": os.getpid(),
                    "api": self.api_url,
                    "token": self.token,
                    "mqtt_port": self.mqtt_port,
                    "dynamodb": endpoint,
                    "dynamodb_pid": self.db_server.pid if self.db_server is not None else None,
                    "broker_pid": self.broker.pid,
                    "database": str(self.database),
                    "table": self.table,
                }
            )
        )
        return self

    def _start_database(self) -> str:
        """The DynamoDB endpoint: a shared server given by the caller, or one of our own."""
        self.db_server: DynamoDBLocal | MotoServer | None = None
        if self.dynamodb_endpoint is not None:
            return self.dynamodb_endpoint
        if self.database is Database.MOTO:
            self.db_server = MotoServer(self.dynamodb_port)
        else:
            if self.fresh and self.data_dir.exists():
                shutil.rmtree(self.data_dir)
            self.db_server = DynamoDBLocal(self.dynamodb_port, self.data_dir)
        self._parts.append(self.db_server)
        self.db_server.start(spawned=lambda pid: self._note_server("database", pid))
        return f"http://127.0.0.1:{self.dynamodb_port}"

    def _replace_stale_venue(self) -> None:
        """Files left by a venue that died without stopping (kill -9, power cut): stop the servers it
        left running, so this venue can have their ports and data files, and drop its venue.json. A
        venue still running from this folder is an error: two would share one database file."""
        try:
            running = json.loads(self.servers_file.read_text())
        except (OSError, ValueError):
            running = {}
        pid, started = running.get("pid"), running.get("started")
        if isinstance(pid, int) and pid != os.getpid() and started and process_started(pid) == started:
            raise VenueStartError(
                f"a venue (process {pid}) is already running from {self.state_dir}: stop it first, "
                "or use another --state folder"
            )
        for server in (running.get("database"), running.get("broker")):
            if isinstance(server, int):
                stop_orphan(server)
        self.running_file.unlink(missing_ok=True)
        self.servers_file.unlink(missing_ok=True)

    def _sweep(self) -> None:
        while not self._stop.wait(self.sweep_seconds):
            # A failed sweep is simply retried on the next tick, as the schedule would.
            with contextlib.suppress(Exception):
                call(self.handlers["timers"], "timers", {"source": "local.schedule"})

    def quiet(self) -> bool:
        """Nothing is being handled: every message that reached the bridge is done, no invocation queued."""
        return self.invoker.pending == 0 and self.bridge.settled >= self.bridge.received

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
        self.api.stop()
        self.bridge.close()
        self.invoker.close()
        self.publisher_client.loop_stop()
        self.publisher_client.disconnect()
        context.set_runtime(None)
        self.broker.stop()
        if self.db_server is not None:
            self.db_server.stop()
        self.running_file.unlink(missing_ok=True)
        self.servers_file.unlink(missing_ok=True)


def port_taken(port: int) -> bool:
    """Something already accepts connections there: starting on it would talk to a stranger."""
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def process_started(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot), or None if there is no such process:
    with the pid it tells a live venue from a dead one whose pid was reused."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rpartition(")")[2].split()[19]
