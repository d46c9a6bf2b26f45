"""Messages to devices go through one interface with adapters (docs/protocol.md).

``IotDataPublisher`` publishes through the AWS IoT data plane; ``MqttPublisher`` to a local broker
(the local venue); ``RecordingPublisher`` keeps them in memory for tests. Payloads are compact JSON
and must stay under 1 KiB — checked here, once, for every adapter; a message that carries what only a
browser is sent (``outgoing.DOWN_ONLY_CLIENTS``: a board's layout) goes to no handset and may be larger.
"""

from __future__ import annotations

import json
import threading
from typing import Any, Protocol

from .outgoing import DOWN_ONLY_CLIENTS

MAX_MESSAGE_BYTES = 1024
MAX_CLIENT_MESSAGE_BYTES = 16 * 1024  # a client's view with a board's layout (AWS IoT takes up to 128 KB)


def down_topic(thing: str) -> str:
    return f"dh/{thing}/down"


def up_topic(thing: str) -> str:
    return f"dh/{thing}/up"


def event_topic(event_id: str) -> str:
    return f"dh/events/{event_id}"


def encode(payload: dict[str, Any]) -> bytes:
    data = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
    client = any(f in payload for f in DOWN_ONLY_CLIENTS.get(str(payload.get("t")), ()))
    limit = MAX_CLIENT_MESSAGE_BYTES if client else MAX_MESSAGE_BYTES
    if len(data) > limit:
        raise ValueError(f"message of {len(data)} bytes exceeds {limit}: {payload.get('t')!r}")
    return data


class Publisher(Protocol):
    def publish(self, topic: str, payload: dict[str, Any]) -> None: ...


class RecordingPublisher:
    """Keeps every message (tests; also what the local venue's bridge wraps)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        # The engine's view of a seat next to each view message (tests' simulated players; never sent).
        self.seat_views: dict[tuple[str, str, int, int], dict[str, Any]] = {}
        self._lock = threading.Lock()
        self._by_topic: dict[str, list[dict[str, Any]]] = {}
        self._indexed = 0  # how many of ``sent`` the index holds
        self._last_indexed: tuple[str, dict[str, Any]] | None = None

    def note_seat_view(self, thing: str, message: dict[str, Any], view: dict[str, Any], due: int = 0) -> None:
        with self._lock:
            self.seat_views[(thing, message["b"], message["r"], message["v"])] = view

    def seat_view(self, thing: str, message: dict[str, Any]) -> dict[str, Any] | None:
        return self.seat_views.get((thing, message["b"], message["r"], message["v"]))

    def publish(self, topic: str, payload: dict[str, Any]) -> None:
        encode(payload)
        with self._lock:
            self.sent.append((topic, payload))

    def to(self, thing: str) -> list[dict[str, Any]]:
        """The messages sent to ``thing`` in order: from an index by topic, brought up to date with what
        was sent since (a test's bots ask after every action: a scan of everything sent each time made a
        long event's test quadratic). ``sent`` may be cleared or replaced: the index is then rebuilt."""
        with self._lock:
            done = self._indexed
            if done > len(self.sent) or (done and self.sent[done - 1] is not self._last_indexed):
                self._by_topic, done = {}, 0
            for topic, payload in self.sent[done:]:
                self._by_topic.setdefault(topic, []).append(payload)
            self._indexed = len(self.sent)
            self._last_indexed = self.sent[-1] if self.sent else None
            return list(self._by_topic.get(down_topic(thing), ()))

    def clear(self) -> None:
        with self._lock:
            self.sent.clear()
            self.seat_views.clear()


class IotDataPublisher:
    """AWS IoT Core data plane (QoS 1). The client is made lazily so cold starts stay cheap."""

    def __init__(self, endpoint: str | None = None) -> None:
        self._endpoint = endpoint
        self._client: Any = None

    def publish(self, topic: str, payload: dict[str, Any]) -> None:
        if self._client is None:
            import boto3

            kwargs = {"endpoint_url": self._endpoint} if self._endpoint else {}
            self._client = boto3.client("iot-data", **kwargs)
        self._client.publish(topic=topic, qos=1, payload=encode(payload))


class MqttPublisher:
    """A local MQTT 3.1.1 broker (the local venue), through a connected paho-mqtt client."""

    def __init__(self, client: Any) -> None:
        self._client = client

    def publish(self, topic: str, payload: dict[str, Any]) -> None:
        # QoS 1, queued in order by the client's network thread; not waited for one by one.
        info = self._client.publish(topic, encode(payload), qos=1)
        if info.rc != 0:
            raise OSError(f"MQTT publish to {topic} failed (rc {info.rc})")
