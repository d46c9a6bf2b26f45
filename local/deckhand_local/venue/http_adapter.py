"""The organiser API on 127.0.0.1: HTTP requests become API Gateway REST events for the api handler.

Where API Gateway checks IAM signatures, the local adapter checks a bearer token: the venue's own,
generated at start and written to its state folder (``venue.json``: the identity
``local-organiser``), or another organiser's from ``organisers.json`` (``local:NAME``;
venue/organisers.py). The token is checked before the body is read; a body over 1 MiB is refused
without reading it, and a request whose length cannot be known is refused: a client without a
token cannot make the venue read (or hold) anything.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import socket
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ..api_events import api_gateway_event
from .organisers import VENUE_IDENTITY
from .organisers import identity_of as identity_of_name

Handler = Callable[[dict[str, Any]], dict[str, Any]]
MAX_BODY = 1024 * 1024  # bytes; API Gateway's own limit is 10 MB, an organiser's body is far smaller
# Connections whose request head is still being read (no token checked yet): past this many, a new one
# is answered 503 at once, so clients without a token cannot hold the venue's threads.
MAX_UNREAD = 32
PLAY_PATHS = ("/play", "/play/")  # the player's page (venue/player_site.py)
CONSOLE_PATHS = ("/console", "/console/")  # the tournament director's console (console/app.py)
# (method, path, headers, body) → (status, headers, body): the console, its body limited and read here
Console = Callable[[str, str, dict[str, str], bytes], tuple[int, dict[str, str], bytes]]
# (path, headers) → the most body bytes the console takes for this request (0: none, e.g. no session)
ConsoleLimit = Callable[[str, dict[str, str]], int]


class Refusal(Exception):
    """A request answered with ``status`` before its body is read."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def body_length(headers: Any) -> int:
    """The body's length from Content-Length (none: no body). Chunked bodies, several or malformed
    lengths are refused: the adapter reads exactly what it was told, or nothing."""
    if headers.get("Transfer-Encoding"):
        raise Refusal(400, "Transfer-Encoding is not accepted: send Content-Length")
    values = headers.get_all("Content-Length") or []
    if not values:
        return 0
    value = values[0].strip()
    if len(values) > 1 or not (value.isascii() and value.isdigit()):  # "²".isdigit(), int() refuses it
        raise Refusal(400, "bad Content-Length")
    length = int(value)
    if length > MAX_BODY:
        raise Refusal(413, f"the body is larger than {MAX_BODY} bytes")
    return length


