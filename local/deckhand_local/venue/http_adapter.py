"""The organiser API on 127.0.0.1: HTTP requests become API Gateway REST events for the api handler.

Where API Gateway checks IAM signatures, the local adapter checks a bearer token that the venue
generates at start and writes to its state folder (``venue.json``): only who can read that file
can organise.
"""

from __future__ import annotations

import hmac
import json
import threading
import uuid
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

Handler = Callable[[dict[str, Any]], dict[str, Any]]


def api_gateway_event(method: str, target: str, headers: dict[str, str], body: str | None) -> dict[str, Any]:
    url = urlsplit(target)
    query = parse_qs(url.query)
    return {
        "resource": url.path,
        "path": url.path,
        "httpMethod": method,
        "headers": headers,
        "multiValueHeaders": {k: [v] for k, v in headers.items()},
        "queryStringParameters": {k: v[-1] for k, v in query.items()} or None,
        "multiValueQueryStringParameters": query or None,
        "pathParameters": None,
        "stageVariables": None,
        "requestContext": {
            "resourcePath": url.path,
            "httpMethod": method,
            "path": url.path,
            "stage": "local",
            "requestId": str(uuid.uuid4()),
            "accountId": "000000000000",
            "apiId": "local",
            "identity": {"userArn": "local-organiser", "caller": "local-organiser", "sourceIp": "127.0.0.1"},
        },
        "body": body,
        "isBase64Encoded": False,
    }


class ApiServer:
    def __init__(self, handler: Handler, token: str, host: str = "127.0.0.1", port: int = 8080) -> None:
        adapter = self

        class RequestHandler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode() if length else None
                auth = self.headers.get("Authorization", "")
                if not hmac.compare_digest(auth, f"Bearer {token}"):
                    self._reply(
                        401,
                        {"Content-Type": "application/json"},
                        json.dumps({"error": "missing or wrong token"}),
                    )
                    return
                headers = {k: v for k, v in self.headers.items() if k.lower() != "authorization"}
                response = adapter.handler(api_gateway_event(self.command, self.path, headers, body))
                out_headers = dict(response.get("headers") or {})
                for key, values in (response.get("multiValueHeaders") or {}).items():
                    out_headers[key] = values[-1]
                self._reply(response["statusCode"], out_headers, response.get("body") or "")

            def _reply(self, status: int, headers: dict[str, str], body: str) -> None:
                data = body.encode()
                self.send_response(status)
                for key, value in headers.items():
                    if key.lower() != "content-length":
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_DELETE = _serve  # noqa: N815

        self.handler = handler
        self.server = ThreadingHTTPServer((host, port), RequestHandler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, name="api-http", daemon=True)

    def start(self) -> ApiServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
