"""A round's count of scored boards in shards (service/boards/round_progress.py): every board counted
once however often its scoring is re-driven, the round complete exactly when its last board is, and no
item written once per board. A round of matches counts by table; a duplicate round board by board."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from backend import SEEDED, database_calls, prepare, run_round, setup_moto_env
from deckhand.service.boards import round_progress
from deckhand.service.boards.round_items import store_round
from deckhand.service.boards.round_progress import BoardKey
from deckhand.service.duplicate import rounds
from deckhand.service.infra.runtime import Runtime
from deckhand.service.storage.keys import event_pk, progress_sk, round_sk
from deckhand.service.storage.models import ProgressItem, RoundItem, transaction

setup_moto_env()


def test_the_shards_totals_add_up_to_the_rounds_boards_and_stay_near_its_square_root():
    for tables in range(1, 301, 7):
        for boards in (1, 2, 3):
            r = RoundItem(seating=[{"table": f"{tables}-{t}"} for t in range(tables)], boards=["x"] * boards)
            r.match = boards == 1 and tables % 2 == 0  # a round of matches: each counts once
            per = 1 if r.match else boards
            totals = round_progress.layout(r)
            assert sum(totals) == tables * per
            assert len(totals) == round_progress.shard_count(tables * per)
            assert (len(totals) - 1) ** 2 < tables * per <= len(totals) ** 2
            assert max(totals) <= 4 * len(totals)  # a hash, not a perfect split: no shard far above √total


def store(tables: int, boards: int = 2, match: bool = False, groups: int = 1) -> RoundItem:
    seating = [{"group": 1 + t % groups, "table": f"1-{t}", "seats": []} for t in range(1, tables + 1)]
    item = RoundItem(
        event_pk("big"),
        round_sk(1),
        status="playing",
        seating=seating,
        boards=["1"] if match else [str(b) for b in range(1, boards + 1)],
        commitment="c",
        salt="s",
        boards_total=tables if match else tables * boards,
        started_at=0,
        match=match or None,
    )
    return store_round("big", 1, item)


def count(table: str, board: BoardKey | None = None) -> None:
    with transaction() as tx:
        round_progress.count(tx, "big", 1, table, board)


def test_a_round_of_matches_is_complete_with_its_last_match_and_the_rounds_counter_takes_a_write_a_shard(
    backend,
):
    r = store(120, match=True)
    tables = [row["table"] for row in r.seating]
    for n, table in enumerate(tables, start=1):
        count(table)
        assert round_progress.complete("big", 1, table) == (n == len(tables))
        if n % 37 == 0:
            assert rounds.get_progress("big", 1) == (n, 120)
    top = ProgressItem.get(event_pk("big"), progress_sk(1))
    assert top.boards_done == 0  # nothing counted into the round's counter itself
    assert top.shards_done == {i for i, total in enumerate(top.shard_totals) if total}
    assert round_progress.complete("big", 1) and round_progress.complete("big", 1, tables[0])


def test_without_a_table_every_shard_is_read(backend):
    r = store(20, match=True)
    for row in r.seating:
        count(row["table"])
    assert ProgressItem.get(event_pk("big"), progress_sk(1)).shards_done is None  # nobody asked yet
    assert round_progress.complete("big", 1)  # the timers' sweep: all shards at once


def test_a_board_is_complete_with_its_last_table_and_no_item_takes_a_write_a_table(backend):
    """A duplicate round: each board (in each group) complete exactly when its last table has counted
    it, read from the table's shard of it alone; the board's item takes a write a shard, the round's
    counter a write a board."""
    r = store(40, boards=2, groups=2)
    top = round_progress.counter_layout("big", 1)
    assert top is not None and top.board_shards is not None and top.shard_totals is None
    for totals in top.board_shards["groups"].values():
        assert sum(totals) == 20 and len(totals) == round_progress.shard_count(20)
    order = [(row["table"], BoardKey(str(row["group"]), b)) for b in r.boards for row in r.seating]
    random.Random(1).shuffle(order)
    left = Counter(key for _, key in order)
    with database_calls() as calls:
        for n, (table, key) in enumerate(order, start=1):
            count(table, key)
            left[key] -= 1
            state = round_progress.board_counted("big", 1, table, key, top)
            assert state.complete == (left[key] == 0)
            if state.complete:
                assert round_progress.board_scored("big", 1, key) == (n == len(order))
            if n % 37 == 0:
                assert rounds.get_progress("big", 1) == (n, 80)
    assert calls["Query"] == 80 // 37 and not calls["Scan"]  # only the status reads above query
    assert round_progress.complete("big", 1)
    assert round_progress.complete_boards("big", 1) == {}  # the sweep: nothing left to matchpoint


def test_the_sweep_finds_a_complete_board_its_last_scoring_did_not_mark(backend):
    r = store(12, boards=2)
    for row in r.seating:
        for b in r.boards:
            count(row["table"], BoardKey("1", b))
    found = round_progress.complete_boards("big", 1)  # no scoring asked: the counts alone tell
    assert found == {BoardKey("1", "1"): (True, 0), BoardKey("1", "2"): (True, 0)}
    assert not round_progress.complete("big", 1)  # complete, not yet matchpointed


@pytest.mark.parametrize("redrives", [1, 3])
def test_a_re_driven_table_finish_counts_once(backend, redrives):
    """Every board's scoring delivered several times (Lambda retries, a duplicate message): the round
    waits for its last board all the same, and counts each board once."""
    bots = prepare(backend, **SEEDED)
    held: list[dict[str, Any]] = []

    def holding(name: str, payload: dict[str, Any]) -> None:
        if name == "score":
            held.append(payload)
            return
        backend.invoke(name, payload)

    backend.rt = Runtime(backend.publisher, holding)
    rounds.request_next_round(backend.rt, "cup")
    run_round(backend, bots)
    total = rounds.get_progress("cup", 1)[1]
    assert len(held) == total > 1
    *first, last = held
    for payload in first:
        for _ in range(1 + redrives):
            backend.invoke("score", payload)
    assert rounds.get_progress("cup", 1) == (total - 1, total)
    assert rounds.round_status("cup", 1)["status"] == "playing"  # still waits for its last board
    backend.invoke("score", last)
    backend.invoke("score", last)
    assert rounds.get_progress("cup", 1) == (total, total)
    assert rounds.round_status("cup", 1)["status"] == "done"
