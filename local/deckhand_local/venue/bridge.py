"""The bridge: what AWS IoT Core's rule does, locally. Device messages on ``dh/+/up`` become the
event the rule delivers (the message plus ``thing`` from the topic) and go to the play handler.

IoT Core invokes the function for each message concurrently; here a few workers do, each taking the
messages of the tables routed to it in arrival order (one table's messages never overtake each other,
so a simulated event stays reproducible). Replies leave through a second client so a handler never
waits on the thread that delivers to it.
"""

from __future__ import annotations

import json
import queue
import socket
import threading
import time
import zlib
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

Handler = Callable[[dict[str, Any]], dict[str, Any]]
Route = Callable[[str], str]
Login = tuple[str, str]  # (username, password): the brokers take no anonymous client


def new_client(client_id: str, login: Login | None = None) -> mqtt.Client:
    """A paho client whose small packets leave at once. paho leaves Nagle's algorithm on, so a
    handler's second message waited for the first one's TCP acknowledgement (~40 ms a play)."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311)
    client.on_socket_open = _no_delay
    if login is not None:
        client.username_pw_set(*login)
    return client


def _no_delay(client: mqtt.Client, userdata: Any, sock: Any) -> None:
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def mqtt_client(client_id: str, host: str, port: int, login: Login | None = None) -> mqtt.Client:
    client = new_client(client_id, login)
    client.connect(host, port)
    client.loop_start()
    return client


class Bridge:
    RETRIES = 2

    def __init__(
        self,
        host: str,
        port: int,
        handler: Handler,
        name: str = "bridge",
        *,
        workers: int = 1,
        route: Route | None = None,
        login: Login | None = None,
    ) -> None:
        """``route`` names the table a thing is at (default: the thing itself); ``workers`` is how
        many messages are handled at once, like concurrent Lambda invocations; ``login`` is the
        server identity's credentials."""
        if workers < 1:
            raise ValueError("the bridge needs at least one worker")
        self.handler = handler
        self.route = route or (lambda thing: thing)
        self.inboxes: list[queue.Queue[tuple[str, bytes] | None]] = [queue.Queue() for _ in range(workers)]
        self._count = threading.Lock()
        self.received = 0
        self.processed = 0
        self.outcomes: list[dict[str, Any]] = []
        self.accepted: list[tuple[str, Any]] = []  # (thing, message id) of every action accepted
        self.errors = 0  # failed attempts
        self.failed: list[dict[str, Any]] = []  # events that failed every attempt (AWS: the SQS destination)
        self.reorder_every = 0  # fault injection: every n-th message is overtaken by the one after it
        self.delayed = 0  # messages held back by that fault
        self.overtaken = 0  # of those, the ones a later message did overtake
        self.out = mqtt_client(f"{name}-out", host, port, login)
        ready = threading.Event()
        self.sub = new_client(f"{name}-in", login)
        self.sub.on_subscribe = lambda *a: ready.set()
        self.sub.on_message = self._on_message
        self.sub.connect(host, port)
        self.sub.loop_start()
        self.sub.subscribe("dh/+/up", qos=1)
        if not ready.wait(5):
            raise RuntimeError("the bridge could not subscribe to device topics")
        self.workers = [
            threading.Thread(target=self._work, args=(inbox,), name=f"{name}-worker-{i}", daemon=True)
            for i, inbox in enumerate(self.inboxes)
        ]
        for worker in self.workers:
            worker.start()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        thing = message.topic.split("/")[1]
        with self._count:
            self.received += 1
        try:
            key = self.route(thing)
        except Exception:  # noqa: BLE001 - routing only spreads the load; any worker will do
            key = thing
        self.inboxes[zlib.crc32(key.encode()) % len(self.inboxes)].put((thing, message.payload))

    def _work(self, inbox: queue.Queue[tuple[str, bytes] | None]) -> None:
        held: tuple[str, bytes] | None = None  # fault injection: a message delivered after the next one
        taken = 0
        while True:
            try:
                item = inbox.get(timeout=0.05 if held is not None else None)
            except queue.Empty:
                item, held = held, None  # nothing came after it: deliver it late, on its own
                self._process(item)  # type: ignore[arg-type]
                continue
            if item is None:
                return
            taken += 1
            if held is None and self.reorder_every and taken % self.reorder_every == 0:
                held = item  # delayed: the next message overtakes it
                with self._count:
                    self.delayed += 1
                continue
            self._process(item)
            if held is not None:
                item, held = held, None
                with self._count:
                    self.overtaken += 1
                self._process(item)

    def _process(self, item: tuple[str, bytes]) -> None:
        thing, payload = item
        try:
            try:
                body = json.loads(payload)
            except ValueError:
                body = {"_raw": payload.decode(errors="replace")}
            event = dict(body, thing=thing) if isinstance(body, dict) else {"thing": thing, "_raw": body}
            for attempt in range(self.RETRIES + 1):
                # The IoT rule invokes the function asynchronously: Lambda retries a failed
                # invocation twice, then hands the event to the failure destination.
                try:
                    outcome = self.handler(dict(event))
                    self.outcomes.append(outcome)
                    if outcome.get("status") == "accepted" and event.get("t") != "hello":
                        self.accepted.append((thing, event.get("msg")))
                    break
                except Exception:  # noqa: BLE001 - a handler failure must not stop the bridge
                    with self._count:
                        self.errors += 1
                    if attempt == self.RETRIES:
                        self.failed.append(event)
        finally:
            with self._count:
                self.processed += 1

    def idle(self, timeout: float = 5, settle: float = 0.01) -> None:
        """Wait until every message that reached the bridge has been handled."""
        time.sleep(settle)
        deadline = time.monotonic() + timeout
        while self.processed < self.received and time.monotonic() < deadline:
            time.sleep(0.005)

    def close(self) -> None:
        for inbox in self.inboxes:
            inbox.put(None)
        for client in (self.sub, self.out):
            client.loop_stop()
            client.disconnect()
