"""A referee answers a handset's call (service/device_io/referee_calls.py): the call is marked handled,
in the audit, so the room's grid stops flashing it for every member of the staff and after a reload.

A call is named by where and when it was made (round, table, board, seat, the time the board's log
gives it); a call that was never made is refused. Handling a call twice changes nothing: the entry is
keyed by the call, and the second answer is the first's entry.
"""

from __future__ import annotations

from typing import Any

from pynamodb.exceptions import PutError

from ...engines.contract import Rejected
from ..boards import store as board_store
from ..boards.log import CALL
from ..infra.clock import now_ms
from ..organiser.events import NotFound
from ..storage.keys import AUDIT_PREFIX, audit_sk, event_pk
from ..storage.models import AuditItem

HANDLED = "call_handled"
CallKey = tuple[int, str, str, int, int]  # round, table, board, seat, the call's time


def handle(event_id: str, call: dict[str, Any], *, by: str) -> dict[str, Any]:
    """Mark one call handled (``call``: round, table, board, seat, at; an optional note): its audit
    entry, written once whatever the retries."""
    key: CallKey = (call["round"], call["table"], call["board"], call["seat"], call["at"])
    item = board_store.load(event_id, key[0], key[1], key[2])
    if item is None or not any(
        e["t"] == CALL and e["s"] == key[3] and int(e.get("at", -1)) == key[4] for e in item.log
    ):
        raise NotFound(
            f"no call of seat {key[3]} at table {key[1]}, board {key[2]} of round {key[0]} at {key[4]}"
        )
    earlier = handled(event_id).get(key)
    if earlier is not None:
        return earlier
    detail = {"round": key[0], "table": key[1], "board": key[2], "seat": key[3], "call_at": key[4]}
    if call.get("note"):
        detail["note"] = call["note"]
    at = max(now_ms(), key[4])
    # Keyed by the call, at the call's time: a second handling races to the same item and loses.
    entry = AuditItem(
        event_pk(event_id), audit_sk(key[4], f"handled.{key[3]}.{key[1]}.{key[2]}.{key[0]}"),
        kind=HANDLED, detail=detail, by=by, at=at,
    )  # fmt: skip
    try:
        entry.save(condition=AuditItem.sk.does_not_exist())
    except PutError as exc:
        if exc.cause_response_code != "ConditionalCheckFailedException":
            raise
        again = handled(event_id).get(key)
        if again is None:  # pragma: no cover - the item exists, so its entry is found
            raise Rejected("call_handled", "the call was handled meanwhile") from None
        return again
    return {"kind": HANDLED, "by": by, "at": at, **detail}


def handled(event_id: str) -> dict[CallKey, dict[str, Any]]:
    """Every handled call of the event → its audit entry."""
    out: dict[CallKey, dict[str, Any]] = {}
    query = AuditItem.query(
        event_pk(event_id), AuditItem.sk.startswith(AUDIT_PREFIX), filter_condition=AuditItem.kind == HANDLED
    )
    for a in query:
        d = a.detail
        out[(d["round"], d["table"], d["board"], d["seat"], d["call_at"])] = {
            "kind": a.kind, "by": a.by, "at": a.at, **d,
        }  # fmt: skip
    return out


def mark_handled(event_id: str, status: dict[str, Any]) -> dict[str, Any]:
    """A round's status (the staff's) with each call that was handled marked ``handled: {by, at}``."""
    done = handled(event_id)
    if not done:
        return status
    for table in status.get("tables") or []:
        for board in table.get("boards") or []:
            for c in board.get("calls") or []:
                entry = done.get((status["round"], table["table"], board["board"], c["seat"], c["at"]))
                if entry is not None:
                    c["handled"] = {"by": entry["by"], "at": entry["at"]}
    return status
