"""``deckhand venue``: the whole system on one machine, each part on 127.0.0.1.

DynamoDB Local (in its own process, its data on disk in the state folder) is the database, with the
table made from template.yaml; Aedes (or amqtt, or mosquitto) carries MQTT, taking only the things'
and the server's credentials, the bridge does what the IoT rule does, the Lambda handlers run
in-process, the timers sweep every second, and an HTTP adapter serves the organiser API. A venue
keeps its data: restarted, even after ``kill -9``, it goes on where it was; ``fresh`` starts from an
empty database. Its state folder (0700, files 0600) holds its secrets.
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
from deckhand.service.infra import lambda_runtime
from deckhand.service.infra.messaging import MqttPublisher
from deckhand.service.infra.results_site import RESULTS_URL
from deckhand.service.infra.runtime import Runtime
from deckhand.service.storage import models

from ..api_events import api_gateway_event
from ..console.app import Console
from ..site.live import LiveSite
from . import organisers
from .aedes import AedesBroker
from .bridge import Bridge, mqtt_client
from .broker import BrokerProcess
from .credentials import SERVER, VenueCredentials
from .database import Database
from .dynamodb_local import DynamoDBLocal, has_shared_database, venue_access_key
from .heartbeat import Heartbeat
from .http_adapter import ApiServer
from .lambdas import AsyncInvoker, OneAtATime, call, load_handlers, repository_root
from .link_check import CLOSE_TOPIC, LinkCheckServer
from .lockstep import LastSent
from .mosquitto import MosquittoBroker
from .motoserver import MotoServer
from .organisers import PUBLIC_VIEWER
from .player_site import PlayerSite
from .processes import stop_orphan
from .provisioning import VenueLink
from .restart_grace import RESTART_GRACE_SECONDS
from .state_folder import make_private, write_private
from .tables import ensure_table
from .venue_tls import TlsListener, venue_tls

REGION = "us-east-1"
BROKERS = ("aedes", "embedded", "mosquitto")
BRIDGE_WORKERS = 4
log = logging.getLogger(__name__)


def table_of(thing: str) -> str | None:
    """The table a thing is at (None: at none), so the bridge keeps one table's messages in order. A
    database read (cached): the bridge asks it on a worker, never on the thread that receives."""
    from deckhand.service.organiser.events import get_device

    device = get_device(thing)
    if device is None:
        return None
    if not device.table:  # a player's own device follows its player from table to table: its own key,
        return f"{device.event_id}/{thing}"  # so an online event's players spread over the workers
    return f"{device.event_id}/{device.table}"


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
        broker: str = "aedes",
        bridge_workers: int = BRIDGE_WORKERS,
        api_host: str = "127.0.0.1",
        tls_port: int | None = None,
        device_host: str = "127.0.0.1",
        restart_grace: float = RESTART_GRACE_SECONDS,
        ws_port: int | None = None,
        ws_host: str = "127.0.0.1",
    ) -> None:
        """``tls_port``: also serve MQTT over TLS there, on ``device_host`` (the venue's address on
        its network, for real handsets; Aedes only); ``ws_port``: also serve MQTT over WebSocket there,
        on ``ws_host``, for the player's browser page served under ``/play/`` (Aedes only; 0: a free
        port)."""
        if broker not in BROKERS:
            raise ValueError(f"broker {broker!r}: one of {', '.join(BROKERS)}")
        if tls_port is not None and broker != "aedes":
            raise VenueStartError("the TLS listener is Aedes's (--broker aedes)")
        if ws_port is not None and broker != "aedes":
            raise VenueStartError("the WebSocket listener is Aedes's (--broker aedes)")
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
        self.api_host = api_host
        self.tls_port = tls_port
        self.device_host = device_host
        self.ws_port = free_port() if ws_port == 0 else ws_port
        self.ws_host = ws_host
        self.restart_grace = restart_grace  # s the clocks stay stopped after a restart (heartbeat.py)
        self.tls: TlsListener | None = None
        self.token = secrets.token_urlsafe(24)
        self._stop = threading.Event()
        self._parts: list[Any] = []

    @property
    def api_url(self) -> str:
        return f"http://{self.api_host}:{self.http_port}"

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
        write_private(self.servers_file, json.dumps(self._servers))

    def start(self) -> Venue:
        try:
            return self._start()
        except BaseException as exc:
            # A broker that died while the rest started: what it said is the reason, not the refused
            # connection that found it gone.
            gone = self._broker_gone()
            for part in reversed(self._parts):  # nothing is left running when a part cannot start
                with contextlib.suppress(Exception):
                    part.stop()
            if hasattr(self, "_umask"):
                self._restore_process()
            if gone is not None and isinstance(exc, Exception):
                raise VenueStartError(gone) from exc
            raise

    def _broker_gone(self) -> str | None:
        exited = getattr(getattr(self, "broker", None), "exited", None)
        return exited() if callable(exited) else None

    def _start(self) -> Venue:
        self._environment = {name: os.environ.get(name) for name in AWS_ENVIRONMENT}
        # Whatever the venue writes in its state folder (journal, logs) is its owner's only.
        self._umask = os.umask(0o077)
        os.environ.setdefault("AWS_ACCESS_KEY_ID", "local")
        os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "local")
        os.environ["AWS_DEFAULT_REGION"] = REGION
        # The players' pages link to the live results site the venue serves (site/live.py).
        os.environ.setdefault(RESULTS_URL, "/site/{event}/")
        for name in ("werkzeug", "moto", "amqtt", "transitions", "botocore", "urllib3"):
            logging.getLogger(name).setLevel(logging.ERROR)
        make_private(self.state_dir)
        self._replace_stale_venue()
        # A venue that died is down until it runs again: the players' clocks stop meanwhile.
        self.heartbeat = Heartbeat(self.state_dir)
        if self.fresh:
            self.heartbeat.forget()
        self.heartbeat.note_restart()
        self.heartbeat.start()
        self._parts.append(self.heartbeat)
        self.credentials = VenueCredentials.for_state(self.state_dir)
        self._servers: dict[str, int | str | None] = {}
        self._note_server("pid", os.getpid())
        self._servers["started"] = process_started(os.getpid())
        ports = [self.mqtt_port] + ([self.http_port] if self.http_port else [])
        ports += [self.tls_port] if self.tls_port else []
        ports += [self.ws_port] if self.ws_port else []
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

        # Players' join tokens, checked for the broker on loopback (its port handed to the broker).
        self.link_check = LinkCheckServer(self.credentials.link_check_secret).start()
        self._parts.append(self.link_check)
        broker = self._broker()
        if isinstance(broker, BrokerProcess):
            broker.link_check_port = self.link_check.port
        self.broker = broker.start(spawned=lambda pid: self._note_server("broker", pid))
        self._parts.append(self.broker)
        if isinstance(self.broker, MosquittoBroker):
            self.broker.allow(registered_things())
        self.handlers = load_handlers()
        self.api_handler = OneAtATime(self.handlers["api"], "api")  # HTTP, console and site share it
        # Journaled in the state folder (beside the database), unless the data is in memory anyway.
        journal = self.state_dir / "invocations" if self.database is Database.DYNAMODB_LOCAL else None
        if journal is not None and self.fresh and journal.exists():
            shutil.rmtree(journal)
        if journal is not None:
            make_private(journal)
        self.invoker = AsyncInvoker(self.handlers, journal)
        self.publisher_client = mqtt_client(
            "server-publisher", "127.0.0.1", self.mqtt_port, self.server_login
        )
        self.sent = LastSent(MqttPublisher(self.publisher_client))
        lambda_runtime.set_runtime(Runtime(self.sent, self.invoker))
        self._make_up_outages()  # before anything plays on: a journaled pacer, a message, the sweep
        self.invoker.start()
        self.bridge = Bridge(
            "127.0.0.1",
            self.mqtt_port,
            lambda event: call(self.handlers["play"], "play", event),
            workers=self.bridge_workers,
            route=table_of,
            login=self.server_login,
            presence=lambda event: call(self.handlers["presence"], "presence", event),
        )
        console = Console(
            self._console_api,
            self._tokens,
            repository_root() / "web" / "console",
            codes=lambda code: organisers.spend_code(self.state_dir, code),
        )
        self.api = ApiServer(
            self._serve_api,
            self.token,
            host=self.api_host,
            port=self.http_port,
            organisers=lambda: organisers.read(self.state_dir),  # deckhand venue organiser add NAME
            site=LiveSite(self._public_get, self.state_dir / "site").serve,
            play=PlayerSite(self.ws_port, self.ws_host).serve,
            console=console.serve,
            console_limit=console.body_limit,
        ).start()
        self.http_port = self.api.port
        self.timers = threading.Thread(target=self._sweep, name="timers", daemon=True)
        self.timers.start()
        write_private(
            self.running_file,
            json.dumps(
                {
                    "pid": os.getpid(),
                    "api": self.api_url,
                    "token": self.token,
                    "mqtt_port": self.mqtt_port,
                    "tls_port": self.tls_port,
                    "ws_port": self.ws_port,
                    "device_host": self.device_host,
                    "dynamodb": endpoint,
                    "dynamodb_key": os.environ["AWS_ACCESS_KEY_ID"],
                    "dynamodb_pid": self.db_server.pid if self.db_server is not None else None,
                    "broker_pid": self.broker.pid,
                    "database": str(self.database),
                    "table": self.table,
                }
            ),
        )
        return self

    @property
    def link(self) -> VenueLink:
        """Where and with which credentials the venue's devices connect."""
        return VenueLink(self.mqtt_port, self.credentials, tls=self.tls)

    @property
    def server_login(self) -> tuple[str, str]:
        """The server identity's credentials: the bridge and the publishers connect with them."""
        return (SERVER, self.credentials.server_password)

    def _broker(self) -> AedesBroker | BrokerProcess | MosquittoBroker:
        if self.broker_kind == "mosquitto":
            return MosquittoBroker(self.mqtt_port, self.credentials)
        log = self.state_dir / "broker.log"  # what a broker that dies printed: its reason
        if self.broker_kind == "embedded":
            return BrokerProcess(self.mqtt_port, self.credentials, log=log)
        if self.tls_port is not None:
            self.tls = venue_tls(self.state_dir, self.device_host, self.tls_port)
        return AedesBroker(
            self.mqtt_port,
            self.credentials,
            tls=self.tls,
            log=log,
            ws_port=self.ws_port,
            ws_host=self.ws_host,
        )

    def _serve_api(self, event: dict[str, Any]) -> dict[str, Any]:
        response: dict[str, Any] = self.api_handler(event)
        registered = (
            event["httpMethod"] == "POST"
            and event["path"].endswith("/tables")
            and 200 <= response.get("statusCode", 500) < 300
        )
        if registered and isinstance(self.broker, MosquittoBroker):
            self.broker.allow(registered_things())  # mosquitto cannot derive their passwords itself
        self._cut_off(event, response)
        return response

    def _cut_off(self, event: dict[str, Any], response: dict[str, Any]) -> None:
        """A revoked or replaced join link's device loses its connection at once: the broker closes it."""
        if not 200 <= response.get("statusCode", 500) < 300 or "/links" not in event["path"]:
            return
        try:
            body = json.loads(response.get("body") or "null")
        except ValueError:
            return
        if not isinstance(body, dict):
            return
        links = body.get("links") if event["httpMethod"] == "POST" else [body]
        for link in links if isinstance(links, list) else []:
            thing = link.get("replaced" if event["httpMethod"] == "POST" else "thing")
            if isinstance(thing, str):
                self.publisher_client.publish(CLOSE_TOPIC, thing.encode(), qos=1)

    def _console_api(self, method: str, path: str, body: Any, identity: str) -> tuple[int, str, str]:
        """A call of the organiser API for the console, as its signed-in identity: the same handler
        (and what follows it here) as a request over HTTP with that identity's token."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        text = json.dumps(body) if body is not None else None
        response = self._serve_api(api_gateway_event(method, path, headers, text, identity))
        out = {k.lower(): v for k, v in (response.get("headers") or {}).items()}
        for key, values in (response.get("multiValueHeaders") or {}).items():
            out[key.lower()] = values[-1]
        return int(response.get("statusCode", 500)), out.get("content-type", ""), response.get("body") or ""

    def _tokens(self) -> dict[str, str]:
        """Identity → venue token: the venue's own and every added organiser's (read each time)."""
        return {
            organisers.VENUE_IDENTITY: self.token,
            **{organisers.identity_of(n): t for n, t in organisers.read(self.state_dir).items()},
        }

    def _public_get(self, path: str) -> tuple[int, Any]:
        """A GET of the API as a viewer with no role in any event (the live results site)."""
        response = self.api_handler(api_gateway_event("GET", path, {}, None, PUBLIC_VIEWER))
        return int(response.get("statusCode", 500)), json.loads(response.get("body") or "null")

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
            shared = self.data_dir.exists() and has_shared_database(self.data_dir)
            if shared:
                log.warning(
                    "%s holds a database from before per-venue access keys: it stays readable with any "
                    "key until the venue is started --fresh",
                    self.data_dir,
                )
            os.environ["AWS_ACCESS_KEY_ID"] = venue_access_key(self.state_dir)
            os.environ["AWS_SECRET_ACCESS_KEY"] = "local"  # DynamoDB Local checks only the key id
            forget_credentials()
            self.db_server = DynamoDBLocal(self.dynamodb_port, self.data_dir, shared=shared)
            if not self.db_server.loopback_only:
                log.warning(
                    "DynamoDB Local listens on every interface (no JDK when `make` ran, so no launcher "
                    "binding loopback): its data is under the venue's own key, any other key sees none"
                )
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

    def _make_up_outages(self) -> None:
        """The clocks moved on by the outage the venue comes back from; a failure is logged and the
        outage made up for on the next start (its boards not moved yet stay as they are)."""
        try:
            self.heartbeat.make_up(self.restart_grace)
        except Exception:
            log.exception("the clocks could not be stopped for the outage: done on the next start")

    def _sweep(self) -> None:
        while not self._stop.wait(self.sweep_seconds):
            # A failed sweep is simply retried on the next tick, as the schedule would.
            with contextlib.suppress(Exception):
                call(self.handlers["timers"], "timers", {"source": "local.schedule"})

    def _restore_process(self) -> None:
        """The umask as it was, and the credentials without the venue's database key (the next venue
        of this process, in tests, finds its own): as they were, or the venue's former ``local``."""
        os.umask(self._umask)
        for name, value in self._environment.items():
            os.environ[name] = value or "local"
        forget_credentials()

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
        self.heartbeat.stop()
        self.api.stop()
        self.bridge.close()
        self.invoker.close()
        self.publisher_client.loop_stop()
        self.publisher_client.disconnect()
        lambda_runtime.set_runtime(None)
        self.broker.stop()
        self.link_check.stop()
        if self.db_server is not None:
            self.db_server.stop()
        self.running_file.unlink(missing_ok=True)
        self.servers_file.unlink(missing_ok=True)
        self._restore_process()


AWS_ENVIRONMENT = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")


def forget_credentials() -> None:
    """boto3's default session keeps the credentials it first read: a process that used AWS before
    (tests) would reach the venue's database with another key, so it reads them again."""
    import boto3

    boto3.DEFAULT_SESSION = None


def registered_things() -> list[str]:
    """Every thing registered at a table of the venue's table (a scan: only mosquitto needs it)."""
    from deckhand.service.storage.models import DeviceItem

    return [item.pk.removeprefix("DEVICE#") for item in DeviceItem.scan(DeviceItem.pk.startswith("DEVICE#"))]


def free_port() -> int:
    """A port nothing listens on now (the kernel's pick)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def port_taken(port: int) -> bool:
    """Something already accepts connections there: starting on it would talk to a stranger."""
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def process_started(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot), or None if there is no such process:
    with the pid it tells a live venue from a dead one whose pid was reused. A zombie (killed, not
    yet reaped by its parent) is no process: a venue killed with -9 may be restarted at once."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()
    return None if fields[0] in ("Z", "X") else fields[19]
