"""The organiser API's request as API Gateway hands it to the api handler, for calling it in-process."""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import parse_qs, urlsplit


def api_gateway_event(
    method: str, target: str, headers: dict[str, str], body: str | None, identity: str
) -> dict[str, Any]:
    """An API Gateway REST event of the organiser API, its caller ``identity`` verified (IAM's ``userArn``):
    how the venue and the console on AWS call the API's handler in-process."""
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
            "identity": {"userArn": identity, "caller": identity, "sourceIp": "127.0.0.1"},
        },
        "body": body,
        "isBase64Encoded": False,
    }
