"""Join links: how a registered player's own device (a phone's browser) reaches the event.

An organiser issues each player a token ``<link id>.<secret>``; the device it admits is the thing
``web-<link id>``, assigned to the player (not to a seat: it follows the player from table to table).
Only the SHA-256 of the secret is stored, so the table never holds a working token; a new link for a
player replaces (and so revokes) the old one. A link admits its device while its event exists, has
not finished and the link is not revoked: ``authorize`` is the one check, run by the AWS IoT custom
authorizer and by the local venue's broker alike, and the device pipeline checks the link again on
every message of a player device (a revoked link's device is refused at once, even mid-connection).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from pynamodb.exceptions import DoesNotExist, TransactWriteError

from ...errors import Conflict, DeckhandError, NotFound
from ..infra.clock import now_ms
from ..storage.keys import (
    LINK_PREFIX,
    META,
    device_pk,
    event_pk,
    link_of_thing,
    link_sk,
    player_of,
    player_thing,
)
from ..storage.models import DeviceItem, LinkItem, transaction
from . import events, pairs

PLAYER_ROLE = "player"
PLAYER_SEAT = -2  # a player device's DeviceItem.seat: no fixed seat
LINK_ID = re.compile(r"[a-z2-7]{10}")
THING = re.compile(r"web-([a-z2-7]{10})")
TOKEN = re.compile(r"([a-z2-7]{10})\.([A-Za-z0-9_-]{43})")
MAX_TOKEN = 128  # characters: anything longer is refused before it is parsed
# A grant is checked again this often (IoT Core re-runs the authorizer; the venue asks again on reconnect).
GRANT_SECONDS = 3600
FINISHED = "finished"


class LinkRefused(DeckhandError):
    """A join link cannot be issued or revoked as asked (a 400/409 from the API)."""


@dataclass(frozen=True)
class IssuedLink:
    player: str
    token: str  # shown once: only its digest is stored
    thing: str
    replaced: str | None  # the thing of the link this one replaced (its device is cut off)


@dataclass(frozen=True)
class Grant:
    """What a valid token admits: one thing, acting for one player of one event, until ``expires_at``
    (epoch seconds; the grant is checked again by then)."""

    thing: str
    event_id: str
    player: str
    expires_at: int


def url_path(token: str) -> str:
    """The client's address for a token, below the site that serves it: the token in the fragment,
    which a browser never sends to a server (no access log, no Referer holds it)."""
    return f"/play/#t={token}"


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _new_link_id() -> str:
    return base64.b32encode(secrets.token_bytes(10)).decode()[:10].lower()


def _registered(event_id: str) -> list[str]:
    """The event's players, in registration order: a match event's from its pairs (its AI players
    have no device to admit)."""
    event = events.get_event(event_id)
    if event.match is not None:
        return [p["id"] for team in pairs.list_teams(event_id) for p in team.players if not pairs.is_ai(p)]
    return [player_of(p.sk) for p in events.list_players(event_id)]


def issue_links(event_id: str, players: list[str] | None = None) -> list[IssuedLink]:
    """A new link for each of ``players`` (None: every registered player), each replacing the player's
    link before. All are checked before any is written; each player's swap is one transaction,
    conditional on the link it replaces (a concurrent issue for the same player is a Conflict)."""
    event = events.get_event(event_id)
    if event.status == FINISHED:
        raise Conflict(f"event {event_id!r} has finished: its links would admit nobody")
    registered = _registered(event_id)
    wanted = registered if players is None else players
    unknown = sorted(set(wanted) - set(registered))
    if unknown:
        raise NotFound(f"not registered in event {event_id!r}: {', '.join(unknown)}")
    if len(set(wanted)) != len(wanted):
        raise LinkRefused("a player is named twice")
    return [_issue(event_id, player) for player in wanted]


def _issue(event_id: str, player: str) -> IssuedLink:
    link_id, secret = _new_link_id(), secrets.token_urlsafe(32)
    old = _link(event_id, player)
    item = LinkItem(
        event_pk(event_id), link_sk(player), link_id=link_id, digest=_digest(secret), created_at=now_ms()
    )
    thing = player_thing(link_id)
    device = DeviceItem(
        device_pk(thing), META, event_id=event_id, table="", seat=PLAYER_SEAT, role=PLAYER_ROLE, player=player
    )
    try:
        with transaction() as tx:
            if old is None:
                tx.save(item, condition=LinkItem.sk.does_not_exist())
            else:
                tx.save(item, condition=LinkItem.link_id == old.link_id)
                tx.delete(DeviceItem(device_pk(player_thing(old.link_id)), META))
            tx.save(device, condition=DeviceItem.pk.does_not_exist())
    except TransactWriteError:
        raise Conflict(f"player {player!r}'s link changed meanwhile: issue it again") from None
    events.forget_device(thing)
    if old is not None:
        events.forget_device(player_thing(old.link_id))
    return IssuedLink(
        player, f"{link_id}.{secret}", thing, None if old is None else player_thing(old.link_id)
    )


def revoke_link(event_id: str, player: str) -> str:
    """Revoke the player's link (idempotent); its thing, which the venue disconnects."""
    events.get_event(event_id)
    link = _link(event_id, player)
    if link is None:
        raise NotFound(f"player {player!r} of event {event_id!r} has no join link")
    if not link.revoked:
        link.update(actions=[LinkItem.revoked.set(True)])
    return player_thing(link.link_id)


