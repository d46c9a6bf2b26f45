"""Referee actions: warnings, violations and result adjustments, each audited (who, when, why).

``by`` is always the caller's verified identity (the API's, service/organiser/access.py), never the body's.
A warning or violation names a player of the event; an adjustment replaces one table's scores of
one board, keeps them summing as the played ones did (zero: the duplicate games score zero-sum,
RULES.md), and keeps the played scores next to it (``was``) for every export. An artificial score
takes one table out of one board's comparison (competition/artificial.py), marked the same way; a
re-seat moves a player of the round in play from the next board (service/refereeing/reseat.py); a
board game's rulings (a claim, a corrected move, a no-show) are service/refereeing/board_rulings.py's.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from pynamodb.exceptions import DoesNotExist, UpdateError

from ...engines.contract import Rejected
from ..duplicate.scoring import recompute_latest_standings
from ..infra.clock import now_ms
from ..infra.runtime import Runtime
from ..organiser.events import NotFound, event_id_of
from ..storage.keys import AUDIT_PREFIX, audit_sk, event_pk, player_sk, result_sk, team_of
from ..storage.models import AuditItem, EventItem, PlayerItem, ResultItem, TeamItem
from . import artificial_scores, board_resume, board_rulings, deal_takeover, match_penalties, reseat


def record(
    event: EventItem,
    action: dict[str, Any],
    *,
    by: str,
    rt: Runtime,
    request: str | None = None,
) -> dict[str, Any]:
    """Record a referee action; in a match event a penalty is also applied to the player's board in
    play (service/refereeing/match_penalties.py). ``rt`` sends the views of a board an action changes and begins
    a table's next board (a deal taken over, an artificial score, a match penalty). ``request``: the
    request's idempotency key, so a retry of a penalty that failed half-way applies it once."""
    event_id = event_id_of(event)
    kind = action["kind"]
    if kind in board_rulings.KINDS:  # a board game's board: its own idempotency, its own audit entry
        return board_rulings.rule(rt, event, action, by=by, request=request)
    applied: dict[str, Any] = {}
    token = secrets.token_hex(4)
    at = now_ms()
    if kind == "withdraw":
        changed, applied = _withdraw(event, action.get("player"))
        earlier = None if changed else _earlier_withdrawal(event_id, action.get("player"))
        if earlier is not None:
            return earlier  # a retry: the state changed once, and its audit entry is there already
    elif kind == "serve_deal":
        token = hashlib.sha256(f"{by}/{request or secrets.token_hex(16)}".encode()).hexdigest()[:16]
        applied = deal_takeover.serve_deal(rt, event, action.get("table"), by, token)
        at = applied.pop("at")  # a retry's audit entry is the same item, written again
    elif kind == "resume":
        applied = board_resume.resume(rt, event, action, by)
        at = applied.pop("at")  # a retry's audit entry is the same item, written again
        token = applied.pop("token")
    elif kind == "adjust":
        if event.match is not None:
            raise Rejected(
                "not_for_matches", "a match's boards are not adjusted: penalise the player instead"
            )
        _adjust(event_id, action, by)
    elif kind == "reseat":
        applied = reseat.reseat(event, action)
    elif kind == "artificial":
        if event.match is not None:
            raise Rejected("not_for_matches", "a match's boards are not scored by matchpoints")
        artificial_scores.give(rt, event_id, action, by)
    elif event.match is not None:
        if not action.get("player"):
            raise Rejected("player_missing", f"a {kind} names the player")
        key = None if request is None else hashlib.sha256(f"{by}/{request}".encode()).hexdigest()[:16]
        applied = match_penalties.penalise(rt, event, kind, action["player"], by, key)
        # The audit entry of a retried penalty (with or without its Idempotency-Key) is the same item,
        # written again: its id and time are the penalty's on the board.
        at = applied.pop("at")
        token = applied.pop("pid")
    else:
        if kind not in ("warning", "violation"):
            raise Rejected(
                "not_for_duplicate", f"a {kind} is a match penalty (a game of pairs whose boards carry)"
            )
        _check_player(event_id, kind, action.get("player"))
    detail = {k: v for k, v in action.items() if v is not None and k != "kind"}
    detail.update(applied)
    item = AuditItem(event_pk(event_id), audit_sk(at, token), kind=kind, detail=detail, by=by, at=at)
    item.save()
    return {"kind": kind, "by": by, "at": at, **detail}


