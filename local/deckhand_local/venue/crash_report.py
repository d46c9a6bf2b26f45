"""What a crash soak reads from the database after (or instead of) a finished event: the results to
compare with a run without crashes, the decisions taken by timeouts, and where a stalled event is stuck."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deckhand.service.boards import store as board_store
from deckhand.service.boards.round_boards import boards_of_round
from deckhand.service.duplicate.rounds import get_progress, get_round
from deckhand.service.organiser.events import NotFound, get_event
from deckhand.service.refereeing.outage import KIND
from deckhand.service.storage.keys import AUDIT_PREFIX, event_pk
from deckhand.service.storage.models import AuditItem


def comparable(export: dict[str, Any]) -> dict[str, Any]:
    """The export without what the wall clock decides (play time, and the places and tie-breaks it
    can settle): every board's score per player, and every player's total (a match event: every
    board's finishing order and levels after it, and every pair's match and level points)."""
    results = export["results"]
    if "matches" in results:
        boards = sorted(
            (m["round"], m["table"] or "", b["board"], tuple(b.get("order", ())), str(b.get("levels_after")))
            for m in results["matches"]
            for b in m["boards"]
        )
        pairs = sorted((s["team"], s["mp"], s["lp"]) for s in results["standings"])
        return {"scores": boards, "totals": pairs}
    scores = sorted(
        (b["round"], str(b.get("group", "1")), b["board"], r["table"], r["seat"], r["player"], r["score"])
        for b in export["results"]["boards"]
        for r in b["results"]
    )
    totals = sorted((s["player"], s["total"]) for s in export["standings"]["standings"])
    return {"scores": scores, "totals": totals}


def differences(a: dict[str, Any], b: dict[str, Any]) -> int:
    """How many board scores and totals differ between two ``comparable`` documents."""
    count = 0
    for part in ("scores", "totals"):
        left, right = set(map(tuple, a.get(part, []))), set(map(tuple, b.get(part, [])))
        count += len(left ^ right)
    return count


@dataclass(frozen=True)
class Comparison:
    """Two runs of one duplicate event compared table by table. A later round is seated from the
    standings, whose ties play time decides (wall-clock time: two runs without any crash differ in
    it), so its tables may be seated otherwise; the devices' bots play from their cards alone, so each
    table's scores are still compared seat by seat, whoever sits there, and the players' totals only
    when every table was seated alike."""

    differ: int  # seat scores (and seatings from the seed or from results that differed, totals) differing
    reseated: dict[int, tuple[int, int]] = field(
        default_factory=dict
    )  # round: (tables seated otherwise, tables)

    @property
    def equal(self) -> bool:
        return self.differ == 0


def compare(a: dict[str, Any], b: dict[str, Any]) -> Comparison:
    """``a`` and ``b`` (``comparable`` documents) table by table; a match event's, as a whole."""
    if not a.get("scores") or len(a["scores"][0]) != 7:  # a match event: pairs stay together
        return Comparison(differences(a, b))
    left, right = _tables(a["scores"]), _tables(b["scores"])
    none = ((), ())
    differ, reseated = 0, {}
    for number, round_no in enumerate(sorted({key[0] for key in left | right})):
        keys = {k for k in left | right if k[0] == round_no}
        otherwise = {k[:3] for k in keys if left.get(k, none)[0] != right.get(k, none)[0]}
        if otherwise and (number == 0 or differ):  # seated from its seed, or from results that differed
            differ += len(otherwise)
        elif otherwise:
            reseated[round_no] = (len(otherwise), len({k[:3] for k in keys}))
        differ += sum(left.get(k, none)[1] != right.get(k, none)[1] for k in keys)
    if not reseated:
        differ += differences({"totals": a["totals"]}, {"totals": b["totals"]})
    return Comparison(differ, reseated)


def _tables(scores: list[Any]) -> dict[tuple[Any, ...], tuple[tuple[Any, ...], tuple[Any, ...]]]:
    """Each (round, group, table, board): its seats' players and their scores, in seat order."""
    seats: dict[tuple[Any, ...], list[tuple[Any, Any, Any]]] = {}
    for round_no, group, board, table, seat, player, score in scores:
        seats.setdefault((round_no, group, table, board), []).append((seat, player, score))
    return {
        key: (tuple(p for _, p, _ in sorted(rows)), tuple(s for _, _, s in sorted(rows)))
        for key, rows in seats.items()
    }


def timed_out(event_id: str) -> list[int]:
    """When each decision the timers took (the log's timeout entries) ran out (ms), over the whole
    event."""
    event = get_event(event_id)
    found: list[int] = []
    for number in range(1, event.current_round + 1):
        r = get_round(event_id, number)
        items = board_store.load_many(event_id, number, boards_of_round(event_id, number, r))
        found += [int(entry["at"]) for item in items.values() for entry in item.log if entry.get("to")]
    return sorted(found)


def after_restarts(times: list[int], restarts: list[int]) -> list[float]:
    """For each of ``times`` (ms), the seconds since the venue last came back before it (none before
    any restart: left out)."""
    since: list[float] = []
    for at in times:
        back = [r for r in restarts if r <= at]
        if back:
            since.append((at - max(back)) / 1000)
    return since


def clocks_stopped(event_id: str) -> list[int]:
    """The outages the restarted venue stopped the clocks for (ms each), from the event's audit."""
    entries = AuditItem.query(event_pk(event_id), AuditItem.sk.startswith(AUDIT_PREFIX))
    return [int(a.detail["ms"]) for a in entries if a.kind == KIND]


def stall_report(event_id: str, round_no: int) -> str:
    """The event, the round and every board that has not ended, with the state each is left in."""
    event = get_event(event_id)
    lines = [f"event {event_id}: status {event.status}, current round {event.current_round}"]
    if round_no < 1:
        return lines[0]
    try:
        r = get_round(event_id, round_no)
    except NotFound:
        return "\n".join([*lines, f"round {round_no}: not stored (its deal never ran)"])
    done, total = get_progress(event_id, round_no)
    lines.append(f"round {round_no}: status {r.status}, boards done {done}/{total}")
    pairs = boards_of_round(event_id, round_no, r)
    items = board_store.load_many(event_id, round_no, pairs)
    for table, board in pairs:
        item = items.get((table, board))
        if item is None:
            lines.append(f"  table {table} board {board}: missing")
        elif item.status != "ended":
            _, engine = board_store.engine_of(item) if item.state else (None, None)
            pending = engine.pending() if engine is not None else []
            lines.append(
                f"  table {table} board {board}: {item.status}, version {item.version}, "
                f"{len(item.log)} log entries, seats to act {pending}, deadline {item.deadline or '-'}"
                + (f", stopped: {item.stop_reason}" if item.stop_reason else "")
            )
    return "\n".join(lines)
