"""What a device needs to connect to a local venue, as its ``config.json`` (device/config.example.json):
where (endpoint, port, TLS and the venue CA) and as whom (its thing name and password). Simulated
devices are configured from the same function as a real handset is provisioned."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .credentials import VenueCredentials
from .venue_tls import TlsListener

CA_PATH = "/certs/venue-ca.pem"  # where the venue CA goes on the device


@dataclass(frozen=True)
class VenueLink:
    """A venue's broker as its devices reach it: the plain listener on ``host:port`` (loopback:
    simulated devices), the TLS listener if it has one (real handsets), and its credentials."""

    port: int
    credentials: VenueCredentials
    host: str = "127.0.0.1"
    tls: TlsListener | None = None

    def device_config(self, thing: str, role: str) -> dict[str, Any]:
        """The configuration of a device on the plain listener."""
        return {
            "thing": thing,
            "role": role,
            "endpoint": self.host,
            "port": self.port,
            "tls": False,
            "username": thing,
            "password": self.credentials.password(thing),
        }

    def provisioning(self, thing: str, role: str, endpoint: str | None = None) -> dict[str, Any]:
        """A real device's configuration: over TLS when the venue serves it (the venue CA's text in
        ``ca_pem``, to be written where ``ca`` says), else on the plain listener."""
        config = self.device_config(thing, role)
        if self.tls is None:
            return config if endpoint is None else {**config, "endpoint": endpoint}
        return {
            **config,
            "endpoint": endpoint or self.tls.host,
            "port": self.tls.port,
            "tls": True,
            "ca": CA_PATH,
            "ca_pem": self.tls.ca.read_text(),
        }
