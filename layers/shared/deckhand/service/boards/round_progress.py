"""A round's count of scored boards, in shards, so no item is hot when a national field's tables finish.

One counter item per round took a write from every table's every board: 5,000 writes to one item in
the minute a 2,500-table round ends. Here a table's boards (a match: once) count into one of about
√total shard items (the shard of its table id), and the round's counter (``ProgressItem``) takes one
write per shard, when the shard's count is complete: a set of complete shards, so a retry adds
nothing. About √total writes per item per round however many tables (71 for 5,000 boards). The
shards' totals are fixed when the round is stored; a round stored without them counts as before, into
the round's counter.
"""

from __future__ import annotations

import math
import zlib

from pynamodb.exceptions import DoesNotExist, UpdateError
from pynamodb.transactions import TransactWrite

from ..storage.keys import event_pk, progress_shard_prefix, progress_shard_sk, progress_sk, round_sk
from ..storage.models import ProgressItem, ProgressShardItem, RoundItem


def shard_count(total: int) -> int:
    """⌈√total⌉ shards of about √total boards: the fewest writes to the busiest item."""
    return max(1, math.isqrt(max(total - 1, 0)) + 1)


def shard_of(unit: str, shards: int) -> int:
    """The shard a table's boards count into (a stable hash of its id: the same in every process)."""
    return zlib.crc32(unit.encode()) % shards


def layout(r: RoundItem) -> list[int]:
    """The boards each shard counts: every board of a table (a match: once, when it ends)."""
    units = [str(row["table"]) for row in r.seating]
    per_unit = 1 if r.match else len(r.boards)
    totals = [0] * shard_count(len(units) * per_unit)
    for unit in units:
        totals[shard_of(unit, len(totals))] += per_unit
    return totals


def new_counter(event_id: str, round_no: int, r: RoundItem) -> ProgressItem:
    """The round's counter, with its shards' totals, saved with the round (round_items.store_round)."""
    return ProgressItem(
        event_pk(event_id), progress_sk(round_no), boards_total=r.boards_total, shard_totals=layout(r)
    )


def count(tx: TransactWrite, event_id: str, round_no: int, unit: str) -> None:
    """One board of table ``unit`` counted, in the caller's transaction (with the result it counts, whose
    condition makes the count happen once)."""
    try:
        top = ProgressItem.get(
            event_pk(event_id),
            progress_sk(round_no),
            consistent_read=True,
            attributes_to_get=["shard_totals"],
        )
        totals = top.shard_totals
    except DoesNotExist:
        totals = None  # counted into before the counter exists (a crashed venue's round): made sure of later
    if not totals:
        tx.update(
            ProgressItem(event_pk(event_id), progress_sk(round_no)), actions=[ProgressItem.boards_done.add(1)]
        )
        return
    shard = ProgressShardItem(event_pk(event_id), progress_shard_sk(round_no, shard_of(unit, len(totals))))
    tx.update(shard, actions=[ProgressShardItem.boards_done.add(1)])


def complete(event_id: str, round_no: int, unit: str | None = None) -> bool:
    """Every board of the round counted? ``unit``: the table whose board was just counted — only its
    shard is read, and marked complete in the round's counter if it is; None (the timers' sweep, a round
    with no boards): every shard is read."""
    try:
        top = ProgressItem.get(event_pk(event_id), progress_sk(round_no), consistent_read=True)
    except DoesNotExist:
        return False
    if top.boards_total is None:
        # Counted into before the round's counter existed (a round stored by a venue that crashed
        # between its two writes, before they were one): its total is set from the round now.
        try:
            r = RoundItem.get(event_pk(event_id), round_sk(round_no), consistent_read=True)
        except DoesNotExist:
            return False
        make_sure_of_counter(event_id, round_no, r.boards_total)
        top.refresh(consistent_read=True)
    totals: list[int] = top.shard_totals or []
    if not totals:
        return top.boards_done >= top.boards_total
    needed = {i for i, total in enumerate(totals) if total}
    done = set(top.shards_done or ())
    if needed <= done:
        return True
    counts = _shard_counts(event_id, round_no, None if unit is None else shard_of(unit, len(totals)))
    newly = {i for i, n in counts.items() if i in needed - done and n >= totals[i]}
    if not newly:
        return False
    top.update(actions=[ProgressItem.shards_done.add(newly)])  # a set: a retry adds nothing
    return needed <= set(top.shards_done or ())


def _shard_counts(event_id: str, round_no: int, shard: int | None) -> dict[int, int]:
    """Boards counted by one shard, or (None) by every shard: one read either way."""
    if shard is not None:
        try:
            item = ProgressShardItem.get(
                event_pk(event_id), progress_shard_sk(round_no, shard), consistent_read=True
            )
        except DoesNotExist:
            return {}
        return {shard: item.boards_done}
    prefix = progress_shard_prefix(round_no)
    items = ProgressShardItem.query(
        event_pk(event_id), ProgressShardItem.sk.startswith(prefix), consistent_read=True
    )
    return {int(item.sk[len(prefix) :]): item.boards_done for item in items}


def progress_of(event_id: str, round_no: int) -> tuple[int, int]:
    """(boards scored, boards in the round): the round's status, not the scoring path."""
    try:
        top = ProgressItem.get(event_pk(event_id), progress_sk(round_no), consistent_read=True)
    except DoesNotExist:
        return 0, 0
    if not top.shard_totals:
        return top.boards_done, top.boards_total
    return sum(_shard_counts(event_id, round_no, None).values()), top.boards_total


def make_sure_of_counter(event_id: str, round_no: int, total: int) -> None:
    """The round's counter, with its total: written if missing, its total set if a count was added to
    a counter that was missing (a round stored by a venue that crashed between the two writes)."""
    try:
        ProgressItem(event_pk(event_id), progress_sk(round_no)).update(
            actions=[
                ProgressItem.boards_total.set(total),
                ProgressItem.boards_done.set(ProgressItem.boards_done | 0),
            ],
            condition=ProgressItem.boards_total.does_not_exist(),
        )
    except UpdateError as exc:
        if getattr(exc, "cause_response_code", "") != "ConditionalCheckFailedException":
            raise  # not "it is there already": a fault the caller's retry must see
