"""A player's own device (a join link's, role ``player``) acts for wherever its player sits.

A handset stays at its table; a player moves between tables from round to round (the Swiss movement,
a match round's pairing, a referee's re-seat): each message of a player device is placed at the table
the round's seating gives its player, and on a board at the seat its player holds there (a board
game's players change seats between the games of a match: the device goes with its player). Its link is checked again first, uncached: a revoked or
replaced link's device is refused from its next message on, even while still connected. The player's
seat is their placement in the round (one small read, storage/seating.py), or where none is (a round
stored before placements or still being dealt, a link issued since) the round's seating itself.
"""

from __future__ import annotations

from pynamodb.exceptions import DoesNotExist, PutError

from ...errors import NotFound
from ..boards import store as board_store
from ..boards import views as board_views
from ..boards.match_boards import get_match
from ..boards.round_boards import boards_of_table
from ..boards.store import Unchanged
from ..duplicate.rounds import get_round
from ..infra import outgoing
from ..infra.runtime import Runtime
from ..organiser.events import get_event
from ..organiser.player_links import PLAYER_ROLE, link_valid
from ..storage.keys import event_pk, table_sk
from ..storage.models import BoardStateItem, DeviceItem, RoundItem, TableItem
from ..storage.seating import placement_of, round_seating
from .incoming import BadMessage

NOT_SEATED = "not_your_seat"  # the player sits out this round (a bye, withdrawn): nothing to act for


def check_link(device: DeviceItem, thing: str) -> None:
    if not link_valid(device, thing):
        raise BadMessage(outgoing.UNKNOWN_DEVICE, "this join link was revoked or replaced: ask the organiser")


def placed(device: DeviceItem, round_no: int) -> DeviceItem:
    """The player device as if assigned to its player's seat of ``round_no`` (never stored)."""
    table, seat = _seat_of(device.event_id, round_no, device.player or "")
    return DeviceItem(
        device.pk,
        device.sk,
        event_id=device.event_id,
        table=table,
        seat=seat,
        role=device.role,
        player=device.player,
        lang=device.lang,
    )


def _seat_of(event_id: str, round_no: int, player: str) -> tuple[str, int]:
    """(table, seat) of ``player`` in the round: their placement, else the round's seating."""
    at = placement_of(event_id, round_no, player)
    if at is not None:
        return at.table, at.seat
    try:
        seating = round_seating(get_round(event_id, round_no))
    except NotFound:
        raise BadMessage("no_round", f"round {round_no} is not played") from None
    for row in seating:
        if player in row["seats"]:
            return row["table"], row["seats"].index(player)
    raise BadMessage(NOT_SEATED, f"player {player!r} sits at no table in round {round_no}")


def seat_on(device: DeviceItem, item: BoardStateItem) -> int:
    """The seat ``device`` acts for on the board ``item``: a player device its player's seat there
    (never the opponent's, whatever the round's seating says), any other device its own."""
    if device.role == PLAYER_ROLE and device.player in (item.players or []):
        return list(item.players).index(device.player)
    return device.seat


def hand_over(rt: Runtime, event_id: str, devices: dict[str, str | None]) -> None:
    """Players whose link changed while a round is in play (``devices``: player → their new link's
    thing, or None when revoked: the table's handset again) get their seat's views there from now on:
    the boards their table has not ended, a match's boards to come, and the current view at once."""
    event = get_event(event_id)
    if event.status != "playing" or not event.current_round:
        return  # a round dealt later names the players' devices as it is made
    round_no = int(event.current_round)
    r = get_round(event_id, round_no)
    seating = round_seating(r)
    for player, thing in devices.items():
        row = next((row for row in seating if player in row["seats"]), None)
        if row is not None:
            _hand_over_seat(
                rt, event_id, round_no, r, row["table"], row["seats"].index(player), player, thing
            )


def _handset(event_id: str, table: str, seat: int) -> str:
    try:
        return str(TableItem.get(event_pk(event_id), table_sk(table), consistent_read=True).seats[seat])
    except DoesNotExist:
        return ""  # a table without handsets


def _hand_over_seat(
    rt: Runtime,
    event_id: str,
    round_no: int,
    r: RoundItem,
    table: str,
    seat: int,
    player: str,
    thing: str | None,
) -> None:
    """``seat``: the player's in the round's seating (a match's devices are kept by it); on each board
    the player's seat there (a board game's players change seats between games). ``thing`` None: the
    table's handset at that seat again."""
    if r.match:
        handset = _handset(event_id, table, seat)
        for _ in range(5):  # a match's next board is made from its devices: changed first, on its version
            match = get_match(event_id, round_no, table)
            if match.devices[seat] == (thing or handset):
                break
            match.devices = [(thing or handset) if s == seat else d for s, d in enumerate(match.devices)]
            try:
                match.save()
                break
            except PutError:
                continue

    for board in boards_of_table(event_id, round_no, r, table):
        item = board_store.load(event_id, round_no, table, board)
        if item is None:
            continue
        at = list(item.players).index(player) if player in (item.players or []) else seat
        to = thing or _handset(event_id, table, at)

        def change(item: BoardStateItem, at: int = at, to: str = to) -> bool | Unchanged[bool]:
            if item.status == "ended" or item.devices[at] == to:
                return Unchanged(False)
            item.devices = [to if s == at else d for s, d in enumerate(item.devices)]
            return True

        item, changed = board_store.transact((event_id, round_no, table, board), change, first=item)
        if changed and item.status in ("playing", "stopped"):
            board_views.publish_views(rt.publisher, item, only_seat=at)
