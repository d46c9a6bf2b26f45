"""Issue 33, finding 6: the request limit was an idle timeout per read, so a client sending a header
line every few seconds held a thread for as long as it liked, and any number of such clients could.
Now the whole head must arrive within the limit, and only so many heads are read at once. Also: an
unknown method (PATCH) answers the API's ``{"error": …}`` shape, not an HTML page."""

from __future__ import annotations

import socket
import time

from deckhand_local.venue.http_adapter import ApiServer
from test_api_local_adapter import TOKEN, raw


def test_a_head_trickled_a_line_at_a_time_is_cut_at_the_limit():
    server = ApiServer(lambda event: {}, TOKEN, port=0, request_timeout=1.0).start()
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
            started = time.monotonic()
            conn.sendall(b"GET /events/cup HTTP/1.1\r\n")
            closed = False
            for n in range(12):  # a header line every 0.4 s: each read well within the limit
                time.sleep(0.4)
                try:
                    conn.sendall(f"X-Slow-{n}: y\r\n".encode())
                except OSError:
                    closed = True
                    break
            if not closed:
                conn.settimeout(2)
                closed = conn.recv(1) == b""
            assert closed and time.monotonic() - started < 3.5
    finally:
        server.stop()


def test_connections_without_a_head_are_bounded():
    server = ApiServer(lambda event: {}, TOKEN, port=0, request_timeout=5.0, max_unread=4).start()
    held = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in range(4)]
    try:
        for conn in held:
            conn.sendall(b"GET /events HTTP/1.1\r\n")
        time.sleep(0.3)
        status, answer = raw(server, "GET /events HTTP/1.1\nHost: x\n", timeout=3)
        assert status == 503 and set(answer) == {"error"}
    finally:
        for conn in held:
            conn.close()
        server.stop()


def test_patch_answers_the_error_shape():
    server = ApiServer(lambda event: {}, TOKEN, port=0).start()
    try:
        status, answer = raw(server, f"PATCH /events/cup HTTP/1.1\nHost: x\nAuthorization: Bearer {TOKEN}\n")
        assert status == 405 and set(answer) == {"error"} and "PATCH" in answer["error"]
    finally:
        server.stop()
