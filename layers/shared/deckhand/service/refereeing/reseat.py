"""A referee re-seats a player of a duplicate event's round in play (docs/cli.md, ``reseat``).

The player takes the named table and seat from each table's next board not yet begun, and whoever
sat there (a player, or the AI) takes the player's seat: a swap, so every seat stays filled. A
board in play or ended never changes hands. The handsets stay where they are — a handset acts
only for its own seat (service/device_io/pipeline.py) — so the player moves to the seat and plays on its
handset, which shows the player's name from that board on. Every check is made before one
all-or-nothing write of the boards changed, the round's seating (conditional on the version read; a
large seating's new parts written before it, under their own version) and the moved players'
placements.
"""

from __future__ import annotations

from typing import Any

from pynamodb.exceptions import TransactWriteError

from ...engines.contract import Rejected
from ...engines.registry import game
from ..boards.store import load_many
from ..duplicate.rounds import player_names
from ..organiser.events import event_id_of
from ..storage.keys import event_pk, round_sk
from ..storage.models import BoardStateItem, EventItem, RoundItem, transaction
from ..storage.seating import placements, round_seating, save_seating, seating_set, still_seated_as

MAX_WRITES = (
    100  # a DynamoDB transaction's items: the boards changed, the round, the moved players' placements
)
ATTEMPTS = 5  # a board that starts, or another re-seat, while this one is checked: check again
CANCELLED = ("TransactionCanceledException", "TransactionConflictException")


def reseat(event: EventItem, action: dict[str, Any]) -> dict[str, Any]:
    """Seat ``action["player"]`` at ``action["table"]``/``action["seat"]`` from the next board;
    the detail the audit log keeps: where from, whom it displaced, the boards changed."""
    if event.match is not None:
        raise Rejected("not_for_matches", "a match's pairs keep their seats: re-pair the next round instead")
    player, table, seat = action.get("player"), action.get("table"), action.get("seat")
    if not player or not table or seat is None:
        raise Rejected("reseat_incomplete", "a re-seat names the player, the table and the seat")
    round_no = action.get("round") or event.current_round
    if event.status != "playing" or round_no != event.current_round:
        raise Rejected("round_not_in_play", f"round {round_no} is not in play: only its seats can change")
    for _ in range(ATTEMPTS):
        try:
            return _attempt(event, round_no, player, table, int(seat))
        except TransactWriteError as exc:
            if getattr(exc, "cause_response_code", "") not in CANCELLED:
                raise
    raise Rejected("reseat_busy", "the tables kept changing while re-seating: try again")


def _attempt(event: EventItem, round_no: int, player: str, table: str, seat: int) -> dict[str, Any]:
    event_id = event_id_of(event)
    r = RoundItem.get(event_pk(event_id), round_sk(round_no), consistent_read=True)
    read = round_seating(r)
    seating = [dict(row, seats=list(row["seats"])) for row in read]
    source = next((row for row in seating if player in row["seats"]), None)
    if source is None:
        raise Rejected("unknown_player", f"player {player!r} is not seated in round {round_no}")
    target = next((row for row in seating if row["table"] == table), None)
    if target is None:
        raise Rejected("unknown_table", f"table {table!r} plays no board in round {round_no}")
    seats = game(event.ruleset).seats
    if not 0 <= seat < seats:
        raise Rejected("unknown_seat", f"seat {seat} does not exist: a table has seats 0–{seats - 1}")
    if target["group"] != source["group"]:
        raise Rejected(
            "other_group", f"table {table} plays group {target['group']}'s boards, not the player's"
        )
    from_seat = source["seats"].index(player)
    if (source["table"], from_seat) == (table, seat):
        raise Rejected("already_seated", f"player {player!r} already sits at table {table} seat {seat}")
    if event.venue and target.get("devices") and not target["devices"][seat]:
        raise Rejected("no_handset", f"table {table} seat {seat} has no handset to play on")
    displaced = target["seats"][seat] or None
    tables = {source["table"], table}
    items = load_many(event_id, round_no, [(t, b) for t in tables for b in r.boards], consistent=True)
    waiting = {
        t: [items[t, b] for b in r.boards if (t, b) in items and items[t, b].status == "waiting"]
        for t in tables
    }
    _check_waiting(waiting)
    for who, to in ((player, table), (displaced, source["table"])):
        if who:
            _check_twice(event_id, round_no, r, read, who, {b.board for b in waiting[to]}, to)
    changed = _changes(waiting, (source["table"], from_seat, player), (table, seat, displaced or ""))
    names = player_names(event_id, False)
    for b in changed:
        b.names = [names.get(p, p) if p else "" for p in b.players]
    moved: set[str] = {player, *([displaced] if displaced else [])}
    if len(changed) + 1 + len(moved) > MAX_WRITES:
        raise Rejected(
            "reseat_too_many_boards", f"{len(changed)} boards would change: re-seat after some are played"
        )
    source["seats"][from_seat], target["seats"][seat] = target["seats"][seat], player
    stored = save_seating(event_id, r.sk, seating)
    with transaction() as tx:
        for item in changed:
            tx.save(item, condition=BoardStateItem.status == "waiting")
        tx.update(
            r, actions=seating_set(stored), condition=(RoundItem.status == "playing") & still_seated_as(r)
        )
        for placement in placements(event_id, round_no, seating, stored.digest, only=moved):
            tx.save(placement)
    return {
        "round": round_no,
        "from": {"table": source["table"], "seat": from_seat},
        "displaced": displaced,
        "boards": sorted({f"{i.table}/{i.board}" for i in changed}),
    }


def _check_waiting(waiting: dict[str, list[BoardStateItem]]) -> None:
    """Each table has a board left to change, none of which is made from the one before it (a game
    whose boards carry the seats' standing from board to board)."""
    for t, boards in waiting.items():
        if not boards:
            raise Rejected("no_board_left", f"table {t} has no board left to begin: nothing to re-seat")
        if any(not b.state for b in boards):
            raise Rejected(
                "boards_carry",
                f"table {t}'s boards carry the seats from one board to the next: not mid-round",
            )


def _check_twice(
    event_id: str,
    round_no: int,
    r: RoundItem,
    seating: list[dict[str, Any]],
    who: str,
    boards: set[str],
    table: str,
) -> None:
    """Nobody plays a board twice: ``who`` has begun none of the ``boards`` it would get (tables at
    different boards, or an earlier re-seat) at any table of the round (``r``, seated as ``seating``)."""
    pairs = [(e["table"], b) for e in seating for b in r.boards if b in boards]
    seen = load_many(
        event_id, round_no, pairs, consistent=True, attributes=["table", "board", "status", "players"]
    )
    twice = sorted({i.board for i in seen.values() if i.status != "waiting" and who in i.players})
    if twice:
        raise Rejected(
            "board_twice",
            f"player {who!r} has already begun board(s) {', '.join(twice)}, which table {table} has still to play",
        )


def _changes(
    waiting: dict[str, list[BoardStateItem]], frm: tuple[str, int, str], to: tuple[str, int, str]
) -> list[BoardStateItem]:
    """The waiting boards with the two seats exchanged: the player (``frm``'s) comes to ``to``'s
    seat on that table's boards, the one displaced (or the AI, "") goes to ``frm``'s seat on the
    other's — each table keeps its own boards."""
    (from_table, from_seat, player), (to_table, to_seat, displaced) = frm, to
    for boards in waiting.values():
        for b in boards:
            b.players = list(b.players)
    for b in waiting[from_table]:
        b.players[from_seat] = displaced
    for b in waiting[to_table]:
        b.players[to_seat] = player
    return [b for boards in waiting.values() for b in boards]
