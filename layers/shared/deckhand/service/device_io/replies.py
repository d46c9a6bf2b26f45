"""What a device is answered: an acknowledgement or a refusal, published to it and returned as the
message's outcome."""

from __future__ import annotations

from typing import Any

from ..infra import outgoing
from ..infra.messaging import down_topic
from ..infra.runtime import Runtime


def reject(
    rt: Runtime, thing: str, msg: str | None, code: str, why: str, ask: dict[str, Any] | None = None
) -> dict[str, Any]:
    message = outgoing.reject(msg, code, why, ask)
    rt.publisher.publish(down_topic(thing), message)
    result = {"status": "rejected", "code": code, "why": why}
    if "ask" in message:
        result["ask"] = message["ask"]
    return result


def ack(
    rt: Runtime, thing: str, msg: str, *, duplicate: bool = False, version: int | None = None
) -> dict[str, Any]:
    # ``v``: the board's version with this action in it: older views are stale
    rt.publisher.publish(down_topic(thing), outgoing.ack(msg, version=version, duplicate=duplicate))
    return {"status": "duplicate" if duplicate else "accepted"}
