"""Clocks stopped for an outage of the system (a venue's laptop that lost power): what a referee
grants after a power cut. Every running clock of every board in play (its seats' decisions, a paced
deal's next card, its match's clock) is moved on by the outage, so nobody's time ran out while nobody
could act.

An outage is known by when it began (the last sign of life before it): a board or match keeps the
start of the last outage its clocks were moved for (``stopped_for``), so the same outage is never
granted twice, however often the shift is redone after a crash in the middle of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pynamodb.exceptions import DoesNotExist, PutError

from ..boards import store as board_store
from ..boards.log import CLOCKS_STOPPED
from ..boards.round_boards import boards_of_round, list_matches
from ..boards.store import Unchanged
from ..infra.clock import now_ms
from ..storage.keys import ACTIVE, audit_sk, event_pk, round_sk
from ..storage.models import ActiveItem, AuditItem, BoardStateItem, MatchItem, RoundItem

KIND = "clocks_stopped"  # the audit entry's kind
BY = "venue"
MAX_ATTEMPTS = 8  # a match changed by a board ending meanwhile: read again and redo


@dataclass(frozen=True)
class Outage:
    since: int  # ms: the last sign of life before the outage (what identifies it)
    until: int  # ms: when the clocks run again

    @property
    def ms(self) -> int:
        return max(0, self.until - self.since)


@dataclass
class Stopped:
    boards: int = 0  # boards in play whose clocks were moved on
    matches: int = 0  # matches whose clock was moved on
    events: int = 0  # events given an audit entry


def stop_clocks(outage: Outage) -> Stopped:
    """Move every running clock of every round in play on by the outage (each board and match once
    per outage), and note it in each event's audit."""
    done = Stopped()
    if outage.ms <= 0:
        return done
    events: set[str] = set()
    for active in ActiveItem.query(ACTIVE):
        try:
            r = RoundItem.get(event_pk(active.event_id), round_sk(active.round))
        except DoesNotExist:
            continue
        pairs = boards_of_round(active.event_id, active.round, r)
        items = board_store.load_many(
            active.event_id, active.round, pairs, attributes=["pk", "sk", "table", "board", "status"]
        )
        for item in items.values():
            if item.status == "playing":
                done.boards += _shift_board((active.event_id, active.round, item.table, item.board), outage)
        if r.match:
            done.matches += sum(_shift_match(m, outage) for m in list_matches(active.event_id, active.round))
        events.add(active.event_id)
    for event_id in sorted(events):
        _audit(event_id, outage)
        done.events += 1
    return done


def shift_board(item: BoardStateItem, outage: Outage) -> bool:
    """The board's running clocks moved on by the outage, in memory; False when it has none running
    or was already moved for this outage (or a later one)."""
    if item.status != "playing" or item.stopped_for >= outage.since:
        return False
    shift = outage.ms
    _, board = board_store.engine_of(item)
    for seat in board.pending():
        if item.asked_at[seat]:
            item.asked_at[seat] += shift
    item.asked_at = list(item.asked_at)  # reassigned: the attribute is saved as changed
    if item.deadline:
        item.deadline += shift
    if item.deal_from:
        item.deal_from += shift
    if item.clock_ends_at:
        item.clock_ends_at += shift
    item.stopped_for = outage.since
    # A decision already warned is timed from its warning: the log says by how much to move it on.
    item.log = [*item.log, {"s": -1, "t": CLOCKS_STOPPED, "ms": shift, "since": outage.since, "at": now_ms()}]
    return True


def _shift_board(key: tuple[str, int, str, str], outage: Outage) -> int:
    def change(item: BoardStateItem) -> bool | Unchanged[bool]:
        return True if shift_board(item, outage) else Unchanged(False)

    try:
        _, moved = board_store.transact(key, change)
    except DoesNotExist:
        return 0
    return int(moved)


def _shift_match(match: MatchItem, outage: Outage) -> int:
    """A match in play with a clock: its clock moved on (a conditional write, redone on a lost race)."""
    for _ in range(MAX_ATTEMPTS):
        if match.status != "playing" or not match.clock_ends_at or match.stopped_for >= outage.since:
            return 0
        match.clock_ends_at += outage.ms
        match.started_at += outage.ms
        match.stopped_for = outage.since
        try:
            match.save()
            return 1
        except PutError as exc:
            if getattr(exc, "cause_response_code", "") != "ConditionalCheckFailedException":
                raise
            match.refresh(consistent_read=True)
    raise board_store.LostRace(f"match {match.sk} kept changing; gave up after {MAX_ATTEMPTS} attempts")


def _audit(event_id: str, outage: Outage) -> None:
    """One entry per event and outage (keyed by the outage: redone, it is written again, the same)."""
    seconds = round(outage.ms / 1000)
    AuditItem(
        event_pk(event_id),
        audit_sk(outage.until, f"outage-{outage.since}"),
        kind=KIND,
        detail={
            "since": outage.since,
            "until": outage.until,
            "ms": outage.ms,
            "text": f"clocks stopped for {seconds} s after the venue restarted",
        },
        by=BY,
        at=outage.until,
    ).save()
