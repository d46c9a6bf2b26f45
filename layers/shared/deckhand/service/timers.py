"""The scheduled sweep: timeouts applied to decisions whose time is up, and any ended board scored.

Every incoming device message also applies due timeouts first (devices.py), so the sweep only
matters for tables that have gone quiet; it is cheap and safe to run as often as wanted.
"""

from __future__ import annotations

from pynamodb.exceptions import DoesNotExist

from . import flow, tableboard
from .clock import now_ms
from .models import ActiveItem, BoardStateItem, ResultItem, RoundItem, event_pk, round_key
from .runtime import Runtime


def sweep(rt: Runtime) -> dict[str, int]:
    counts = {"rounds": 0, "boards": 0, "timeouts": 0, "rescored": 0}
    for active in ActiveItem.query("ACTIVE"):
        try:
            r = RoundItem.get(event_pk(active.event_id), f"ROUND#{round_key(active.round)}")
        except DoesNotExist:
            continue
        counts["rounds"] += 1
        items = tableboard.load_many(
            active.event_id, active.round, [(e["table"], b) for e in r.seating for b in r.boards]
        )
        for entry in r.seating:
            for b in r.boards:
                item = items.get((entry["table"], b))
                if item is None:
                    continue
                counts["boards"] += 1
                if item.status == "playing" and item.deadline and item.deadline <= now_ms():
                    counts["timeouts"] += _timeout(rt, item)
                elif item.status == "ended" and not _has_result(item):
                    rt.invoke(
                        "score",
                        {"event_id": item.event_id, "round": item.round, "table": item.table, "board": b},
                    )
                    counts["rescored"] += 1
    return counts


def _timeout(rt: Runtime, item: BoardStateItem) -> int:
    def change(current: BoardStateItem) -> int:
        applied = tableboard.apply_timeouts(current)
        if not applied:
            tableboard.mark_unchanged(current)
        return applied

    updated, applied = tableboard.transact((item.event_id, item.round, item.table, item.board), change)
    if applied:
        flow.after_change(rt, updated)
    return applied


def _has_result(item: BoardStateItem) -> bool:
    try:
        ResultItem.get(event_pk(item.event_id), f"RESULT#{round_key(item.round)}#{item.table}#{item.board}")
    except DoesNotExist:
        return False
    return True
