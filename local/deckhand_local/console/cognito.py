"""The console's sessions on AWS: a Cognito user pool's ID token, verified on every request.

The console's Lambda function keeps nothing in memory between requests (another instance may answer the
next one), so the session is the ID token itself, in the same HttpOnly, SameSite=Strict (and Secure)
cookie as the venue's session id. Every request verifies it afresh: an RS256 signature by a key of the
pool's JWKS (no other algorithm: ``none`` and HMAC are refused), the pool's issuer, the console's app
client as audience, ``token_use`` ``id``, not expired. Anything else — forged, expired, another pool's
or another client's — is no session. The identity the organiser API sees is ``cognito:<sub>`` (the
user's immutable id, never reused); the pool's groups say who may sign in at all: ``organisers`` (may
create events) and ``referees`` (may not; they see the events where an owner names them).

The forms' one-time CSRF tokens are those of the venue in effect: a token is drawn for the session (a
random nonce and its HMAC under the session's own secret, so no other session can draw or use it) and
spent once, by a conditional write of its digest (``Ledger``): a replay fails that write. Signing out
writes the token's digest the same way; a signed-out token is no session even before it expires.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import logging
import re
import secrets
import threading
import time
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from deckhand.service.storage import keys as storage_keys

from .sessions import Session, digest

ORGANISERS = "organisers"  # the pool's group of those who may create events
REFEREES = "referees"  # the pool's group of those who may only be named in events
IDENTITY_PREFIX = "cognito:"
SKEW_SECONDS = 60  # an ID token issued this far in our future is still taken (clocks differ)
RECORD_SECONDS = 24 * 3600  # how long a spent form or a signed-out token is remembered (an ID token's most)
JWKS_REFETCH_SECONDS = 300  # an unknown key id fetches the pool's keys again, at most this often
_PART = re.compile(r"^[A-Za-z0-9_-]*$")
_SUB = re.compile(r"^[A-Za-z0-9-]{1,128}$")
log = logging.getLogger(__name__)
MAX_TOKEN = 8192  # characters: an ID token is ~1-2 KB; longer is refused before it is decoded


class TokenRefused(Exception):
    """An ID token this console does not accept (the reason is for the log, never the browser)."""


@dataclass(frozen=True)
class Pool:
    """The user pool and the console's app client, as the stack made them."""

    region: str
    pool_id: str
    client_id: str

    @property
    def issuer(self) -> str:
        return f"https://cognito-idp.{self.region}.amazonaws.com/{self.pool_id}"

    @property
    def jwks_url(self) -> str:
        return f"{self.issuer}/.well-known/jwks.json"


@dataclass(frozen=True)
class Claims:
    """What the console takes from a verified ID token."""

    sub: str
    groups: frozenset[str]
    expires: int

    @property
    def identity(self) -> str:
        return IDENTITY_PREFIX + self.sub


KeyFinder = Callable[[str], rsa.RSAPublicKey | None]


def public_keys(jwks: Mapping[str, Any]) -> dict[str, rsa.RSAPublicKey]:
    """The RSA signing keys of a JWKS document, by key id."""
    found: dict[str, rsa.RSAPublicKey] = {}
    for key in jwks.get("keys", []):
        if key.get("kty") != "RSA" or key.get("use", "sig") != "sig" or not isinstance(key.get("kid"), str):
            continue
        n = int.from_bytes(_b64(key["n"]), "big")
        e = int.from_bytes(_b64(key["e"]), "big")
        found[key["kid"]] = rsa.RSAPublicNumbers(e, n).public_key()
    return found


def _b64(part: str) -> bytes:
    if not _PART.match(part):
        raise TokenRefused("not base64url")
    try:
        return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
    except (binascii.Error, ValueError):
        raise TokenRefused("not base64url") from None


def _json(part: str) -> dict[str, Any]:
    try:
        value = json.loads(_b64(part))
    except ValueError:
        raise TokenRefused("not JSON") from None
    if not isinstance(value, dict):
        raise TokenRefused("not a JSON object")
    return value


def verify_id_token(token: str, pool: Pool, keys: KeyFinder, now: float) -> Claims:
    """The claims of ``token`` if it is an ID token of ``pool`` for its console client, signed by one
    of the pool's keys and not expired; TokenRefused otherwise."""
    parts = token.split(".")
    if len(token) > MAX_TOKEN or len(parts) != 3:
        raise TokenRefused("not a JWT")
    header, claims = _json(parts[0]), _json(parts[1])
    if header.get("alg") != "RS256":  # never "none", never HS256 with the public key as its secret
        raise TokenRefused(f"algorithm {header.get('alg')!r}")
    kid = header.get("kid")
    key = keys(kid) if isinstance(kid, str) else None
    if key is None:
        raise TokenRefused("no such key in the pool's JWKS")
    try:
        key.verify(_b64(parts[2]), f"{parts[0]}.{parts[1]}".encode(), padding.PKCS1v15(), hashes.SHA256())
    except InvalidSignature:
        raise TokenRefused("bad signature") from None
    if claims.get("iss") != pool.issuer:
        raise TokenRefused("another issuer")
    if claims.get("token_use") != "id":
        raise TokenRefused("not an ID token")
    if claims.get("aud") != pool.client_id:
        raise TokenRefused("another audience")
    expires, issued = claims.get("exp"), claims.get("iat")
    if not isinstance(expires, int) or not isinstance(issued, int) or isinstance(expires, bool):
        raise TokenRefused("no expiry")
    if expires <= now:
        raise TokenRefused("expired")
    if issued > now + SKEW_SECONDS:
        raise TokenRefused("issued in the future")
    sub = claims.get("sub")
    if not isinstance(sub, str) or not _SUB.match(sub):
        raise TokenRefused("no subject")
    groups = claims.get("cognito:groups", [])
    if not isinstance(groups, list) or not all(isinstance(g, str) for g in groups):
        raise TokenRefused("bad groups")
    return Claims(sub, frozenset(groups), expires)


