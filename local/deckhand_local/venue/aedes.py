"""Aedes as the venue's broker (the default): a Node broker in a process of its own, so its work never
takes the interpreter lock the handlers need, checking each thing's credentials and the IoT policy's
topic rules (tools/broker/broker.mjs). The venue key reaches it on its standard input, never in a
file or its command line; it serves MQTT over TLS too when given a ``TlsListener``."""

from __future__ import annotations

import shutil
from pathlib import Path

from deckhand.errors import VenueStartError

from .broker import BrokerProcess
from .credentials import VenueCredentials
from .lambdas import repository_root
from .venue_tls import TlsListener

INSTALL_HINT = "run `make` targets from the checkout (they install it), or `cd tools/broker && npm install`"


def broker_script() -> str:
    folder = repository_root() / "tools" / "broker"
    if not (folder / "node_modules" / "aedes").is_dir():
        raise VenueStartError(
            f"the Aedes broker is not installed (tools/broker/node_modules): {INSTALL_HINT}"
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
    ) -> None:
        super().__init__(port, credentials, host, log)
        self.tls = tls

    def command(self) -> list[str]:
        command = [find_node(), broker_script(), "--host", self.host, "--port", str(self.port), "--key-stdin"]
        return command + (self.tls.arguments() if self.tls is not None else [])