def _link(event_id: str, player: str) -> LinkItem | None:
    try:
        return LinkItem.get(event_pk(event_id), link_sk(player), consistent_read=True)
    except DoesNotExist:
        return None


def link_things(event_id: str) -> dict[str, str]:
    """player → the thing of their valid link (players without one are absent)."""
    items = LinkItem.query(event_pk(event_id), LinkItem.sk.startswith(LINK_PREFIX), consistent_read=True)
    return {
        item.sk.removeprefix(LINK_PREFIX): player_thing(item.link_id) for item in items if not item.revoked
    }


def devices_of(seats: Sequence[str | None], devices: list[str], links: dict[str, str]) -> list[str]:
    """A table's device per seat for a round: a seated player's own device where they have a link
    (their views go there), else the table's handset."""
    return [links.get(player or "", device) for player, device in zip(seats, devices, strict=True)]


def link_valid(device: DeviceItem, thing: str) -> bool:
    """Whether a player device's link still admits it: the player's current link, not revoked (the
    event's status is checked where the event is read)."""
    link = _link(device.event_id, device.player or "")
    return link is not None and not link.revoked and link.link_id == link_of_thing(thing)


def authorize(username: object, password: object, *, now_seconds: int | None = None) -> Grant | None:
    """The grant a device's MQTT credentials carry (username: its thing ``web-<link id>``; password:
    the token), or None. Malformed input, an unknown or replaced link, a revoked one, a wrong secret
    (compared in constant time) or an event finished or gone: None, and nothing is written."""
    if not isinstance(username, str) or not isinstance(password, str) or len(password) > MAX_TOKEN:
        return None
    thing_match, token_match = THING.fullmatch(username), TOKEN.fullmatch(password)
    if thing_match is None or token_match is None or thing_match.group(1) != token_match.group(1):
        return None
    secret = token_match.group(2)
    try:
        device = DeviceItem.get(device_pk(username), META, consistent_read=True)
    except DoesNotExist:
        return None
    if device.role != PLAYER_ROLE or device.player is None:
        return None
    link = _link(device.event_id, device.player)
    if link is None or link.link_id != token_match.group(1) or link.revoked:
        return None
    if not hmac.compare_digest(_digest(secret).encode(), link.digest.encode()):
        return None
    try:
        event = events.get_event(device.event_id)
    except NotFound:
        return None
    if event.status == FINISHED:
        return None
    now = now_seconds if now_seconds is not None else now_ms() // 1000
    return Grant(username, device.event_id, device.player, now + GRANT_SECONDS)


def check_link_id(link_id: str) -> str:
    if not LINK_ID.fullmatch(link_id):
        raise LinkRefused("not a link id")
    return link_id
