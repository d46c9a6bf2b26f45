"""``deckhand event …``: the organiser's commands, over HTTP to the API.

By default they talk to the local venue (its address and token from ``.deckhand/venue.json``); with
``--api URL`` to a deployed stack, signing every request with SigV4 from the AWS credentials.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from deckhand.errors import DeckhandError


class ApiError(DeckhandError):
    def __init__(self, status: int, body: Any) -> None:
        message = body.get("error") if isinstance(body, dict) else None
        detail = body.get("detail") if isinstance(body, dict) else None
        super().__init__(f"HTTP {status}: {message or detail or body}")
        self.status = status
        self.body = body


class ApiClient:
    def __init__(
        self, api: str | None = None, state_dir: Path = Path(".deckhand"), region: str | None = None
    ) -> None:
        self.token = None
        self.region = region
        if api is None:
            info = state_dir / "venue.json"
            if not info.exists():
                raise DeckhandError(
                    "no local venue is running (start one with `deckhand venue`) and no --api was given"
                )
            venue = json.loads(info.read_text())
            api, self.token = venue["api"], venue["token"]
        self.api = api.rstrip("/")

    def request(self, method: str, path: str, body: Any = None, *, raw: bool = False) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"}
        url = self.api + path
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        else:
            headers.update(self._sigv4(method, url, data, headers))
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
            raise ApiError(exc.code, parsed) from None
        except urllib.error.URLError as exc:
            raise DeckhandError(f"cannot reach the API at {self.api}: {exc.reason}") from None

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
