"""The bridge: what AWS IoT Core's rule does, locally. Device messages on ``dh/+/up`` become the
event the rule delivers (the message plus ``thing`` from the topic) and go to the play handler.

IoT Core invokes the function for each message concurrently; here a few workers do, each taking the
messages of the tables routed to it in arrival order (one table's messages never overtake each other,
so a simulated event stays reproducible). Replies leave through a second client so a handler never
waits on the thread that delivers to it.

paho delivers every device's messages on one receive thread, so nothing there waits: routing looks
only at what the workers learned (routing.py), each thing has a token bucket (ratelimit.py), and the
workers' queues are bounded. A message over its thing's rate or into a full queue is dropped and
counted: a device resends an unacknowledged action with its message id, and the server de-duplicates.
A resend of a message that has waited here (queued, or being handled) for ``shed_after`` seconds is
dropped ("queued"): the waiting one is answered. A busy venue would otherwise handle every copy — a
device resends every 5 s, so at a 30 s backlog each action is handled six times over, and the
backlog grows on itself. A copy that comes sooner (a QoS 1 redelivery) is handled as before: the
server acknowledges it as a duplicate.

The broker's lifecycle events (``$aws/events/presence/+/+``, which only the broker publishes) go to the
presence handler, as IoT Core's second rule sends them to the presence function: on the worker of the
device's name, so one device's events keep their order (the handler copes with any order anyway).
"""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from deckhand.service.infra.json_depth import too_deep
from deckhand.service.infra.outgoing import UP_FIELDS
from paho.mqtt.enums import CallbackAPIVersion

from .credentials import SERVER, server_client_id
from .ratelimit import HELLOS, MESSAGES, STRANGERS, Buckets, Rate
from .routing import Find, Routes, worker_of

Handler = Callable[[dict[str, Any]], dict[str, Any]]
Route = Callable[[str], str | None]  # a thing's table (None: at none); called on a worker, may read
# What the IoT rule passes (template.yaml): the protocol's message fields, and the thing from the topic.
RULE_FIELDS = ("t", *sorted({field for fields in UP_FIELDS.values() for field in fields}))
QUEUE_SIZE = 1_000  # messages waiting per worker; past that the message is dropped (and counted)
# A device's message is under 1 KiB (protocol.md; the brokers cut off longer packets): a longer one is
# dropped unparsed, so parsing never holds the receive thread.
MAX_PAYLOAD = 8_192
# What the bridge keeps of recent messages (tests and soaks read it): the last this many, so a venue's
# memory does not grow with every device message (a handset at its rate would add ~1 GB a day).
RECENT = 10_000
ANY_STRANGER = "*"  # the key of the strangers' one bucket
# A device resends an unanswered message after 5 s (the firmware and the page): a copy of a message
# waiting this long is such a resend, not a QoS 1 redelivery.
SHED_AFTER = 4.0
# The broker's lifecycle events, and the fields the IoT rule on them passes (template.yaml's PresenceRule).
PRESENCE_FILTER = "$aws/events/presence/+/+"
PRESENCE_FIELDS = ("eventType", "clientId", "timestamp", "disconnectReason")
Item = tuple[str, dict[str, Any], Find]  # (thing, the rule's event, what its worker must find first)
Login = tuple[str, str]  # (username, password): the brokers take no anonymous client


def new_client(client_id: str, login: Login | None = None) -> mqtt.Client:
    """A paho client whose small packets leave at once. paho leaves Nagle's algorithm on, so a
    handler's second message waited for the first one's TCP acknowledgement (~40 ms a play). The
    server's connections take client ids under ``deckhand-server/`` (credentials.server_client_id)."""
    if login is not None and login[0] == SERVER:
        client_id = server_client_id(client_id)
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


def rule_event(thing: str, payload: bytes) -> dict[str, Any]:
    """What the IoT rule hands the play function: the message's protocol fields (no others: a device
    cannot add or override one, ``thing`` included), and the thing name from the topic. A payload
    that nests too deep is not parsed (the parser would recurse into ``RecursionError``), nor one that
    is no JSON: either is an event without fields, which the play handler rejects."""
    try:
        body = None if too_deep(payload) else json.loads(payload)
    except (ValueError, RecursionError):
        body = None
    event = {k: body[k] for k in RULE_FIELDS if k in body} if isinstance(body, dict) else {}
    event["thing"] = thing
    return event


