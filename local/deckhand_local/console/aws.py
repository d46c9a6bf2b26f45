"""The console on AWS: API Gateway's events in and out of the same ``Console`` the venue serves, signed
in through the Cognito user pool's own sign-in page (functions/console/app.py; docs/console.md).

The way in is OAuth's authorization code flow with PKCE against the pool's domain: ``/console/sign-in/
account`` sends the browser there with a fresh ``state`` and code challenge (both kept in a short-lived
HttpOnly cookie for the callback's path only), and ``/console/callback`` takes the code back, checks the
state, exchanges the code with its verifier for the tokens (server to pool, never through the browser)
and keeps the ID token, verified, as the session (cognito.py). Everything else is ``Console.serve``,
after the body limit: a body over what the request may bring (nothing without a session, 4 KiB for the
sign-in form, the API's 1 MiB otherwise) is answered 413 before anything parses it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import secrets
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from typing import Any

from deckhand.service import api_bounds

from ..api_events import api_gateway_event
from .app import PREFIX, SESSION_COOKIE, Console, Reply
from .cognito import CognitoSessions, Pool, TokenRefused

SIGN_IN_START = PREFIX + "sign-in/account"
CALLBACK = PREFIX + "callback"
FLOW_COOKIE = "deckhand_console_flow"  # the sign-in's state and PKCE verifier, for the callback only
FLOW_SECONDS = 600
SCOPES = "openid"
# API Gateway event → response, the organiser API's handler (functions/api's resolver)
Resolve = Callable[[dict[str, Any], Any], dict[str, Any]]
# (url, form fields) → the JSON answer of a form POST (the pool's token endpoint)
PostForm = Callable[[str, dict[str, str]], Any]
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Settings:
    """What the stack tells the console (its SSM parameter, written by template.yaml)."""

    pool: Pool
    domain: str  # the pool's sign-in host: <prefix>.auth.<region>.amazoncognito.com
    url: str  # the console's own address, https://<distribution>/console/

    @classmethod
    def from_json(cls, text: str) -> Settings:
        value = json.loads(text)
        pool = Pool(value["region"], value["pool_id"], value["client_id"])
        return cls(pool, value["domain"], value["url"])

    @property
    def redirect_uri(self) -> str:
        return self.url.rstrip("/") + "/callback"


def post_form(url: str, fields: dict[str, str]) -> Any:
    data = urllib.parse.urlencode(fields).encode()
    request = urllib.request.Request(
        url, data=data, headers={"Content-Type": "application/x-www-form-urlencoded"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 (the pool's https domain)
        return json.loads(response.read(1 << 20))


class HostedSignIn:
    """The pool's authorization code flow with PKCE, as a confidential-free (public) app client."""

    def __init__(self, settings: Settings, post: PostForm = post_form) -> None:
        self.settings = settings
        self.post = post

    def start(self) -> tuple[str, str]:
        """The pool's sign-in address, and the flow cookie's value (state and verifier) to keep."""
        state = secrets.token_urlsafe(24)
        verifier = secrets.token_urlsafe(48)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        query = urllib.parse.urlencode(
            {
                "response_type": "code",
                "client_id": self.settings.pool.client_id,
                "redirect_uri": self.settings.redirect_uri,
                "scope": SCOPES,
                "state": state,
                "code_challenge": challenge,
                "code_challenge_method": "S256",
            }
        )
        return f"https://{self.settings.domain}/oauth2/authorize?{query}", f"{state}.{verifier}"

    def finish(self, code: str, state: str, flow: str) -> str | None:
        """The ID token the pool gives for ``code``, if ``state`` is this browser's flow's; None otherwise
        (a forged callback, another browser's, a code refused by the pool)."""
        kept_state, _, verifier = flow.partition(".")
        if not code or not verifier or not hmac.compare_digest(state.encode(), kept_state.encode()):
            return None
        fields = {
            "grant_type": "authorization_code",
            "client_id": self.settings.pool.client_id,
            "code": code,
            "redirect_uri": self.settings.redirect_uri,
            "code_verifier": verifier,
        }
        try:
            answer = self.post(f"https://{self.settings.domain}/oauth2/token", fields)
        except (OSError, ValueError):  # urllib's HTTPError (the pool refusing the code) is an OSError
            log.warning("the user pool refused a sign-in's code")
            return None
        token = answer.get("id_token") if isinstance(answer, dict) else None
        return token if isinstance(token, str) else None

    def sign_out_url(self) -> str:
        """The pool's sign-out, which ends its own session too and comes back to the console."""
        query = urllib.parse.urlencode(
            {"client_id": self.settings.pool.client_id, "logout_uri": self.settings.url}
        )
        return f"https://{self.settings.domain}/logout?{query}"


