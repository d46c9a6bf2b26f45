"""A round's seating as stored, however large the field, and each seated player's placement.

The seating (every table's group, players and devices; a round of matches' pairs) grows with the
field: 5,000 pairs' or 10,000 players' with join links pass DynamoDB's 400 KB item limit. A large one
is kept in parts (storage/parts.py), written before the round item that names them, and every reader
of a round's seating reads it through :func:`round_seating`. ``seating_digest`` is the seating's
version: a re-seat is conditional on it (all-or-nothing; a racing change refuses it).

A player's own device finds its seat on every message: a placement item per player seated on their
own device (a join link's) and round (``ROUND#<nnn>#AT#<player>``) makes that one small read instead of
the whole seating (a handset's player needs none: 10,000 of them cost the deal 400 batches). Placements are
written after the round item, from its seating as stored (a deal dealt again writes the same again),
and a re-seat writes the moved players' in its own transaction. A deal that read the seating before a
re-seat could write a moved player's old place after the re-seat's: so once it has written them the
deal reads the seating's version again, and writes them again from the seating as it is now until the
version it wrote from is the round's. A player without a placement (a round stored before placements,
its deal still writing them, a link issued since) is found in the seating itself.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any, NamedTuple

from pynamodb.exceptions import DoesNotExist
from pynamodb.expressions.condition import Condition
from pynamodb.expressions.update import Action

from . import batches
from .keys import event_of, event_pk, link_of_thing, placement_sk, round_sk
from .models import PlacementItem, RoundItem
from .parts import digest_of, joined_text, save_parts, split_text, text_of

# What a reader of the seating alone asks of the round item.
SEATING_ATTRIBUTES = ["pk", "sk", "seating", "seating_parts", "seating_digest"]
ATTEMPTS = 10  # placements written again after re-seats raced them, before the deal fails (a retry deals on)
CACHED = 4  # seatings in parts remembered by version: a process reads the same round again and again

Rows = list[dict[str, Any]]


class StoredSeating(NamedTuple):
    """A seating as its round item holds it: the rows (``[]`` when in parts), their parts, its version."""

    document: Rows
    parts: int | None
    digest: str


class PlacementsRaced(Exception):
    """Re-seats kept changing the seating while the deal wrote the placements: a retry writes them."""


# (pk, sk, digest) → a seating's JSON: a version's parts never change, so what is read once is kept.
_JOINED: OrderedDict[tuple[str, str, str], str] = OrderedDict()


def _remember(key: tuple[str, str, str], text: str) -> None:
    _JOINED[key] = text
    _JOINED.move_to_end(key)
    while len(_JOINED) > CACHED:
        _JOINED.popitem(last=False)


def save_seating(event_id: str, head_sk: str, rows: Rows) -> StoredSeating:
    """The round item's seating fields for ``rows``; the parts of a large seating are written here,
    before the round item that will name them."""
    text = text_of(rows)
    split = split_text(rows, text)
    if not split.parts:
        return StoredSeating(rows, None, digest_of(text))
    save_parts(event_id, head_sk, split)
    digest = split.digest or digest_of(text)
    _remember((event_pk(event_id), head_sk, digest), text)
    return StoredSeating([], len(split.parts), digest)


def round_seating(r: RoundItem) -> Rows:
    """The round's seating, whole (read from its parts when it is kept in parts)."""
    if not r.seating_parts:
        return list(r.seating)
    key = (r.pk, r.sk, r.seating_digest or "")
    text = _JOINED.get(key)
    if text is None:
        text = joined_text(event_of(r.pk), r.sk, r.seating_parts, r.seating_digest)
    _remember(key, text)
    rows: Rows = json.loads(text)
    return rows


def seating_head(event_id: str, round_no: int) -> RoundItem:
    """The round item with its seating fields only (DoesNotExist if there is none)."""
    return RoundItem.get(
        event_pk(event_id), round_sk(round_no), consistent_read=True, attributes_to_get=SEATING_ATTRIBUTES
    )


def seating_version(r: RoundItem) -> str:
    """The seating's version: its digest (a round stored before the digest was kept: computed)."""
    return r.seating_digest or digest_of(text_of(r.seating))


def still_seated_as(r: RoundItem) -> Condition:
    """The condition that the round's seating is still the one ``r`` was read with."""
    same: Condition = (
        RoundItem.seating_digest == r.seating_digest
        if r.seating_digest
        else RoundItem.seating == r.seating  # a round stored before the digest was kept: its rows
    )
    return same


def seating_set(stored: StoredSeating) -> list[Action]:
    """The round item's update to a new seating (its parts written before)."""
    parts = RoundItem.seating_parts.set(stored.parts) if stored.parts else RoundItem.seating_parts.remove()
    return [RoundItem.seating.set(stored.document), parts, RoundItem.seating_digest.set(stored.digest)]


def placements(
    event_id: str, round_no: int, rows: Rows, digest: str, only: set[str] | None = None
) -> list[PlacementItem]:
    """The placement of each player seated in ``rows`` on their own device (a join link's: only its
    messages look for one; a handset's player needs none), or of the players ``only``: their first
    seat, as a reader of the seating finds it."""
    out: dict[str, PlacementItem] = {}
    for row in rows:
        devices = row.get("devices") or []
        for seat, player in enumerate(row["seats"]):
            if not player or player in out:
                continue
            if only is None and not (seat < len(devices) and link_of_thing(devices[seat] or "")):
                continue
            if only is None or player in only:
                out[player] = PlacementItem(
                    event_pk(event_id),
                    placement_sk(round_no, player),
                    table=str(row["table"]),
                    seat=seat,
                    group=str(row["group"]),
                    digest=digest,
                )
    return list(out.values())


def place_players(event_id: str, round_no: int, r: RoundItem, rows: Rows | None = None) -> None:
    """The placements of the players seated on their own devices, from the stored round ``r`` (its
    seating ``rows`` when known), written again from the seating as it is now while a re-seat changed
    it meanwhile (module doc)."""
    for _ in range(ATTEMPTS):
        version = seating_version(r)
        placed = placements(event_id, round_no, round_seating(r) if rows is None else rows, version)
        if not placed:
            return  # nobody plays on their own device
        batches.put_all(placed)
        now = seating_head(event_id, round_no)
        if seating_version(now) == version:
            return
        r, rows = now, None
    raise PlacementsRaced(f"round {round_no}'s seating kept changing while its placements were written")


def placement_of(event_id: str, round_no: int, player: str) -> PlacementItem | None:
    """Where ``player`` sits in the round, by one read; None: no placement (sitting out, or see the module doc)."""
    try:
        return PlacementItem.get(event_pk(event_id), placement_sk(round_no, player), consistent_read=True)
    except DoesNotExist:
        return None