class QuietServer(ThreadingHTTPServer):
    """A client that hangs up before its answer is written (a broken pipe) is no failure of the venue:
    no traceback on stderr, where it would bury a real one."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            super().handle_error(request, client_address)


class ApiServer:
    def __init__(
        self,
        handler: Handler,
        token: str,
        host: str = "127.0.0.1",
        port: int = 8080,
        *,
        organisers: Callable[[], dict[str, str]] = dict,
        request_timeout: float = 10,
        max_unread: int = MAX_UNREAD,
        site: Callable[[str], tuple[int, dict[str, str], bytes]] | None = None,
        play: Callable[[str, str | None], tuple[int, dict[str, str], bytes]] | None = None,
        console: Console | None = None,
        console_limit: ConsoleLimit = lambda path, headers: MAX_BODY,
    ) -> None:
        """``token``: the venue's own (identity ``local-organiser``); ``organisers``: name → token of
        the others, read at each request (organisers added while the venue runs count at once);
        ``request_timeout``: seconds a client may take to send its whole request head (a slow one
        holds no thread for long: the deadline is for the head, not for each read); ``max_unread``:
        connections whose head is being read at once (more are refused with a 503); ``site``: the public
        results pages under ``/site/``; ``play``: the player's page under ``/play`` (given the path and
        the Host header), neither behind the token; ``console``: the tournament director's console under
        ``/console/`` (its own sign-in; its body refused before it is read when over the API's limit or
        over ``console_limit``'s: a request without a session makes the venue read next to nothing)."""
        adapter = self
        unread = threading.BoundedSemaphore(max_unread)

        def identity_of(auth: str) -> str | None:
            candidates = {VENUE_IDENTITY: token, **{identity_of_name(n): t for n, t in organisers().items()}}
            found = None
            for identity, candidate in candidates.items():
                if hmac.compare_digest(auth.encode(), f"Bearer {candidate}".encode()):
                    found = identity
            return found

        class RequestHandler(BaseHTTPRequestHandler):
            timeout = request_timeout

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def handle(self) -> None:
                self.close_connection = True
                self._guarded()
                while not self.close_connection:
                    self._guarded()

            def _guarded(self) -> None:
                """One request whose head must arrive within ``request_timeout`` in all: past that
                the connection is cut, however steadily the client trickles header lines."""
                if not unread.acquire(blocking=False):
                    self.close_connection = True
                    self.request_version, self.requestline, self.command = "HTTP/1.0", "", ""
                    self._refuse(503, "too many requests are being received: try again")
                    return
                self._waiting = True
                self._deadline = threading.Timer(request_timeout, self._cut)
                self._deadline.daemon = True
                self._deadline.start()
                try:
                    self.handle_one_request()
                finally:
                    self._head_read()

            def _cut(self) -> None:
                self.close_connection = True
                with contextlib.suppress(OSError):
                    self.connection.shutdown(socket.SHUT_RDWR)

            def _head_read(self) -> None:
                if self._waiting:
                    self._waiting = False
                    self._deadline.cancel()
                    unread.release()

            def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
                """Errors the HTTP server itself answers (an unknown method such as PATCH, a bad
                request line) in the API's one ``{"error": …}`` shape, not an HTML page."""
                self.close_connection = True
                text = message or self.responses.get(code, ("error",))[0]
                if code in (501, 405):
                    code, text = 405, f"method {self.command} is not allowed"
                self._refuse(code, text)

            def _serve(self) -> None:
                self._head_read()
                if site is not None and self.command == "GET" and self.path.startswith("/site/"):
                    # The public results pages (site/live.py): no token, nothing but what anyone may see.
                    status, headers, data = site(self.path)
                    self._reply_bytes(status, headers, data)
                    return
                if play is not None and self.command == "GET" and self.path.split("?")[0][:6] in PLAY_PATHS:
                    status, headers, data = play(self.path, self.headers.get("Host"))
                    self._reply_bytes(status, headers, data)
                    return
                if console is not None and self.path.split("?")[0][:9] in CONSOLE_PATHS:
                    self._console(console)
                    return
                identity = identity_of(self.headers.get("Authorization", ""))
                try:
                    if identity is None:
                        raise Refusal(401, "missing or wrong token")
                    length = body_length(self.headers)
                    raw = self.rfile.read(length) if length else b""
                    body = raw.decode() if raw else None
                except Refusal as refusal:
                    self._refuse(refusal.status, str(refusal))
                    return
                except UnicodeDecodeError:
                    self._refuse(400, "the body is not UTF-8")
                    return
                headers = {k: v for k, v in self.headers.items() if k.lower() != "authorization"}
                response = adapter.handler(
                    api_gateway_event(self.command, self.path, headers, body, identity)
                )
                out_headers = dict(response.get("headers") or {})
                for key, values in (response.get("multiValueHeaders") or {}).items():
                    out_headers[key] = values[-1]
                self._reply(response["statusCode"], out_headers, response.get("body") or "")

            def _console(self, console: Console) -> None:
                headers = {k: v for k, v in self.headers.items() if k.lower() != "authorization"}
                try:
                    length = body_length(self.headers)
                    if length > console_limit(self.path, headers):
                        raise Refusal(413, "the body is larger than this page takes (signed in?)")
                    raw = self.rfile.read(length) if length else b""
                except Refusal as refusal:
                    self._refuse(refusal.status, str(refusal))
                    return
                self._reply_bytes(*console(self.command, self.path, headers, raw))

            def _refuse(self, status: int, message: str) -> None:
                """Answered without reading the body, then the connection closed: what was not read
                is never read."""
                self.close_connection = True
                headers = {"Content-Type": "application/json", "Connection": "close"}
                self._reply(status, headers, json.dumps({"error": message}))

            def _reply(self, status: int, headers: dict[str, str], body: str) -> None:
                self._reply_bytes(status, headers, body.encode())

            def _reply_bytes(self, status: int, headers: dict[str, str], data: bytes) -> None:
                self.send_response(status)
                for key, value in headers.items():
                    if key.lower() != "content-length":
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_DELETE = _serve  # noqa: N815

        self.handler = handler
        self.server = QuietServer((host, port), RequestHandler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, name="api-http", daemon=True)

    def start(self) -> ApiServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
