"""A device's presence (its MQTT connection up or down, since when), from the broker's lifecycle
events: one conditional write an event, none a message.

Lifecycle events arrive out of order and more than once, so a write happens only when its event is
newer than the one recorded: an older event arriving late, or a repeat, changes nothing. At the same
millisecond a connect wins over a disconnect (a device reconnecting with its own client id: the old
session's disconnect and the new one's connect carry one time).
"""

from __future__ import annotations

from dataclasses import dataclass

from pynamodb.exceptions import PutError

from .keys import PRESENCE, device_pk
from .models import PresenceItem


@dataclass(frozen=True)
class Presence:
    online: bool
    since: int  # ms


def record(thing: str, online: bool, at_ms: int, reason: str | None = None) -> bool:
    """Record the event unless a newer one (or this one) is recorded already; whether it was written."""
    newer = PresenceItem.pk.does_not_exist() | (PresenceItem.since < at_ms)
    if online:  # the same time: only a connect over a disconnect
        newer = newer | ((PresenceItem.since == at_ms) & (PresenceItem.online == False))  # noqa: E712
    item = PresenceItem(device_pk(thing), PRESENCE, online=online, since=at_ms, reason=reason)
    try:
        item.save(condition=newer)
    except PutError as exc:
        if exc.cause_response_code == "ConditionalCheckFailedException":
            return False
        raise
    return True


def presence_of(things: list[str]) -> dict[str, Presence]:
    """The recorded presence of each thing (a thing never seen connecting is not in the answer)."""
    keys = [(device_pk(t), PRESENCE) for t in sorted(set(filter(None, things)))]
    found = PresenceItem.batch_get(keys) if keys else []
    return {i.pk.removeprefix(device_pk("")): Presence(i.online, i.since) for i in found}
