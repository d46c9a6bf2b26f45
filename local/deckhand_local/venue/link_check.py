"""The venue's loopback-only check of players' join tokens, asked by its broker.

Aedes (tools/broker/broker.mjs) cannot read the database: when a player's device connects (username
``web-<link id>``, the token as password), it asks this server, which runs the same
``player_links.authorize`` as AWS's custom authorizer. The server listens on 127.0.0.1 only, on a port
of its own (never the organiser API's), answers only requests from a loopback address that carry the
broker's secret (derived from the venue key: VenueCredentials.link_check_secret), and reads at most
1 KiB of body. A client that only has a token gets nothing from it: it cannot reach it, and the answer
says only whether the token admits the thing it names.

The venue tells the broker to cut a device off at once by publishing the thing's name on
``CLOSE_TOPIC`` as the server identity (a revoked or replaced link): only the server may publish there.
"""

from __future__ import annotations

import hmac
import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from ipaddress import ip_address
from typing import Any

from deckhand.service.organiser.player_links import Grant, authorize

from .http_adapter import QuietServer

PATH = "/links/authorize"
MAX_BODY = 1024
CLOSE_TOPIC = "dh/control/close"  # the server identity publishes a thing's name: the broker closes it
Authorize = Callable[[object, object], Grant | None]


class LinkCheckServer:
    def __init__(self, secret: str, authorize: Authorize = authorize, port: int = 0) -> None:
        expected = f"Bearer {secret}".encode()

        class Handler(BaseHTTPRequestHandler):
            timeout = 5

            def log_message(self, format: str, *args: Any) -> None:
                pass  # a request line never holds the token, but nothing here needs logging

            def do_POST(self) -> None:  # noqa: N802
                if not ip_address(self.client_address[0]).is_loopback:
                    return self._answer(403, {"error": "loopback only"})
                given = self.headers.get("Authorization", "").encode()
                if not hmac.compare_digest(given, expected):
                    return self._answer(401, {"error": "missing or wrong secret"})
                if self.path != PATH:
                    return self._answer(404, {"error": "no such route"})
                length = self.headers.get("Content-Length", "")
                if not (length.isascii() and length.isdigit()) or int(length) > MAX_BODY:
                    return self._answer(400, {"error": f"a JSON body of at most {MAX_BODY} bytes"})
                try:
                    body = json.loads(self.rfile.read(int(length)))
                except (ValueError, UnicodeDecodeError):
                    return self._answer(400, {"error": "the body is not JSON"})
                if not isinstance(body, dict):
                    return self._answer(400, {"error": "the body is not a JSON object"})
                grant = authorize(body.get("username"), body.get("password"))
                if grant is None:
                    return self._answer(403, {"error": "not a valid join token for this thing"})
                self._answer(
                    200,
                    {
                        "thing": grant.thing,
                        "event": grant.event_id,
                        "player": grant.player,
                        "expires_at": grant.expires_at,
                    },
                )

            def _answer(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)
                self.close_connection = True

        self.server = QuietServer(("127.0.0.1", port), Handler)
        self.port: int = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, name="link-check", daemon=True)

    def start(self) -> LinkCheckServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
