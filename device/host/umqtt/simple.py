"""umqtt.simple's MQTTClient interface on the host, backed by paho-mqtt (MQTT 3.1.1).

Same calls and the same blocking behaviour as on the device: ``publish(qos=1)`` returns once the
broker acknowledged; ``check_msg`` delivers what has arrived to the callback in the caller's thread;
a dead link raises OSError. ``drop()`` cuts the link abruptly, for fault tests.

The network is driven with ``poll()`` on the one socket, not paho's ``loop()``: that uses
``select()``, which fails past descriptor 1,024 (hundreds of simulated devices in one process), and
opens a socket pair per client. Small messages leave at once (TCP_NODELAY), as on lwIP.
"""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt


class MQTTException(Exception):
    pass


class MQTTClient:
    def __init__(
        self,
        client_id: str,
        server: str,
        port: int = 0,
        user=None,
        password=None,
        keepalive: int = 0,
        ssl=None,
    ) -> None:
        self.client_id = client_id
        self.user = user
        self.pswd = password
        self.server = server
        self.port = port or 1883
        self.keepalive = keepalive or 60
        self.cb: Callable[[bytes, bytes], None] | None = None
        self._inbox: list[tuple[bytes, bytes]] = []
        self._client: Any = None
        self._acked: set[int] = set()
        self._dead = False

    def set_callback(self, f: Callable[[bytes, bytes], None]) -> None:
        self.cb = f

    def _loop(self, timeout: float = 0.0) -> None:
        if self._dead or self._client is None:
            raise OSError(-1)
        rc = self._network(timeout)
        if rc != mqtt.MQTT_ERR_SUCCESS:
            self._dead = True
            raise OSError(rc)

    def _network(self, timeout: float) -> int:
        """One round of paho's external loop: wait for the socket, read, write, keep alive."""
        client = self._client
        sock = client.socket()
        if sock is None:
            return mqtt.MQTT_ERR_NO_CONN
        poller = select.poll()
        poller.register(sock, select.POLLIN | (select.POLLOUT if client.want_write() else 0))
        for _, flags in poller.poll(int(timeout * 1000)):
            if flags & (select.POLLIN | select.POLLERR | select.POLLHUP):
                rc = client.loop_read()
                if rc or client.socket() is None:
                    return rc or mqtt.MQTT_ERR_CONN_LOST
            if flags & select.POLLOUT:
                rc = client.loop_write()
                if rc:
                    return rc
        return client.loop_misc()

    def connect(self, clean_session: bool = True) -> int:
        client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=self.client_id,
            clean_session=clean_session,
            protocol=mqtt.MQTTv311,
        )
        client.on_message = lambda c, u, m: self._inbox.append((m.topic.encode(), m.payload))
        client.on_publish = lambda c, u, mid, rc, props: self._acked.add(mid)
        client.on_subscribe = lambda c, u, mid, rcs, props: self._acked.add(mid)
        client.on_socket_open = lambda c, u, sock: sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if self.user is not None:
            client.username_pw_set(self.user, self.pswd)
        try:
            client.connect(self.server, self.port, keepalive=self.keepalive)
        except (ConnectionError, OSError) as exc:
            raise OSError(str(exc)) from None
        self._client = client
        self._dead = False
        deadline = time.monotonic() + 5
        while not client.is_connected():
            self._loop(0.05)
            if time.monotonic() > deadline:
                raise OSError("no CONNACK")
        return 0

    def _wait(self, mid: int) -> None:
        deadline = time.monotonic() + 5
        while mid not in self._acked:
            self._loop(0.05)
            self._deliver()
            if time.monotonic() > deadline:
                raise OSError("no acknowledgement")
        self._acked.discard(mid)

    def subscribe(self, topic: str | bytes, qos: int = 0) -> None:
        assert self.cb is not None, "Subscribe callback is not set"
        topic = topic.decode() if isinstance(topic, bytes) else topic
        result, mid = self._client.subscribe(topic, qos)
        if result != mqtt.MQTT_ERR_SUCCESS:
            raise OSError(result)
        self._wait(mid)

    def publish(self, topic: str | bytes, msg: bytes, retain: bool = False, qos: int = 0) -> None:
        topic = topic.decode() if isinstance(topic, bytes) else topic
        if self._dead:
            raise OSError(-1)
        info = self._client.publish(topic, msg, qos=qos, retain=retain)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            self._dead = True
            raise OSError(info.rc)
        if qos == 1:
            self._wait(info.mid)

    def _deliver(self) -> None:
        while self._inbox and self.cb is not None:
            topic, payload = self._inbox.pop(0)
            self.cb(topic, payload)

    def check_msg(self) -> None:
        self._loop(0.0)
        self._deliver()

    def wait_msg(self) -> None:
        self._loop(1.0)
        self._deliver()

    def ping(self) -> None:
        self._loop(0.0)

    def socket(self) -> Any:
        """The link's socket, for a host process stepping many devices to wait on its messages (None:
        no link, or something still to send: the next ``check_msg`` should come at once)."""
        client = self._client
        if client is None or self._dead or client.want_write():
            return None
        return client.socket()

    def disconnect(self) -> None:
        if self._client is not None and not self._dead:
            self._client.disconnect()
        self._dead = True

    def drop(self) -> None:
        """Cut the link without a DISCONNECT, like a handset losing Wi-Fi."""
        sock = self._client.socket() if self._client is not None else None
        if sock is not None:
            sock.close()
        self._dead = True