def _waiting_key(item: Item) -> tuple[str, str] | None:
    """A device message's (thing, message id); None for a message without an id (refused anyway) and
    for the broker's lifecycle events."""
    thing, event, _ = item
    msg = event.get("msg")
    return (thing, msg) if isinstance(msg, str) and "eventType" not in event else None


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
        rate: Rate = MESSAGES,
        hello_rate: Rate = HELLOS,
        strangers_rate: Rate = STRANGERS,
        queue_size: int = QUEUE_SIZE,
        recent: int = RECENT,
        presence: Handler | None = None,
        shed_after: float = SHED_AFTER,
    ) -> None:
        """``route`` names the table a thing is at (default: the thing itself), called on a worker;
        ``workers`` is how many messages are handled at once, like concurrent Lambda invocations;
        ``rate``/``hello_rate``: each thing's token buckets for all its messages and for its hellos;
        ``strangers_rate``: the one bucket of all things at no known table (before their table is
        found, or at none); ``login``: the server identity's credentials; ``recent``: how many outcomes,
        accepted and failed messages are kept (the oldest go first); ``presence``: the handler of the
        broker's lifecycle events (None: not subscribed to them); ``shed_after``: how long a message
        waits here before a copy of it is dropped rather than handled again."""
        if workers < 1:
            raise ValueError("the bridge needs at least one worker")
        self.handler = handler
        self.presence = presence
        self.presence_received = 0  # lifecycle events, apart from the devices' messages
        self.presence_done = 0
        self.route = route
        self.routes = Routes(workers)
        self.rate = Buckets(rate)
        self.hello_rate = Buckets(hello_rate)
        self.strangers = Buckets(strangers_rate)
        self.inboxes: list[queue.Queue[Item | None]] = [queue.Queue(queue_size) for _ in range(workers)]
        self._count = threading.Lock()
        self.received = 0
        self.processed = 0
        # Why: "rate" (over its thing's bucket), "full" (its worker's queue), "size" (too long),
        # "queued" (a resend of a message still waiting), "error" (handling it raised: the receive
        # thread goes on).
        self.dropped: Counter[str] = Counter()
        self.outcomes: deque[dict[str, Any]] = deque(maxlen=recent)
        # (thing, message id) of the device messages queued or being handled → (copies, when the
        # first was queued): bounded by the queues.
        self._waiting: dict[tuple[str, str], tuple[int, float]] = {}
        self.shed_after = shed_after
        self.accepted: deque[tuple[str, Any]] = deque(
            maxlen=recent
        )  # (thing, message id) of actions accepted
        self.errors = 0  # failed attempts
        # Events that failed every attempt (AWS: the SQS destination), the most recent.
        self.failed: deque[dict[str, Any]] = deque(maxlen=recent)
        self.reorder_every = 0  # fault injection: every n-th message is overtaken by the one after it
        self.delayed = 0  # messages held back by that fault
        self.overtaken = 0  # of those, the ones a later message did overtake
        self.out = mqtt_client(f"{name}-out", host, port, login)
        ready = threading.Event()
        self.sub = new_client(f"{name}-in", login)
        self.sub.on_subscribe = lambda *a: ready.set()
        self.sub.on_message = self._on_message
        self.sub.suppress_exceptions = True  # a second guard: paho logs a callback's error, goes on
        # On every connect, a reconnect too: a session the broker dropped comes back without it.
        topics = [("dh/+/up", 1), *([(PRESENCE_FILTER, 1)] if presence is not None else [])]
        self.sub.on_connect = lambda client, *a: client.subscribe(topics)
        self.sub.connect(host, port)
        self.sub.loop_start()
        if not ready.wait(5):
            raise RuntimeError("the bridge could not subscribe to device topics")
        self.workers = [
            threading.Thread(target=self._work, args=(i,), name=f"{name}-worker-{i}", daemon=True)
            for i in range(len(self.inboxes))
        ]
        for worker in self.workers:
            worker.start()

    @property
    def settled(self) -> int:
        """Messages done with: handled, or dropped."""
        return self.processed + sum(self.dropped.values())

    def _drop(self, why: str) -> None:
        with self._count:
            self.dropped[why] += 1

    @property
    def receiving(self) -> bool:
        """The receive thread runs: when it does not, no device's message is handled at any table."""
        thread = getattr(self.sub, "_thread", None)
        return thread is not None and thread.is_alive()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        """On paho's only receive thread, which an exception raised here would end (paho re-raises
        them): whatever a message does, it is dropped and counted as "error", never raised."""
        try:
            self._receive(message)
        except Exception:  # noqa: BLE001 - one message must never stop every table's messages
            self._drop("error")

    def _receive(self, message: Any) -> None:
        """No I/O and no waiting, whatever a client sends."""
        if message.topic.startswith("$aws/"):
            self._receive_presence(message)
            return
        thing = message.topic.split("/")[1]
        with self._count:
            self.received += 1
        if not self.rate.allow(thing):  # before parsing: a flood costs a dictionary lookup a message
            self._drop("rate")
            return
        if len(message.payload) > MAX_PAYLOAD:
            self._drop("size")
            return
        event = rule_event(thing, message.payload)
        if event.get("t") == "hello" and not self.hello_rate.allow(thing):
            self._drop("rate")
            return
        if self.route is None:
            self._enqueue_message(worker_of(thing, len(self.inboxes)), (thing, event, ""))
            return
        index, find, at_a_table = self.routes.inbox_for(thing)
        if not at_a_table and find and not self.strangers.allow(ANY_STRANGER):
            # Lookups of things at no known table share one bucket: made-up names by the thousand
            # (each a full bucket of its own) cannot keep the workers looking them up. A thing just
            # found at no table costs no lookup, and none of it: spare handsets sending at their full
            # rate cannot keep a venue's restarted devices from being routed.
            if find == "table":
                self.routes.resolved(thing)
            self._drop("rate")
            return
        if not self._enqueue_message(index, (thing, event, find)) and find == "table":
            self.routes.resolved(thing)

    def _receive_presence(self, message: Any) -> None:
        """A lifecycle event (the broker's own, never a device's: no rate to apply), to the worker of
        its device's name, with the fields the IoT rule selects."""
        with self._count:
            self.presence_received += 1
        try:
            body = json.loads(message.payload) if len(message.payload) <= MAX_PAYLOAD else None
        except ValueError:
            body = None
        event = {k: body[k] for k in PRESENCE_FIELDS if k in body} if isinstance(body, dict) else {}
        client = str(event.get("clientId", ""))
        if not event or not self._enqueue(worker_of(client, len(self.inboxes)), (client, event, "")):
            with self._count:
                self.presence_done += 1

    def _enqueue_message(self, index: int, item: Item) -> bool:
        """A device's message into a worker's queue, unless a copy of it (its thing and message id)
        is waiting already: that resend is dropped, counted as "queued"."""
        key = _waiting_key(item)
        if key is not None:
            now = time.monotonic()
            with self._count:
                copies, since = self._waiting.get(key, (0, now))
                if copies and now - since >= self.shed_after:
                    self.dropped["queued"] += 1
                    return False
                self._waiting[key] = (copies + 1, since)
        if self._enqueue(index, item):
            return True
        self._done_waiting(item)
        return False

    def _done_waiting(self, item: Item) -> None:
        key = _waiting_key(item)
        if key is None:
            return
        with self._count:
            copies, since = self._waiting.pop(key, (1, 0.0))
            if copies > 1:
                self._waiting[key] = (copies - 1, since)

    def _enqueue(self, index: int, item: Item) -> bool:
        try:
            self.inboxes[index].put_nowait(item)
        except queue.Full:
            self._drop("full")
            return False
        return True

    def _forward(self, index: int, item: Item) -> Item | None:
        """A message whose thing's table is not known (or its route expired): find it (the worker may
        read), and pass the message on to the table's worker; returns it when that is this worker."""
        thing, event, find = item
        if not find:
            return item
        known = self.routes.fresh(thing) if find == "table" else None
        if known is not None:  # found for the message before this one of the same burst
            target = worker_of(known, len(self.inboxes))
        else:
            try:
                assert self.route is not None
                table = self.route(thing)
            except Exception:  # noqa: BLE001 - routing only spreads the load; any worker will do
                table = None
            target = self.routes.learn(thing, table)
        try:
            if target == index:
                return (thing, event, "")
            if not self._enqueue(target, (thing, event, "")):
                self._done_waiting(item)  # dropped: a resend of it is handled again
            return None
        finally:
            if find == "table":
                self.routes.resolved(thing)

    def _work(self, index: int) -> None:
        inbox = self.inboxes[index]
        held: Item | None = None  # fault injection: a message delivered after the next one
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
            item = self._forward(index, item)
            if item is None:
                continue
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

    def _process(self, item: Item) -> None:
        thing, event, _ = item
        presence = "eventType" in event  # a lifecycle event: a device's message never has the field
        try:
            outcome = self._invoke(self.presence if presence else self.handler, event)
            accepted = outcome is not None and outcome.get("status") == "accepted"
            if accepted and not presence and event.get("t") != "hello":
                self.accepted.append((thing, event.get("msg")))
        finally:
            self._done_waiting(item)
            with self._count:
                if presence:
                    self.presence_done += 1
                else:
                    self.processed += 1

    def _invoke(self, handler: Handler | None, event: dict[str, Any]) -> dict[str, Any] | None:
        """The IoT rule invokes the function asynchronously: Lambda retries a failed invocation twice,
        then hands the event to the failure destination. The outcome (None: every attempt failed)."""
        assert handler is not None
        for attempt in range(self.RETRIES + 1):
            try:
                outcome = handler(dict(event))
                self.outcomes.append(outcome)
                return outcome
            except Exception:  # noqa: BLE001 - a handler failure must not stop the bridge
                with self._count:
                    self.errors += 1
                if attempt == self.RETRIES:
                    self.failed.append(event)
        return None

    def idle(self, timeout: float = 5, settle: float = 0.01) -> None:
        """Wait until every message that reached the bridge has been handled (or dropped)."""
        time.sleep(settle)
        deadline = time.monotonic() + timeout
        while (
            self.settled < self.received or self.presence_done < self.presence_received
        ) and time.monotonic() < deadline:
            time.sleep(0.005)

    def close(self) -> None:
        for client in (self.sub, self.out):
            client.loop_stop()
            client.disconnect()
        for inbox in self.inboxes:
            while True:  # a full inbox: what is still waiting is left undone (devices resend)
                try:
                    inbox.put_nowait(None)
                    break
                except queue.Full:
                    with contextlib.suppress(queue.Empty):
                        inbox.get_nowait()