def fetch_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 (https, the pool's own address)
        return json.loads(response.read(1 << 20))


class Jwks:
    """The pool's signing keys, fetched once and again (at most every few minutes) for an unknown key
    id: the pool rotating its keys needs no redeploy."""

    def __init__(
        self,
        url: str,
        fetch: Callable[[str], Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.url = url
        self.fetch = fetch
        self.clock = clock
        self.keys: dict[str, rsa.RSAPublicKey] = {}
        self.fetched: float | None = None
        self.lock = threading.Lock()

    def __call__(self, kid: str) -> rsa.RSAPublicKey | None:
        with self.lock:
            stale = self.fetched is None or self.clock() - self.fetched >= JWKS_REFETCH_SECONDS
            if kid not in self.keys and stale:
                self.fetched = self.clock()
                fetch = self.fetch if self.fetch is not None else fetch_json
                try:
                    self.keys = public_keys(fetch(self.url))
                except (OSError, ValueError, KeyError, TypeError) as error:  # the keys known stay
                    log.warning("the user pool's keys could not be fetched: %s", error)
            return self.keys.get(kid)


class Ledger(Protocol):
    """Records written once and kept a while: spent form tokens and signed-out sessions."""

    def once(self, key: str, until: int) -> bool:
        """True when ``key`` is recorded now (until ``until``, epoch seconds); False when it was already."""
        ...

    def seen(self, key: str) -> bool: ...


class TableLedger:
    """The ledger in the event table (storage/keys.console_pk), written with ``attribute_not_exists``."""

    def __init__(self, table: str, client: Any, clock: Callable[[], float] = time.time) -> None:
        self.table = table
        self.client = client
        self.clock = clock

    def once(self, key: str, until: int) -> bool:
        try:
            self.client.put_item(
                TableName=self.table,
                Item={
                    "pk": {"S": storage_keys.console_pk(digest(key))},
                    "sk": {"S": storage_keys.META},
                    "kind": {"S": key.split("#", 1)[0]},
                    "ttl": {"N": str(until)},
                },
                ConditionExpression="attribute_not_exists(pk)",
            )
        except self.client.exceptions.ConditionalCheckFailedException:
            return False
        return True

    def seen(self, key: str) -> bool:
        item = self.client.get_item(
            TableName=self.table,
            Key={"pk": {"S": storage_keys.console_pk(digest(key))}, "sk": {"S": storage_keys.META}},
            ConsistentRead=True,
        ).get("Item")
        return item is not None and int(item["ttl"]["N"]) > self.clock()  # TTL deletes late


class CognitoSessions:
    """The console's session source on AWS (sessions.SessionSource): the session id is the ID token."""

    def __init__(self, pool: Pool, keys: KeyFinder, ledger: Ledger, clock: Callable[[], float] = time.time):
        self.pool = pool
        self.keys = keys
        self.ledger = ledger
        self.clock = clock
        # The sessions found in the request being answered (a page asks several times): one token check
        # and one ledger read a request. Emptied as each request begins (``begin_request``).
        self.found: dict[str, Session | None] = {}

    def begin_request(self) -> None:
        self.found.clear()

    def claims(self, token: str) -> Claims:
        """The verified claims of a staff member's ID token; TokenRefused for any other token."""
        claims = verify_id_token(token, self.pool, self.keys, self.clock())
        if not claims.groups & {ORGANISERS, REFEREES}:
            raise TokenRefused("neither an organiser nor a referee")
        return claims

    def sign_in(self, secret: str) -> str | None:
        """No code or token is typed in on AWS: the pool's own sign-in page is the way in."""
        return None

    def get(self, sid: str | None) -> Session | None:
        if not sid:
            return None
        if sid not in self.found:
            self.found[sid] = self._session(sid)
        return self.found[sid]

    def _session(self, sid: str) -> Session | None:
        try:
            claims = self.claims(sid)
        except TokenRefused:
            return None
        if self.ledger.seen(f"out#{sid}"):
            return None
        return Session(claims.identity, digest(sid), self.clock(), may_create=ORGANISERS in claims.groups)

    def sign_out(self, sid: str | None) -> None:
        if sid and self.get(sid) is not None:
            self.ledger.once(f"out#{sid}", int(self.clock()) + RECORD_SECONDS)
            self.found.pop(sid, None)

    def form_token(self, session: Session) -> str:
        nonce = secrets.token_urlsafe(18)
        return f"{nonce}.{self._mac(session, nonce)}"

    def spend(self, session: Session, token: str | None) -> bool:
        """True once for a token drawn in this session; False for a forged, another session's or a
        replayed one (its spending written before anything the form asks is done)."""
        if not token or token.count(".") != 1:
            return False
        nonce, mac = token.split(".")
        if not hmac.compare_digest(mac.encode(), self._mac(session, nonce).encode()):
            return False
        return self.ledger.once(f"form#{token}", int(self.clock()) + RECORD_SECONDS)

    @staticmethod
    def _mac(session: Session, nonce: str) -> str:
        key = session.token_digest.encode()  # the digest of the session's own (HttpOnly) token
        return hmac.new(key, nonce.encode(), hashlib.sha256).hexdigest()
