"""``deckhand event …``: the organiser's commands, over HTTP to the API.

By default they talk to the local venue (its address and token from ``.deckhand/venue.json``); with
``--api URL`` to a deployed stack, signing every request with SigV4 from the AWS credentials.

A request that could not be answered (no connection, a dropped one, a timeout, a 5xx, a 409 that asks
to retry) is sent again, twice, after a short pause. Every POST carries an ``Idempotency-Key`` made
for it and kept for its retries, so a retry of a request that did reach the API changes nothing and
gets the first answer (docs/cli.md).
"""

from __future__ import annotations

import http.client
import json
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from deckhand.errors import DeckhandError

from . import organisers


class ApiError(DeckhandError):
    def __init__(self, status: int, body: Any) -> None:
        message = body.get("error") if isinstance(body, dict) else None
        detail = body.get("detail") if isinstance(body, dict) else None
        super().__init__(f"HTTP {status}: {message or detail or body}")
        self.status = status
        self.body = body


class _Retry(Exception):
    """An attempt that may succeed if sent again; ``error`` is what the caller sees if none does."""

    def __init__(self, error: DeckhandError, after: float | None = None) -> None:
        super().__init__(str(error))
        self.error = error
        self.after = after


class ApiClient:
    RETRIES = 2  # attempts after the first
    BACKOFF = 0.5  # seconds before the first retry, doubled for each next one

    def __init__(
        self,
        api: str | None = None,
        state_dir: Path = Path(".deckhand"),
        region: str | None = None,
        *,
        sleep: Callable[[float], None] = time.sleep,
        organiser: str | None = None,
    ) -> None:
        """``organiser``: the local venue's organiser NAME to act as (its token from organisers.json);
        None: the venue's own token."""
        self.token = None
        self.region = region
        self.sleep = sleep
        if api is None:
            info = state_dir / "venue.json"
            if not info.exists():
                raise DeckhandError(
                    "no local venue is running (start one with `deckhand venue`) and no --api was given"
                )
            venue = json.loads(info.read_text())
            api, self.token = venue["api"], venue["token"]
            if organiser is not None:
                self.token = organisers.token_of(state_dir, organiser)
        elif organiser is not None:
            raise DeckhandError("--as names a local venue organiser: a deployed API (--api) signs with AWS")
        self.api = api.rstrip("/")

    def request(self, method: str, path: str, body: Any = None, *, raw: bool = False) -> Any:
        """One API request, retried where that is safe; its answer as JSON (or text with ``raw``)."""
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"}
        if method == "POST":
            headers["Idempotency-Key"] = str(uuid.uuid4())  # one per request, the same on its retries
        for attempt in range(self.RETRIES + 1):
            try:
                return self._send(method, path, data, dict(headers), raw)
            except _Retry as retry:
                if attempt == self.RETRIES:
                    raise retry.error from None
                self.sleep(retry.after if retry.after is not None else self.BACKOFF * 2**attempt)
        raise AssertionError("unreachable")

    def _send(self, method: str, path: str, data: bytes | None, headers: dict[str, str], raw: bool) -> Any:
        url = self.api + path
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        else:
            headers.update(self._sigv4(method, url, data, headers))  # signed again: the date changes
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                text = resp.read().decode()
                if raw:
                    return text
                return json.loads(text) if text else None
        except urllib.error.HTTPError as exc:
            text = exc.read().decode()
            try:
                parsed: Any = json.loads(text)
            except ValueError:
                parsed = text
            error = ApiError(exc.code, parsed)
            retry_after = exc.headers.get("Retry-After")
            if exc.code >= 500:
                raise _Retry(error) from None
            if exc.code == 409 and retry_after is not None:  # the same request is still being processed
                raise _Retry(error, _seconds(retry_after)) from None
            raise error from None
        except urllib.error.URLError as exc:
            raise _Retry(DeckhandError(f"cannot reach the API at {self.api}: {exc.reason}")) from None
        except (http.client.HTTPException, ConnectionError, TimeoutError) as exc:
            # The connection dropped after the request was sent: it may have taken effect.
            raise _Retry(DeckhandError(f"no answer from the API at {self.api}: {exc}")) from None

    def _sigv4(self, method: str, url: str, data: bytes | None, headers: dict[str, str]) -> dict[str, str]:
        import boto3
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest

        session = boto3.Session()
        credentials = session.get_credentials()
        if credentials is None:
            raise DeckhandError("no AWS credentials to sign requests to the deployed API")
        region = self.region or session.region_name or "us-east-1"
        request = AWSRequest(method=method, url=url, data=data, headers=headers)
        SigV4Auth(credentials.get_frozen_credentials(), "execute-api", region).add_auth(request)
        return dict(request.headers.items())


def _seconds(retry_after: str) -> float:
    try:
        return min(max(float(retry_after), 0.0), 30.0)
    except ValueError:
        return 1.0
