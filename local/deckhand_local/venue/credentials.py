"""Each thing's MQTT credentials at a local venue, the equivalent of its IoT Core certificate.

The venue keeps one random key in its state folder; a thing's password is HMAC-SHA256(key, its name),
so any broker process checks a password without a list of things or a database, and a thing
registered after the broker started connects at once. The server (the bridge and the publishers)
has an identity of its own, ``deckhand-server``, with a password derived apart from any thing's.
The username a thing connects with is its thing name, and its client id must be the same (as the
IoT policy binds the client id to the thing).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from deckhand.errors import DeckhandError
from deckhand.service.bodies import RESERVED_THINGS, SERVER_IDENTITY

from .state_folder import make_private, read_or_create

SERVER = SERVER_IDENTITY  # the API refuses it as a thing name
KEY_FILE = "venue-key"
THING_NAME = re.compile(r"[A-Za-z0-9_:-]{1,128}")


def server_client_id(name: str) -> str:
    """The client id of one of the server's connections: under ``deckhand-server/``, which no thing
    name can be, so no thing can take over (and drop) the bridge's session with a client id of its."""
    return f"{SERVER}/{name}"


def is_thing_name(name: str) -> bool:
    return THING_NAME.fullmatch(name) is not None and name not in RESERVED_THINGS


@dataclass(frozen=True)
class VenueCredentials:
    key: bytes

    @classmethod
    def generate(cls) -> VenueCredentials:
        """A key of its own, kept nowhere (tests, and brokers that live as long as one run)."""
        return cls(secrets.token_bytes(32))

    @classmethod
    def for_state(cls, state_dir: Path) -> VenueCredentials:
        """The venue's key from its state folder, made the first time: provisioned devices keep
        working across restarts."""
        make_private(state_dir)
        return cls(bytes.fromhex(read_or_create(state_dir / KEY_FILE, lambda: secrets.token_hex(32))))

    def _derive(self, purpose: str) -> str:
        digest = hmac.new(self.key, purpose.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()

    def password(self, thing: str) -> str:
        """The password of ``thing`` (refused for a name no thing can have, the server's among them)."""
        if not is_thing_name(thing):
            raise DeckhandError(
                f"{thing!r} is not a thing name: 1–128 letters, digits or _:-, not {sorted(RESERVED_THINGS)}"
            )
        return self._derive(f"thing:{thing}")

    @property
    def server_password(self) -> str:
        return self._derive(f"server:{SERVER}")

    @property
    def link_check_secret(self) -> str:
        """What the broker shows the venue's loopback join-token check (venue/link_check.py)."""
        return self._derive("link-check:players")

    def check(self, username: str, password: str) -> bool:
        """Whether ``password`` is ``username``'s (the server's or a thing's), in constant time."""
        if username == SERVER:
            expected = self.server_password
        elif is_thing_name(username):
            expected = self.password(username)
        else:
            return False
        return hmac.compare_digest(expected.encode(), password.encode())
