"""mosquitto as the venue's broker (``deckhand venue --broker mosquitto``): a C broker in its own
process, where it is installed. It takes the same credentials as Aedes, from a password file, and
enforces the IoT policy's topic rules with an ACL (``pattern write dh/%u/up``, ``pattern read
dh/%u/down``). mosquitto cannot derive a thing's password itself, so the file lists the things the
venue knows (those registered at a table): ``allow`` adds things and has mosquitto reload it.

Unlike Aedes and amqtt, mosquitto cannot require a client id equal to the username (its
``use_username_as_clientid`` would give the server's several connections one id): a provisioned
thing could connect with another's client id and throw it off. It still gets nothing of the other
thing's, as the ACL goes by username.
"""

from __future__ import annotations

import base64
import getpass
import hashlib
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

from deckhand.errors import VenueStartError

from .credentials import SERVER, VenueCredentials, is_thing_name
from .processes import Spawned, stop_process, wait_listening
from .state_folder import write_private

# Bound to loopback only. Nagle off, or a handler's five messages leave one acknowledgement apart.
# A device's queued QoS 1 messages are never dropped (mosquitto's default drops past 1,000).
# Run as root, mosquitto would change to its own user, who cannot read our 0600 password file: it
# stays the venue's user (the option does nothing when the venue is not root).
CONFIG = """\
user {user}
per_listener_settings false
allow_anonymous false
password_file {folder}/passwords
acl_file {folder}/acl
listener {port} {host}
set_tcp_nodelay true
persistence false
max_queued_messages 0
log_dest none
"""
# A thing (its username is its thing name) writes only its up topic and reads only its down topic;
# the server may use anything under dh/.
ACL = f"""\
user {SERVER}
topic readwrite dh/#

pattern write dh/%u/up
pattern read dh/%u/down
"""
PBKDF2_ROUNDS = 101  # mosquitto_passwd's own choice for its $7$ (PBKDF2-SHA512) entries


def password_line(username: str, password: str) -> str:
    """One line of a mosquitto 2 password file, as mosquitto_passwd writes it (which need not be
    installed): ``user:$7$rounds$salt$hash``."""
    salt = os.urandom(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, PBKDF2_ROUNDS)
    encoded = [base64.b64encode(part).decode() for part in (salt, digest)]
    return f"{username}:$7${PBKDF2_ROUNDS}${encoded[0]}${encoded[1]}\n"


def find_mosquitto() -> str | None:
    return shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")


class MosquittoBroker:
    def __init__(self, port: int, credentials: VenueCredentials, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = port
        self.credentials = credentials
        self.things: set[str] = set()
        self.process: subprocess.Popen[bytes] | None = None
        self._folder: tempfile.TemporaryDirectory[str] | None = None

    def start(self, timeout: float = 10, spawned: Spawned | None = None) -> MosquittoBroker:
        executable = find_mosquitto()
        if executable is None:
            raise VenueStartError(
                "mosquitto is not installed (Debian/Ubuntu: apt-get install mosquitto); "
                "without it, use the default broker (--broker aedes)"
            )
        self._folder = tempfile.TemporaryDirectory(prefix="deckhand-mosquitto-")
        folder = Path(self._folder.name)
        (folder / "acl").write_text(ACL)
        self._write_passwords()
        config = folder / "mosquitto.conf"
        config.write_text(
            CONFIG.format(port=self.port, host=self.host, folder=folder, user=getpass.getuser())
        )
        self.process = subprocess.Popen(
            [executable, "-c", str(config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # Ctrl-C reaches the venue, which stops it
        )
        if spawned is not None:
            spawned(self.process.pid)
        try:
            wait_listening(self.process, self.host, self.port, timeout, "mosquitto")
        except VenueStartError:
            self.stop()
            raise
        return self

    def _write_passwords(self) -> None:
        assert self._folder is not None
        lines = [password_line(SERVER, self.credentials.server_password)]
        lines += [password_line(thing, self.credentials.password(thing)) for thing in sorted(self.things)]
        write_private(Path(self._folder.name) / "passwords", "".join(lines))

    def allow(self, things: Iterable[str]) -> None:
        """Let these things connect from now on (mosquitto reloads its password file on SIGHUP)."""
        new = {t for t in things if is_thing_name(t)} - self.things
        if not new:
            return
        self.things |= new
        if self._folder is not None and self.process is not None and self.process.poll() is None:
            self._write_passwords()
            self.process.send_signal(signal.SIGHUP)

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def stop(self, timeout: float = 5) -> None:
        process, self.process = self.process, None
        stop_process(process, timeout)
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None
