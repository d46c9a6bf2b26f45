"""The local venue's organisers besides its own: one bearer token each, in ``organisers.json``
(0600) in the state folder. The HTTP adapter maps a token to its organiser's identity
(``local:NAME``), as API Gateway maps a signature to an IAM ARN, so two organisers can be told
apart — and kept apart (docs/access.md) — on one machine.

The console (console/app.py) is signed in to with a one-time code instead, so the long-lived token is
never printed nor put in a link: ``sign-in-codes.json`` (0600) keeps each code's SHA-256, whose
identity it opens a session for, until when; the first use spends it."""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import time
from pathlib import Path
from typing import Any

from deckhand.errors import DeckhandError

FILE = "organisers.json"
CODES = "sign-in-codes.json"
CODE_SECONDS = 600  # a sign-in link is good for ten minutes, once
NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
VENUE_IDENTITY = "local-organiser"  # the venue's own token (venue.json): the default CLI's identity
# The live results site's viewer (site/live.py): an identity with no role in any event and no token —
# it reads only what anyone may see. No organiser name maps to it (theirs are ``local:NAME``).
PUBLIC_VIEWER = "local-public-viewer"


def identity_of(name: str) -> str:
    return f"local:{name}"


def read(state_dir: Path) -> dict[str, str]:
    """Organiser name → token; {} when none was added."""
    path = state_dir / FILE
    if not path.exists():
        return {}
    tokens = json.loads(path.read_text())
    if not isinstance(tokens, dict):
        raise DeckhandError(f"{path} is not an object of organiser names and tokens")
    return {str(k): str(v) for k, v in tokens.items()}


def add(state_dir: Path, name: str) -> str:
    """A new token for ``name`` (a name added again gets a new one: the old one stops working)."""
    if not NAME.match(name):
        raise DeckhandError(f"organiser name {name!r}: 1–64 letters, digits, '_', '.', '-'")
    tokens = read(state_dir)
    tokens[name] = secrets.token_urlsafe(24)
    _write(state_dir, tokens)
    return tokens[name]


def remove(state_dir: Path, name: str) -> None:
    tokens = read(state_dir)
    if tokens.pop(name, None) is None:
        raise DeckhandError(f"no organiser {name!r} in {state_dir / FILE}")
    _write(state_dir, tokens)


def token_of(state_dir: Path, name: str) -> str:
    token = read(state_dir).get(name)
    if token is None:
        raise DeckhandError(f"no organiser {name!r}: add one with `deckhand venue organiser add {name}`")
    return token


def sign_in_code(state_dir: Path, identity: str, now: float | None = None) -> str:
    """A new one-time code that signs ``identity`` in to the console (within ``CODE_SECONDS``)."""
    now = time.time() if now is None else now
    code = secrets.token_urlsafe(24)
    codes = {k: v for k, v in _codes(state_dir).items() if v["until"] > now}
    codes[_digest(code)] = {"identity": identity, "until": now + CODE_SECONDS}
    _write(state_dir, codes, CODES)
    return code


def spend_code(state_dir: Path, code: str, now: float | None = None) -> str | None:
    """The identity a valid, unexpired code was made for, the code spent; None for any other."""
    now = time.time() if now is None else now
    codes = _codes(state_dir)
    found = codes.pop(_digest(code), None)
    if found is None:
        return None
    _write(state_dir, codes, CODES)
    return str(found["identity"]) if found["until"] > now else None


def _digest(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def _codes(state_dir: Path) -> dict[str, dict[str, Any]]:
    path = state_dir / CODES
    codes = json.loads(path.read_text()) if path.exists() else {}
    return codes if isinstance(codes, dict) else {}


def _write(state_dir: Path, tokens: dict[str, Any], file: str = FILE) -> None:
    """Written to a new 0600 file, then renamed over the old one: never readable by others, never
    half-written."""
    state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = state_dir / f".{file}.{secrets.token_hex(4)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump(tokens, out, indent=1, sort_keys=True)
    os.replace(tmp, state_dir / file)
