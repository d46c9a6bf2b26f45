"""The console's sign-in sessions and their forms' one-time CSRF tokens, kept in the venue's memory (a
restarted venue asks everyone to sign in again).

A session is opened by a one-time sign-in code (``deckhand venue organiser add NAME`` prints a link
with one in its fragment) or an organiser's venue token typed in; the browser then holds only the
session id, in an HttpOnly, SameSite=Strict cookie. A session ends when its organiser's token is
withdrawn or replaced (``deckhand venue organiser remove|add NAME``): it remembers the token's digest
and is checked against the current one on every request. Every form a page draws carries a token of
its own, good once and in its session only: a forged form (no token, another session's) or a replayed
one (its token spent) is refused before anything is done.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

SESSION_SECONDS = 12 * 3600  # a TD's day at the venue
FORMS_KEPT = 256  # unspent form tokens a session keeps (the oldest are forgotten first)
SESSIONS_KEPT = 1000


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass
class Session:
    identity: str
    token_digest: str  # the organiser token it was opened with
    opened: float
    forms: OrderedDict[str, None] = field(default_factory=OrderedDict)
    may_create: bool = True  # may create events (on AWS: a member of the pool's organisers group)


class SessionSource(Protocol):
    """Where a session's identity comes from: the venue's tokens and sign-in codes (``Sessions``), or
    on AWS the Cognito user pool's verified ID token (cognito.py). The console asks only this."""

    def sign_in(self, secret: str) -> str | None: ...

    def get(self, sid: str | None) -> Session | None: ...

    def sign_out(self, sid: str | None) -> None: ...

    def form_token(self, session: Session) -> str: ...

    def spend(self, session: Session, token: str | None) -> bool: ...


class Sessions:
    def __init__(
        self,
        tokens: Callable[[], dict[str, str]],
        codes: Callable[[str], str | None] = lambda code: None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``tokens``: identity → its current venue token, read at each request; ``codes``: spends a
        one-time sign-in code, giving its identity (None: not a valid code)."""
        self.tokens = tokens
        self.codes = codes
        self.clock = clock
        self.lock = threading.Lock()
        self.open_sessions: OrderedDict[str, Session] = OrderedDict()  # digest of the id → session

    def identity_of_token(self, token: str) -> str | None:
        """The identity whose current token ``token`` is (compared in constant time), or None."""
        found = None
        for identity, candidate in self.tokens().items():
            if hmac.compare_digest(token.encode(), candidate.encode()):
                found = identity
        return found

    def sign_in(self, secret: str) -> str | None:
        """A new session's id for a valid one-time code or token; None for anything else."""
        identity = self.codes(secret) if secret else None
        if identity is None:
            identity = self.identity_of_token(secret)
        token = self.tokens().get(identity) if identity is not None else None
        if identity is None or token is None:
            return None
        sid = secrets.token_urlsafe(32)
        with self.lock:
            self.open_sessions[digest(sid)] = Session(identity, digest(token), self.clock())
            while len(self.open_sessions) > SESSIONS_KEPT:
                self.open_sessions.popitem(last=False)
        return sid

    def get(self, sid: str | None) -> Session | None:
        """The live session of ``sid``: not expired, its organiser's token unchanged."""
        if not sid:
            return None
        key = digest(sid)
        with self.lock:
            session = self.open_sessions.get(key)
            if session is None:
                return None
            current = self.tokens().get(session.identity)
            alive = self.clock() - session.opened < SESSION_SECONDS
            if not alive or current is None or not hmac.compare_digest(digest(current), session.token_digest):
                del self.open_sessions[key]
                return None
            return session

    def sign_out(self, sid: str | None) -> None:
        if sid:
            with self.lock:
                self.open_sessions.pop(digest(sid), None)

    def form_token(self, session: Session) -> str:
        """A new one-time token for a form drawn in ``session``."""
        token = secrets.token_urlsafe(24)
        with self.lock:
            session.forms[token] = None
            while len(session.forms) > FORMS_KEPT:
                session.forms.popitem(last=False)
        return token

    def spend(self, session: Session, token: str | None) -> bool:
        """True once for a token this session drew; False for any other (forged, replayed, expired)."""
        if not token:
            return False
        with self.lock:
            return session.forms.pop(token, False) is None
