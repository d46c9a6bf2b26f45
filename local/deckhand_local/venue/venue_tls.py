"""The venue's TLS for real handsets on its network: a venue CA and a server certificate signed by it,
kept in ``<state>/tls/`` (keys 0600). Devices trust the CA (``ca`` in their configuration, as they
trust Amazon Root CA 1 for IoT Core); the server certificate is made again, by the same CA, when a
host devices use is not in it yet."""

from __future__ import annotations

import datetime
import ipaddress
import socket
from dataclasses import dataclass
from pathlib import Path

from .state_folder import make_private, write_private

CA_DAYS = 3650
SERVER_DAYS = 825


@dataclass(frozen=True)
class TlsListener:
    """Where the broker serves MQTT over TLS, and with which certificate."""

    host: str
    port: int
    cert: Path
    key: Path
    ca: Path

    def arguments(self) -> list[str]:
        return [
            *("--tls-host", self.host, "--tls-port", str(self.port)),
            *("--tls-cert", str(self.cert), "--tls-key", str(self.key)),
        ]


def server_names(extra: tuple[str, ...] = ()) -> list[str]:
    """The names and addresses devices may use for the venue: loopback, this machine's name, and any
    the venue was told (its address on the venue's Wi-Fi)."""
    names = ["localhost", "127.0.0.1", socket.gethostname()]
    return list(dict.fromkeys([*names, *(h for h in extra if h not in ("0.0.0.0", "::"))]))


def _alt_name(name: str) -> object:
    from cryptography import x509

    try:
        return x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        return x509.DNSName(name)


def _new_key() -> object:
    from cryptography.hazmat.primitives.asymmetric import ec

    return ec.generate_private_key(ec.SECP256R1())  # what ESP32's mbedTLS verifies quickly


def _pem_key(key: object) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return key.private_bytes(  # type: ignore[attr-defined, no-any-return]
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _certificate(
    subject: str, key: object, issuer: tuple[str, object] | None, days: int, names: list[str]
) -> bytes:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.UTC)
    issuer_name, issuer_key = issuer if issuer is not None else (subject, key)
    builder = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
        .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, issuer_name)]))
        .public_key(key.public_key())  # type: ignore[attr-defined]
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=days))
    )
    if issuer is None:
        builder = builder.add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        builder = builder.add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )
    else:
        builder = builder.add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        builder = builder.add_extension(
            x509.SubjectAlternativeName([_alt_name(n) for n in names]),  # type: ignore[misc]
            critical=False,
        )
        builder = builder.add_extension(
            x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False
        )
    certificate = builder.sign(issuer_key, hashes.SHA256())  # type: ignore[arg-type]
    return certificate.public_bytes(serialization.Encoding.PEM)


def _names_in(cert: Path) -> set[str]:
    from cryptography import x509

    try:
        loaded = x509.load_pem_x509_certificate(cert.read_bytes())
        alt = loaded.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except (OSError, ValueError, x509.ExtensionNotFound):
        return set()
    if loaded.not_valid_after_utc < datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=30):
        return set()  # about to expire: made again
    return {str(n) for n in alt.get_values_for_type(x509.DNSName)} | {
        str(a) for a in alt.get_values_for_type(x509.IPAddress)
    }


def listener(state_dir: Path, host: str, port: int) -> TlsListener:
    """The TLS listener of the venue of ``state_dir``, with the files it has (or will have)."""
    folder = state_dir / "tls"
    return TlsListener(host, port, folder / "server.pem", folder / "server-key.pem", folder / "ca.pem")


def names(tls: TlsListener) -> set[str]:
    """The names and addresses the listener's certificate is valid for (none if it is missing or about
    to expire)."""
    return _names_in(tls.cert)


def venue_tls(state_dir: Path, host: str, port: int, extra_names: tuple[str, ...] = ()) -> TlsListener:
    """The venue CA and a server certificate for ``host`` (made or kept), and the listener using them."""
    from cryptography.hazmat.primitives import serialization

    make_private(state_dir / "tls")
    tls = listener(state_dir, host, port)
    ca_cert, ca_key = tls.ca, tls.ca.with_name("ca-key.pem")
    cert, key = tls.cert, tls.key
    if not (ca_cert.exists() and ca_key.exists()):
        new = _new_key()
        write_private(ca_key, _pem_key(new))
        write_private(ca_cert, _certificate("Deckhand venue CA", new, None, CA_DAYS, []))
        cert.unlink(missing_ok=True)
    wanted = server_names((host, *extra_names))
    if not set(wanted) <= _names_in(cert):
        signer = serialization.load_pem_private_key(ca_key.read_bytes(), password=None)
        new = _new_key()
        write_private(key, _pem_key(new))
        write_private(cert, _certificate(wanted[0], new, ("Deckhand venue CA", signer), SERVER_DAYS, wanted))
    return tls
