"""Referee actions: warnings, violations and result adjustments, each audited (who, when, why)."""

from __future__ import annotations

import secrets
from typing import Any

from pynamodb.exceptions import DoesNotExist

from ..errors import DeckhandError
from .clock import now_ms
from .events import NotFound, get_event
from .keys import AUDIT_PREFIX, audit_sk, event_pk, result_sk
from .models import AuditItem, ResultItem
from .scoring import recompute_latest_standings


def record(event_id: str, action: dict[str, Any], *, by: str) -> dict[str, Any]:
    get_event(event_id)
    kind = action["kind"]
    if kind == "adjust":
        _adjust(event_id, action, by)
    elif not action.get("player"):
        raise DeckhandError(f"a {kind} names the player")
    at = now_ms()
    detail = {k: v for k, v in action.items() if v is not None and k != "kind"}
    item = AuditItem(
        event_pk(event_id), audit_sk(at, secrets.token_hex(4)), kind=kind, detail=detail, by=by, at=at
    )
    item.save()
    return {"kind": kind, "by": by, "at": at, **detail}


def _adjust(event_id: str, action: dict[str, Any], by: str) -> None:
    if not (action.get("round") and action.get("table") and action.get("board") and action.get("scores")):
        raise DeckhandError("an adjustment names round, table, board and the new scores")
    key = result_sk(action["round"], action["table"], action["board"])
    try:
        result = ResultItem.get(event_pk(event_id), key)
    except DoesNotExist:
        raise NotFound(
            f"no result for round {action['round']} table {action['table']} board {action['board']}"
        ) from None
    if len(action["scores"]) != len(result.players):
        raise DeckhandError(f"scores must have {len(result.players)} entries")
    result.adjusted = {"scores": action["scores"], "reason": action["reason"], "by": by, "was": result.scores}
    result.save()
    recompute_latest_standings(event_id)


def audit_log(event_id: str) -> list[dict[str, Any]]:
    return [
        {"kind": a.kind, "by": a.by, "at": a.at, **a.detail}
        for a in AuditItem.query(event_pk(event_id), AuditItem.sk.startswith(AUDIT_PREFIX))
    ]