class ConsoleFunction:
    """The console's Lambda handler: an API Gateway REST event in, its proxy response out."""

    def __init__(
        self,
        settings: Settings,
        sessions: CognitoSessions,
        resolve: Resolve,
        root: Path,
        post: PostForm = post_form,
    ) -> None:
        """``resolve``: the organiser API's handler (functions/api's resolver); ``root``: the console's
        browser files; ``post``: how the pool's token endpoint is asked."""
        self.settings = settings
        self.sessions = sessions
        self.resolve = resolve
        self.sign_in = HostedSignIn(settings, post)
        self.context: Any = None  # the invocation's (one at a time per instance)
        self.console = Console(self.api, dict, root, sessions=sessions, sign_in_link=SIGN_IN_START)

    def api(self, method: str, path: str, body: Any, identity: str) -> tuple[int, str, str]:
        """The organiser API's own handler, in-process, as the signed-in identity: its bounds, routes,
        role checks and audit, as for a request through API Gateway."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        event = api_gateway_event(
            method, path, headers, json.dumps(body) if body is not None else None, identity
        )
        refusal = api_bounds.refusal(event)
        response = api_bounds.refused(refusal) if refusal is not None else self.resolve(event, self.context)
        out = {k.lower(): v for k, v in (response.get("headers") or {}).items()}
        out.update({k.lower(): v[-1] for k, v in (response.get("multiValueHeaders") or {}).items()})
        return int(response.get("statusCode", 500)), out.get("content-type", ""), response.get("body") or ""

    def __call__(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        self.context = context
        self.sessions.begin_request()
        method = event.get("httpMethod", "GET")
        path = event.get("path") or "/"
        query = event.get("multiValueQueryStringParameters") or {}
        target = path + ("?" + urllib.parse.urlencode(query, doseq=True) if query else "")
        headers = {k.lower(): v for k, v in (event.get("headers") or {}).items() if isinstance(v, str)}
        raw = event.get("body") or ""
        encoded = bool(event.get("isBase64Encoded"))
        size = len(raw) * 3 // 4 if encoded else len(raw.encode())
        if size > self.console.body_limit(target, headers):  # before anything parses the body
            return _response((413, {"Content-Type": "text/plain; charset=utf-8"}, b"the body is too large"))
        try:
            body = base64.b64decode(raw, validate=True) if encoded else raw.encode()
        except ValueError:  # binascii.Error: not what API Gateway sends
            return _response(
                (400, {"Content-Type": "text/plain; charset=utf-8"}, b"a body that is not base64")
            )
        if path == SIGN_IN_START and method == "GET":
            return _response(self._start())
        if path == CALLBACK and method == "GET":
            return _response(self._callback(target, headers, query))
        status, out, data = self.console.serve(method, target, headers, body)
        if path == PREFIX + "sign-out" and status == 303:
            # On to the pool's own sign-out by a page, not a redirect: the pages' Content-Security-Policy
            # (form-action 'self') would stop a form's answer redirecting to the pool's site.
            gone = out["Set-Cookie"]
            status, out, data = self.console.page_without_session(
                200,
                "onward.html",
                PREFIX,
                headers,
                onward=self.sign_in.sign_out_url(),
                label="sign_in.title",
                kind="signed-out",
            )
            out["Set-Cookie"] = gone
        return _response((status, out, data))

    def _start(self) -> Reply:
        url, flow = self.sign_in.start()
        cookie = (
            f"{FLOW_COOKIE}={flow}; Path={CALLBACK}; HttpOnly; Secure; SameSite=Lax; Max-Age={FLOW_SECONDS}"
        )
        return 302, {"Location": url, "Set-Cookie": cookie, "Cache-Control": "no-store"}, b""

    def _callback(self, target: str, headers: dict[str, str], query: dict[str, list[str]]) -> Reply:
        def one(name: str) -> str:
            values = query.get(name) or [""]
            return values[-1]

        flow = _cookie(headers, FLOW_COOKIE)
        token = self.sign_in.finish(one("code"), one("state"), flow) if flow else None
        try:
            claims = self.sessions.claims(token) if token else None
        except TokenRefused as refused:
            log.warning("a sign-in's ID token was refused: %s", refused)
            claims = None
        if token is None or claims is None:
            status, out, data = self.console.page_without_session(
                401, "sign_in.html", PREFIX, headers, wrong=True
            )
            out["Set-Cookie"] = f"{FLOW_COOKIE}=; Path={CALLBACK}; HttpOnly; Secure; SameSite=Lax; Max-Age=0"
            return status, out, data
        age = max(0, claims.expires - int(self.sessions.clock()))
        session = f"{SESSION_COOKIE}={token}; Path={PREFIX}; HttpOnly; Secure; SameSite=Strict; Max-Age={age}"
        # A page, not a redirect: the way here began on the pool's site, and a browser sends a SameSite=Strict
        # cookie only on a navigation that starts on the console's own; this page's refresh does.
        status, out, data = self.console.page_without_session(
            200, "onward.html", PREFIX, headers, onward=PREFIX, label="nav.events", kind="signed-in"
        )
        out["Set-Cookie"] = session
        return status, out, data


def _cookie(headers: dict[str, str], name: str) -> str:
    try:
        jar = SimpleCookie(headers.get("cookie", ""))
    except CookieError:
        return ""
    morsel = jar.get(name)
    return morsel.value if morsel is not None else ""


def _response(reply: Reply) -> dict[str, Any]:
    """API Gateway's proxy response: every cookie Secure (the console is served over HTTPS only), and a
    body that is not UTF-8 text sent base64-encoded."""
    status, headers, data = reply
    single = dict(headers)
    cookie = single.pop("Set-Cookie", None)
    multi: dict[str, list[str]] = {}
    if cookie is not None:
        multi["Set-Cookie"] = [cookie if "; Secure" in cookie else cookie + "; Secure"]
    try:
        body, encoded = data.decode(), False
    except UnicodeDecodeError:
        body, encoded = base64.b64encode(data).decode(), True
    return {
        "statusCode": status,
        "headers": single,
        "multiValueHeaders": multi,
        "body": body,
        "isBase64Encoded": encoded,
    }
