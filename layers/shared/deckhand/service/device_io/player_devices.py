"""A player's own device (a join link's, role ``player``) acts for wherever its player sits.

A handset stays at its table; a player moves between tables from round to round (the Swiss movement,
a match round's pairing, a referee's re-seat): each message of a player device is placed at the seat
the round's seating gives its player. Its link is checked again first, uncached: a revoked or
replaced link's device is refused from its next message on, even while still connected.
"""

from __future__ import annotations

from ..duplicate.rounds import get_round
from ..infra import outgoing
from ..organiser.player_links import link_valid
from ..storage.models import DeviceItem
from .incoming import BadMessage

NOT_SEATED = "not_your_seat"  # the player sits out this round (a bye, withdrawn): nothing to act for


def check_link(device: DeviceItem, thing: str) -> None:
    if not link_valid(device, thing):
        raise BadMessage(outgoing.UNKNOWN_DEVICE, "this join link was revoked or replaced: ask the organiser")


def placed(device: DeviceItem, round_no: int) -> DeviceItem:
    """The player device as if assigned to its player's seat of ``round_no`` (never stored)."""
    seating = get_round(device.event_id, round_no).seating
    for row in seating:
        if device.player in row["seats"]:
            return DeviceItem(
                device.pk,
                device.sk,
                event_id=device.event_id,
                table=row["table"],
                seat=row["seats"].index(device.player),
                role=device.role,
                player=device.player,
            )
    raise BadMessage(NOT_SEATED, f"player {device.player!r} sits at no table in round {round_no}")
