"""A handset calls the referee to its table (the platform's action in every game)."""

from __future__ import annotations

from typing import Any

from ..boards import log as board_log
from ..boards import store as board_store
from ..boards.log import CALL
from ..boards.store import Unchanged
from ..infra.clock import now_ms
from ..infra.runtime import Runtime
from ..storage.keys import audit_sk, event_pk
from ..storage.models import AuditItem, BoardStateItem
from .replies import ack

CALL_AGAIN_MS = 60_000  # a seat's second call within this is acknowledged and not recorded again


def call_referee(rt: Runtime, thing: str, msg: str, item: BoardStateItem, seat: int) -> dict[str, Any]:
    """A handset calls the referee: noted on the board (the round's status shows it to the event's
    staff) and in the audit, once per message and once a minute per seat; the game goes on."""
    key = (item.event_id, item.round, item.table, item.board)

    Noted = tuple[int | None, bool]  # when the call is noted (None: not noted), and if it was before

    def change(current: BoardStateItem) -> Noted | Unchanged[Noted]:
        logged = board_log.find_logged(current, thing, msg)
        if logged is not None:  # a resend: the first delivery's time
            return Unchanged((int(logged["at"]), True))
        now = now_ms()
        recent = any(
            e["t"] == CALL and e["s"] == seat and now - e.get("at", 0) < CALL_AGAIN_MS for e in current.log
        )
        if recent:
            return Unchanged((None, False))
        current.log = [*current.log, {"s": seat, "t": CALL, "at": now, "m": msg}]
        return now, False

    item, (at, resent) = board_store.transact(key, change, first=item)
    if at is not None:
        # Keyed by the call's message: a resend after a failure here writes the same entry again.
        AuditItem(
            event_pk(item.event_id),
            audit_sk(at, msg),
            kind="call_referee",
            detail={"round": item.round, "table": item.table, "board": item.board, "seat": seat},
            by=thing,
            at=at,
        ).save()
    return ack(rt, thing, msg, duplicate=resent, version=item.version)
