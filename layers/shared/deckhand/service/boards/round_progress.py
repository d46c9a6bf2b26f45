"""A round's count of scored boards, in shards, so no item is hot when a national field's tables finish.

One counter item per round took a write from every table's every board: 5,000 writes to one item in
the minute a 2,500-table round ends. Here a table's boards (a match: once) count into one of about
√total shard items (the shard of its table id), and the round's counter (``ProgressItem``) takes one
write per shard, when the shard's count is complete: a set of complete shards, so a retry adds
nothing. About √total writes per item per round however many tables (71 for 5,000 boards). The
shards' totals are fixed when the round is stored; a round stored without them counts as before, into
the round's counter.

A duplicate round is counted board by board, so each board is found complete as its last table
finishes it (its matchpoints are computed then, service/duplicate/board_scores.py), without reading
the round: a board's tables (in one group) count into about √tables shards; the shard that completes
is added to the board's set of complete shards (``BoardProgressItem``: one write a shard), and the
board, once its matchpoints are written, to the round counter's set of scored boards (one write a
board). Every item takes about √tables writes a round, the round's counter one a board.
"""

from __future__ import annotations

import math
import zlib
from typing import Any, NamedTuple

from pynamodb.exceptions import DoesNotExist, UpdateError
from pynamodb.transactions import TransactWrite

from ..storage.keys import (
    board_progress_prefix,
    board_progress_sk,
    board_shard_sk,
    event_pk,
    progress_shard_prefix,
    progress_shard_sk,
    progress_sk,
    round_sk,
)
from ..storage.models import BoardProgressItem, ProgressItem, ProgressShardItem, RoundItem
from ..storage.seating import round_seating


class BoardKey(NamedTuple):
    """One board of a round in one group: what is compared (and matchpointed) together."""

    group: str
    board: str

    def code(self) -> str:
        return f"{self.group}#{self.board}"


class BoardState(NamedTuple):
    """Whether every table of a board has finished it, and its ``rev`` (referee adjustments so far)."""

    complete: bool
    rev: int


def shard_count(total: int) -> int:
    """⌈√total⌉ shards of about √total boards: the fewest writes to the busiest item."""
    return max(1, math.isqrt(max(total - 1, 0)) + 1)


def shard_of(unit: str, shards: int) -> int:
    """The shard a table's boards count into (a stable hash of its id: the same in every process)."""
    return zlib.crc32(unit.encode()) % shards


def layout(r: RoundItem, seating: list[dict[str, Any]] | None = None) -> list[int]:
    """The boards each shard counts: every board of a table (a match: once, when it ends). ``seating``:
    the round's, when known (else read)."""
    units = [str(row["table"]) for row in (round_seating(r) if seating is None else seating)]
    per_unit = 1 if r.match else len(r.boards)
    totals = [0] * shard_count(len(units) * per_unit)
    for unit in units:
        totals[shard_of(unit, len(totals))] += per_unit
    return totals