def _withdraw(event: EventItem, player: str | None) -> tuple[bool, dict[str, Any]]:
    """A withdrawal (RULES.md §4.3; 001): the player — in a match event, the player's pair — keeps
    its results and is seated or paired no more from the next round on. Conditional: (whether this
    call withdrew them, what the audit entry records); a player already withdrawn is not again."""
    event_id = event_id_of(event)
    if event.match is None:
        _check_player(event_id, "withdraw", player)
        item = PlayerItem(event_pk(event_id), player_sk(str(player)))
        return _set_inactive(item, PlayerItem.active), {}
    from ..organiser.pairs import list_teams

    team = next((t for t in list_teams(event_id) if any(p["id"] == player for p in t.players)), None)
    if team is None:
        raise Rejected("unknown_player", f"player {player!r} plays in no pair of this event")
    changed = _set_inactive(team, TeamItem.active)
    from ..organiser.pairs import field_changed

    field_changed(event)  # idempotent: a retry completes what a first attempt may have left undone
    return changed, {"pair": team_of(team.sk)}


def _set_inactive(item: PlayerItem | TeamItem, active: Any) -> bool:
    """Set ``active`` false if it is true; whether this call changed it."""
    try:
        item.update(actions=[active.set(False)], condition=active.is_in(True))
    except UpdateError as exc:
        if exc.cause_response_code == "ConditionalCheckFailedException":
            return False
        raise
    return True


def _earlier_withdrawal(event_id: str, player: str | None) -> dict[str, Any] | None:
    """The audit entry of the player's withdrawal, if one was written."""
    return next(
        (a for a in audit_log(event_id) if a["kind"] == "withdraw" and a.get("player") == player), None
    )


def _check_player(event_id: str, kind: str, player: str | None) -> None:
    if not player:
        raise Rejected("player_missing", f"a {kind} names the player")
    try:
        PlayerItem.get(event_pk(event_id), player_sk(player))
    except DoesNotExist:
        raise Rejected("unknown_player", f"player {player!r} is not registered in this event") from None


def _adjust(event_id: str, action: dict[str, Any], by: str) -> None:
    if not (action.get("round") and action.get("table") and action.get("board") and action.get("scores")):
        raise Rejected("adjustment_incomplete", "an adjustment names round, table, board and the new scores")
    key = result_sk(action["round"], action["table"], action["board"])
    try:
        result = ResultItem.get(event_pk(event_id), key, consistent_read=True)
    except DoesNotExist:
        raise NotFound(
            f"no result for round {action['round']} table {action['table']} board {action['board']}"
        ) from None
    if result.detail.get("not_played"):
        raise Rejected(
            "not_played",
            f"table {action['table']} did not play board {action['board']}: it takes artificial scores only",
        )
    scores = action["scores"]
    if len(scores) != len(result.players):
        raise Rejected("adjustment_seats", f"scores must have {len(result.players)} entries, one a seat")
    played = list(result.scores)
    if sum(scores) != sum(played):
        raise Rejected(
            "adjustment_sum",
            f"the adjusted scores must sum to {sum(played)} as the played ones do (they sum to {sum(scores)})",
        )
    # ``was``: the scores played (result.scores never changes), also after an earlier adjustment.
    result.adjusted = {"scores": scores, "reason": action["reason"], "by": by, "was": played}
    result.save()
    recompute_latest_standings(event_id, adjusted=(int(result.round), result.group, result.board))


def audit_log(event_id: str) -> list[dict[str, Any]]:
    return [
        {"kind": a.kind, "by": a.by, "at": a.at, **a.detail}
        for a in AuditItem.query(event_pk(event_id), AuditItem.sk.startswith(AUDIT_PREFIX))
    ]
