"""The runtime the Lambda handlers use: built from the environment on AWS, replaced by the local
venue and by tests (:func:`set_runtime`)."""

from __future__ import annotations

import os

from .messaging import IotDataPublisher
from .runtime import Runtime, lambda_invoker

_runtime: Runtime | None = None


def runtime() -> Runtime:
    global _runtime
    if _runtime is None:
        _runtime = Runtime(
            IotDataPublisher(os.environ.get("IOT_DATA_ENDPOINT") or None),
            lambda_invoker(
                {
                    "deal": os.environ.get("DEAL_FUNCTION", ""),
                    "score": os.environ.get("SCORE_FUNCTION", ""),
                    "pace": os.environ.get("PACE_FUNCTION", ""),
                }
            ),
        )
    return _runtime


def set_runtime(rt: Runtime | None) -> None:
    global _runtime
    _runtime = rt
