"""What a service needs from its surroundings: a publisher and a way to start other work.

On AWS, ``invoke`` is an asynchronous Lambda invocation (retried, with an on-failure destination);
in the local venue and in tests it calls the handler in-process.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from .messaging import Publisher

Invoke = Callable[[str, dict[str, Any]], None]


class Runtime(NamedTuple):
    publisher: Publisher
    invoke: Invoke


def lambda_invoker(function_names: dict[str, str]) -> Invoke:
    """Asynchronous invocation of the stack's other functions by logical name (deal, score)."""
    client: Any = None

    def invoke(name: str, payload: dict[str, Any]) -> None:
        nonlocal client
        if client is None:
            import boto3

            client = boto3.client("lambda")
        import json

        client.invoke(
            FunctionName=function_names[name], InvocationType="Event", Payload=json.dumps(payload).encode()
        )

    return invoke
