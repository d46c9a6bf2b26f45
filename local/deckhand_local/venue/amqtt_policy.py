"""amqtt plugins that make the embedded broker check what Aedes checks: each thing's credentials
(``credentials.py``) with its client id equal to its name, and the IoT policy's topic rules
(``topic_policy.py``) on publish, subscribe and delivery. Loaded through amqtt's ``plugins`` config,
so nothing anonymous or unchecked remains.

amqtt 0.12 drops (clean session) or rewrites (persistent session) the session of a client id before
it authenticates the connection: anyone could throw a handset off by connecting with its name.
``CheckedConnect`` refuses such a connection as soon as its CONNECT is read, before any session is
touched (``install``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import amqtt.broker
from amqtt.broker import Action
from amqtt.errors import MQTTError
from amqtt.mqtt.connack import NOT_AUTHORIZED, ConnackPacket
from amqtt.mqtt.protocol.broker_handler import BrokerProtocolHandler
from amqtt.plugins.base import BaseAuthPlugin, BaseTopicPlugin

from .credentials import SERVER, VenueCredentials
from .topic_policy import may_publish, may_receive, may_subscribe


def _text(value: Any) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes | bytearray) else str(value or "")


class ThingAuthPlugin(BaseAuthPlugin):  # type: ignore[misc]
    """A client's username and password must be a thing's (client id = its name) or the server's."""

    @dataclass
    class Config:
        key: str = ""  # the venue key, hex

    async def authenticate(self, *, session: Any) -> bool:
        return self.allows(session)

    def allows(self, session: Any) -> bool:
        config: Any = self.context.config
        if not config.key:
            return False
        username, password = session.username, session.password
        if not username or password is None:
            return False
        username = _text(username)
        if username != SERVER and session.client_id != username:
            return False
        if username == SERVER and not session.client_id.startswith(f"{SERVER}/"):
            return False  # the server's ids are its own: no thing can drop its sessions
        return VenueCredentials(bytes.fromhex(config.key)).check(username, _text(password))


class ThingTopicPlugin(BaseTopicPlugin):  # type: ignore[misc]
    """The IoT policy's topic rules for every publish, subscription and delivery."""

    @dataclass
    class Config:
        enabled: bool = True

    async def topic_filtering(
        self, *, session: Any = None, topic: str | None = None, action: Action | None = None
    ) -> bool:
        username = _text(session.username) if session is not None and session.username else ""
        if not username or topic is None:
            return False
        if action == Action.PUBLISH:
            return may_publish(username, topic)
        if action == Action.SUBSCRIBE:
            return may_subscribe(username, topic)
        return action == Action.RECEIVE and may_receive(username, topic)


class CheckedConnect(BrokerProtocolHandler):  # type: ignore[misc]
    """amqtt's connection handler, refusing a client the auth plugin refuses before its client id's
    session is looked up."""

    @classmethod
    async def init_from_connect(cls, reader: Any, writer: Any, plugins_manager: Any, loop: Any = None) -> Any:
        handler, session = await super().init_from_connect(reader, writer, plugins_manager, loop=loop)
        checks = [p for p in plugins_manager._auth_plugins if isinstance(p, ThingAuthPlugin)]
        if not checks or not all(check.allows(session) for check in checks):
            await ConnackPacket.build(0, NOT_AUTHORIZED).to_stream(writer)
            await writer.close()
            raise MQTTError("refused before its session was touched")
        return handler, session


def install() -> None:
    """Have amqtt's broker read every CONNECT through ``CheckedConnect`` (amqtt is pinned: 0.12.1)."""
    amqtt.broker.BrokerProtocolHandler = CheckedConnect
