"""Aedes as the venue's broker (the default): a Node broker in a process of its own, so its work never
takes the interpreter lock the handlers need, checking each thing's credentials and the IoT policy's
topic rules (tools/broker/broker.mjs). The venue key reaches it on its standard input, never in a
file or its command line; it serves MQTT over TLS too when given a ``TlsListener``, and MQTT over
WebSocket (the player's browser page) when given a ``ws_port``: the same credentials and topic rules."""

from __future__ import annotations

import shutil
from pathlib import Path

from deckhand.errors import VenueStartError

from .broker import BrokerProcess
from .credentials import VenueCredentials
from .lambdas import repository_root
from .venue_tls import TlsListener

INSTALL_HINT = "run `make` targets from the checkout (they install it), or `cd tools/broker && npm install`"


def broker_script(websocket: bool = False) -> str:
    folder = repository_root() / "tools" / "broker"
    for package in ("aedes", "ws") if websocket else ("aedes",):
        if not (folder / "node_modules" / package).is_dir():
            raise VenueStartError(
                f"the Aedes broker's {package} is not installed (tools/broker/node_modules): {INSTALL_HINT}"
            )
    return str(folder / "broker.mjs")


def find_node() -> str:
    node = shutil.which("node")
    if node is None:
        raise VenueStartError(
            "Node.js is not installed: the venue's broker (Aedes) runs on it "
            "(Debian/Ubuntu: apt-get install nodejs npm), or use --broker embedded"
        )
    return node


class AedesBroker(BrokerProcess):
    NAME = "the Aedes broker"

    def __init__(
        self,
        port: int,
        credentials: VenueCredentials,
        host: str = "127.0.0.1",
        tls: TlsListener | None = None,
        log: Path | None = None,
        ws_port: int | None = None,
        ws_host: str = "127.0.0.1",
    ) -> None:
        super().__init__(port, credentials, host, log)
        self.tls = tls
        self.ws_port = ws_port
        self.ws_host = ws_host

    def command(self) -> list[str]:
        websocket = self.ws_port is not None
        command = [find_node(), broker_script(websocket), "--host", self.host, "--port", str(self.port)]
        command.append("--key-stdin")
        command += self.tls.arguments() if self.tls is not None else []
        return command + (["--ws-port", str(self.ws_port), "--ws-host", self.ws_host] if websocket else [])
