"""A referee's rulings on a board game's board in play (RULES.md §6, §6.5): a claim adjudicated, a
wrongly entered move corrected, a player who does not appear forfeited.

- ``adjudicate``: the referee decides a claim (a forbidden move pointed out, a perpetual check…).
  ``upheld`` ends the game as the engine's ``adjudicate`` says (it refuses what the rules refuse: a
  forbidden move claimed after White's next stone stands); ``rejected`` changes nothing on the board.
- ``correct_move``: move ``move`` (the board's N-th move, 1 first) becomes ``data``; the game replays
  from its start along the corrected line, refused (nothing changed) when any move of it is not legal.
- ``no_show``: the player's game in play is lost by forfeit, and with it the match (its later games
  are forfeits: service/boards/match_boards.py).

Each is bound to the board's version (a ruling on a board that moved on since is refused
``stale_version``), identified by its request (the Idempotency-Key, or else by what it is and the
version it names), applied once and audited once: a retry answers the first ruling's audit entry.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ...engines.contract import Rejected
from ...errors import DeckhandError
from ..boards import progress as board_progress
from ..boards import store as board_store
from ..boards import table as tableboard
from ..boards.log import NOT_ACTIONS
from ..boards.round_boards import list_matches
from ..infra.clock import now_ms
from ..infra.runtime import Runtime
from ..organiser.events import Conflict, NotFound, event_id_of
from ..storage.keys import AUDIT_PREFIX, audit_sk, deal_sk, event_pk
from ..storage.models import AuditItem, BoardStateItem, DealItem, EventItem

KINDS = ("adjudicate", "correct_move", "no_show")
FORFEIT = "forfeit"  # the claim (and the game's ``why``) of a player who did not appear


def rule(
    rt: Runtime, event: EventItem, action: dict[str, Any], *, by: str, request: str | None
) -> dict[str, Any]:
    """Apply one ruling (module doc) and answer its audit entry."""
    event_id = event_id_of(event)
    kind = action["kind"]
    if event.match is None:
        raise Rejected("not_for_duplicate", f"a {kind} rules on a board game's match")
    if event.status != "playing":
        raise Conflict(f"no round is in play (the event is {event.status}): a ruling is on a board in play")
    if action.get("version") is None:
        raise Rejected("version_missing", f"a {kind} names the board's version it was decided on")
    item, seat = _board(event_id, event.current_round, kind, action)
    rid = _ruling_id(by, request, kind, item, action)
    earlier = _audited(event_id, rid)
    if earlier is not None:
        return earlier  # a retry: applied and audited once
    detail: dict[str, Any] = {
        "round": item.round, "table": item.table, "board": item.board, "version": action["version"],
        "reason": action["reason"], "rid": rid,
    }  # fmt: skip
    logged = _logged(item, rid)
    if logged is None:
        if item.version != action["version"]:
            raise Rejected(
                "stale_version",
                f"board {item.board} at table {item.table} is at version {item.version}, not "
                f"{action['version']}: look at it again",
            )
        if item.status != "playing":
            raise Rejected("board_not_in_play", f"board {item.board} at table {item.table} is {item.status}")
    if kind == "correct_move":
        at, applied = _correct(rt, item, action, by, rid, logged)
    elif kind == "adjudicate" and action.get("decision") == "rejected":
        at, applied = now_ms(), {"claim": _claim(action), "decision": "rejected"}
    else:
        claim = FORFEIT if kind == "no_show" else _claim(action)
        winner = 1 - seat if kind == "no_show" else action.get("winner")
        if kind == "no_show":
            applied = {"player": action["player"], "seat": seat, "claim": claim, "winner": winner}
        else:
            applied = {"claim": claim, "decision": "upheld", "winner": winner}
        at = logged if logged is not None else _apply(rt, item, claim, winner, by, rid)
    detail.update(applied)
    entry = AuditItem(event_pk(event_id), audit_sk(at, rid), kind=kind, detail=detail, by=by, at=at)
    entry.save()  # a retry that gets here writes the same item again: one entry
    return {"kind": kind, "by": by, "at": at, **detail}


def _board(event_id: str, round_no: int, kind: str, action: dict[str, Any]) -> tuple[BoardStateItem, int]:
    """The board ruled on (and, for a no-show, the absent player's seat on it)."""
    matches = [m for m in list_matches(event_id, round_no) if m.table]
    if kind == "no_show":
        player = action.get("player")
        if not player:
            raise Rejected("player_missing", "a no_show names the player who did not appear")
        match = next((m for m in matches if player in m.players), None)
        if match is None:
            raise Rejected("unknown_player", f"player {player!r} plays no match in round {round_no}")
    else:
        table = action.get("table")
        if not table:
            raise Rejected(
                "table_missing", f"a {kind} names the table (and the board: its game in play by default)"
            )
        match = next((m for m in matches if m.table == table), None)
        if match is None:
            raise NotFound(f"no match at table {table!r} in round {round_no}")
    board = action.get("board") or match.boards[-1]
    item = board_store.load(event_id, round_no, match.table, board)
    if item is None or board not in match.boards:
        raise NotFound(f"no board {board!r} at table {match.table} in round {round_no}")
    seat = item.players.index(action["player"]) if kind == "no_show" else -1
    return item, seat


def _claim(action: dict[str, Any]) -> str:
    claim = action.get("claim")
    if not claim:
        raise Rejected("claim_missing", "an adjudication names the claim (e.g. forbidden, perpetual_check)")
    if action.get("decision") not in ("upheld", "rejected"):
        raise Rejected("decision_missing", "an adjudication's decision is upheld or rejected")
    return str(claim)


def _ruling_id(by: str, request: str | None, kind: str, item: BoardStateItem, action: dict[str, Any]) -> str:
    """The ruling's id: its request's key, or what it is on which board at which version."""
    if request is not None:
        text = f"{by}/{request}"
    else:
        what = {k: v for k, v in sorted(action.items()) if k != "reason"}
        text = f"{by}/{kind}/{item.round}/{item.table}/{item.board}/{json.dumps(what, sort_keys=True)}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _audited(event_id: str, rid: str) -> dict[str, Any] | None:
    """The ruling's audit entry, if it was written."""
    for a in AuditItem.query(event_pk(event_id), AuditItem.sk.startswith(AUDIT_PREFIX)):
        if a.detail.get("rid") == rid:
            return {"kind": a.kind, "by": a.by, "at": a.at, **a.detail}
    return None


def _logged(item: BoardStateItem, rid: str) -> int | None:
    """When the board logged the ruling ``rid`` (None: not applied yet)."""
    for entry in item.log:
        if entry.get("rid") == rid:
            return int(entry["at"])
        fix = entry.get("cx")
        if isinstance(fix, dict) and fix.get("rid") == rid:
            return int(fix["at"])
    return None


def _apply(rt: Runtime, item: BoardStateItem, claim: str, winner: int | None, by: str, rid: str) -> int:
    version = item.version

    def change(current: BoardStateItem) -> None:
        _check_same(current, version)
        tableboard.apply_ruling(current, claim, winner, by, rid)

    saved, _ = board_store.transact((item.event_id, item.round, item.table, item.board), change)
    board_progress.after_change(rt, saved)
    at = _logged(saved, rid)
    assert at is not None
    return at


def _check_same(item: BoardStateItem, version: int | None) -> None:
    """The board as the ruling was decided on: a move in between makes it stale."""
    if item.version != version or item.status != "playing":
        raise Rejected(
            "stale_version", f"board {item.board} at table {item.table} changed meanwhile: look again"
        )


def moves_of(item: BoardStateItem) -> list[int]:
    """The indices in the board's log of its moves: the seats' own actions that carry a move's data
    (not the clock's, not a referee's), in order."""
    return [
        i
        for i, e in enumerate(item.log)
        if e["s"] >= 0 and e["t"] not in NOT_ACTIONS and "d" in e and not e.get("to") and "by" not in e
    ]


def _correct(
    rt: Runtime, item: BoardStateItem, action: dict[str, Any], by: str, rid: str, logged: int | None
) -> tuple[int, dict[str, Any]]:
    n, data = action.get("move"), action.get("data")
    if not isinstance(n, int) or data is None:
        raise Rejected(
            "correction_incomplete", "a correction names the move (1 first) and its corrected data"
        )
    if logged is not None:  # applied before: the audit entry was not written yet
        index = moves_of(item)[n - 1]
        entry = item.log[index]
        return logged, {"move": n, "seat": entry["s"], "before": entry["cx"]["was"], "after": entry["d"]}
    indices = moves_of(item)
    if not 1 <= n <= len(indices):
        raise Rejected("no_such_move", f"the board has {len(indices)} moves; there is no move {n}")
    before = item.log[indices[n - 1]]
    if before["d"] == data:
        raise Rejected("same_move", f"move {n} is already {data}")
    deal = DealItem.get(event_pk(item.event_id), deal_sk(item.round, item.group, item.board))
    version, at = item.version, now_ms()

    def change(current: BoardStateItem) -> None:
        _check_same(current, version)
        log = [dict(e) for e in current.log]
        log[indices[n - 1]] = {
            **before,
            "d": data,
            "cx": {"was": before["d"], "by": by, "rid": rid, "at": at},
        }
        try:
            tableboard.replay_corrected(current, log, list(deal.order))
        except DeckhandError as exc:  # Rejected too: the corrected line breaks a rule somewhere
            code = exc.code if isinstance(exc, Rejected) else "illegal_line"
            raise Rejected(
                "illegal_correction", f"the game does not replay with move {n} as {data}: {code}: {exc}"
            ) from None

    saved, _ = board_store.transact((item.event_id, item.round, item.table, item.board), change)
    board_progress.after_change(rt, saved)
    return at, {"move": n, "seat": before["s"], "before": before["d"], "after": data}