def board_layout(r: RoundItem, seating: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A duplicate round's boards, and for each group the tables each of its shards counts (of a board)."""
    groups: dict[str, list[str]] = {}
    for row in round_seating(r) if seating is None else seating:
        groups.setdefault(str(row["group"]), []).append(str(row["table"]))
    totals: dict[str, list[int]] = {}
    for group, tables in groups.items():
        shards = totals[group] = [0] * shard_count(len(tables))
        for table in tables:
            shards[shard_of(table, len(shards))] += 1
    return {"boards": [str(b) for b in r.boards], "groups": totals}


def board_keys(board_shards: dict[str, Any]) -> list[BoardKey]:
    """Every board of a duplicate round's layout, in each group."""
    return [BoardKey(g, b) for g in board_shards["groups"] for b in board_shards["boards"]]


def new_counter(
    event_id: str, round_no: int, r: RoundItem, seating: list[dict[str, Any]] | None = None
) -> ProgressItem:
    """The round's counter, with its shards' totals, saved with the round (round_items.store_round): a
    round of matches counts by table (each match once), a duplicate round board by board."""
    key = (event_pk(event_id), progress_sk(round_no))
    if r.match:
        return ProgressItem(*key, boards_total=r.boards_total, shard_totals=layout(r, seating))
    return ProgressItem(*key, boards_total=r.boards_total, board_shards=board_layout(r, seating))


def counter_layout(event_id: str, round_no: int) -> ProgressItem | None:
    """The round counter's fixed part (how it is counted), read once by a scoring; None: no counter yet."""
    try:
        return ProgressItem.get(
            event_pk(event_id),
            progress_sk(round_no),
            consistent_read=True,
            attributes_to_get=["shard_totals", "board_shards"],
        )
    except DoesNotExist:
        return None


def count(
    tx: TransactWrite,
    event_id: str,
    round_no: int,
    unit: str,
    board: BoardKey | None = None,
    top: ProgressItem | None = None,
) -> None:
    """One board of table ``unit`` counted, in the caller's transaction (with the result it counts, whose
    condition makes the count happen once). ``board``: which board (a duplicate round counts each board
    apart); ``top``: the counter's layout if the caller has read it (:func:`counter_layout`)."""
    top = top or counter_layout(event_id, round_no)
    if board is not None and top is not None and top.board_shards:
        shards = len(top.board_shards["groups"][board.group])
        key = board_shard_sk(round_no, board.group, board.board, shard_of(unit, shards))
        tx.update(ProgressShardItem(event_pk(event_id), key), actions=[ProgressShardItem.boards_done.add(1)])
        return
    # Counted into before the counter exists (a crashed venue's round): made sure of later.
    totals = top.shard_totals if top is not None else None
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
    if top.board_shards:
        return set(top.boards_scored or ()) >= {k.code() for k in board_keys(top.board_shards)}
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
    if top.board_shards:
        shards = _board_items(event_id, round_no, ProgressShardItem)
        counted = sum(
            shards[sk].boards_done for sk in _shard_keys(round_no, top.board_shards) if sk in shards
        )
        return counted, top.boards_total
    if not top.shard_totals:
        return top.boards_done, top.boards_total
    return sum(_shard_counts(event_id, round_no, None).values()), top.boards_total


def board_counted(event_id: str, round_no: int, unit: str, board: BoardKey, top: ProgressItem) -> BoardState:
    """Table ``unit`` has finished ``board`` (counted): is the board complete? One read (the table's shard
    of the board), and one write when that shard completes (the board's set of complete shards)."""
    totals: list[int] = top.board_shards["groups"][board.group]
    shard = shard_of(unit, len(totals))
    try:
        counted = ProgressShardItem.get(
            event_pk(event_id),
            board_shard_sk(round_no, board.group, board.board, shard),
            consistent_read=True,
        ).boards_done
    except DoesNotExist:
        counted = 0
    if counted < totals[shard]:
        return BoardState(False, 0)
    done = BoardProgressItem(event_pk(event_id), board_progress_sk(round_no, board.group, board.board))
    done.update(actions=[BoardProgressItem.shards_done.add({shard})])  # a set: a retry adds nothing
    return BoardState(_needed(totals) <= set(done.shards_done or ()), done.rev or 0)


def board_adjusted(event_id: str, round_no: int, board: BoardKey, top: ProgressItem) -> BoardState:
    """A result of ``board`` was adjusted (after it was written): its ``rev`` goes up, so matchpoints
    computed before it (from the results as they were) cannot overwrite those computed after."""
    done = BoardProgressItem(event_pk(event_id), board_progress_sk(round_no, board.group, board.board))
    done.update(actions=[BoardProgressItem.rev.add(1)])
    totals: list[int] = top.board_shards["groups"][board.group]
    return BoardState(_needed(totals) <= set(done.shards_done or ()), done.rev or 0)


def board_scored(event_id: str, round_no: int, board: BoardKey) -> bool:
    """``board``'s matchpoints are written: into the round counter's set (a retry adds nothing). True
    when that makes every board of the round scored."""
    top = ProgressItem(event_pk(event_id), progress_sk(round_no))
    top.update(actions=[ProgressItem.boards_scored.add({board.code()})])
    return set(top.boards_scored or ()) >= {k.code() for k in board_keys(top.board_shards)}


def complete_boards(event_id: str, round_no: int) -> dict[BoardKey, BoardState]:
    """Every board whose tables have all finished it but is not yet in the round's scored set (the
    timers' sweep, after a scoring that crashed between the two): the counter, two queries of the
    round's board counts, and a board's set of complete shards written whole."""
    try:
        top = ProgressItem.get(event_pk(event_id), progress_sk(round_no), consistent_read=True)
    except DoesNotExist:
        return {}
    if not top.board_shards:
        return {}
    scored = set(top.boards_scored or ())
    shards = _board_items(event_id, round_no, ProgressShardItem)
    done = _board_items(event_id, round_no, BoardProgressItem)
    out: dict[BoardKey, BoardState] = {}
    for key in board_keys(top.board_shards):
        if key.code() in scored:
            continue
        totals: list[int] = top.board_shards["groups"][key.group]
        full = {
            i
            for i in _needed(totals)
            if (s := shards.get(board_shard_sk(round_no, key.group, key.board, i)))
            and s.boards_done >= totals[i]
        }
        if full != _needed(totals):
            continue
        sk = board_progress_sk(round_no, key.group, key.board)
        item = done.get(sk) or BoardProgressItem(event_pk(event_id), sk)
        if not full <= set(item.shards_done or ()):
            item.update(actions=[BoardProgressItem.shards_done.add(full)])
        out[key] = BoardState(True, item.rev or 0)
    return out


def _needed(totals: list[int]) -> set[int]:
    return {i for i, total in enumerate(totals) if total}


def _shard_keys(round_no: int, board_shards: dict[str, Any]) -> list[str]:
    return [
        board_shard_sk(round_no, key.group, key.board, i)
        for key in board_keys(board_shards)
        for i in range(len(board_shards["groups"][key.group]))
    ]


def _board_items(event_id: str, round_no: int, model: type[Any]) -> dict[str, Any]:
    """The round's board completion items and count shards, by sort key, read as ``model`` (one query)."""
    prefix = board_progress_prefix(round_no)
    return {
        item.sk: item
        for item in model.query(event_pk(event_id), model.sk.startswith(prefix), consistent_read=True)
    }


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
