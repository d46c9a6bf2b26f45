"""A device's MQTT connection comes up or goes down: the broker's lifecycle event (AWS IoT Core's
``$aws/events/presence/{connected,disconnected}/<client id>``; the local venue's Aedes publishes the
same) recorded as the device's presence, for the console's room grid. Events of client ids that are
no registered device (the server's own connections, a stranger's refused attempt) are ignored."""

from __future__ import annotations

from typing import Any

from ..organiser.events import THING_NAME, get_device
from ..storage import presence

EVENT_TYPES = {"connected": True, "disconnected": False}


def handle(event: Any) -> dict[str, Any]:
    """Record one lifecycle event; returns what became of it (``recorded``, ``ignored`` with why, or
    ``rejected`` for an event of no known shape)."""
    if not isinstance(event, dict):
        return {"status": "rejected", "code": "bad_event"}
    kind, thing, at = event.get("eventType"), event.get("clientId"), event.get("timestamp")
    if kind not in EVENT_TYPES or not isinstance(thing, str):
        return {"status": "rejected", "code": "bad_event"}
    if not isinstance(at, int) or isinstance(at, bool) or at <= 0:
        return {"status": "rejected", "code": "bad_event"}
    if not THING_NAME.match(thing) or get_device(thing) is None:
        return {"status": "ignored", "code": "unknown_device"}
    reason = event.get("disconnectReason") if kind == "disconnected" else None
    written = presence.record(thing, EVENT_TYPES[kind], at, reason if isinstance(reason, str) else None)
    return {"status": "recorded"} if written else {"status": "ignored", "code": "not_newer"}
