"""Board results in, round standings out (the competition core does the arithmetic).

Recording a result is idempotent: the result item is written only if absent, in one transaction
with the round's counter, so a retried invocation neither counts twice nor loses the result. In a
duplicate round the count is the board's: the scoring that completes a board matchpoints it
(board_scores.py), and the one that completes the round ranks the field from those boards.
"""

from __future__ import annotations

import contextlib
from typing import Any

from pynamodb.exceptions import DoesNotExist, TransactWriteError

from ...competition.documents import results_document, standings_document
from ...competition.standings import Comparison, Standing, ranked, standings
from ..boards import round_progress
from ..boards import store as board_store
from ..boards.log import ended_unplayed
from ..boards.records import add_duplicate_records
from ..boards.round_items import revealed_rounds
from ..boards.round_progress import BoardKey
from ..infra.clock import now_ms
from ..infra.messaging import event_topic
from ..infra.runtime import Runtime
from ..organiser.disclosure import deals_from
from ..organiser.events import Conflict, get_event, list_players
from ..storage.keys import (
    ACTIVE,
    active_sk,
    event_of,
    event_pk,
    player_of,
    result_prefix,
    result_sk,
    round_sk,
)
from ..storage.models import (
    ActiveItem,
    BoardStateItem,
    EventItem,
    ProgressItem,
    ResultItem,
    RoundItem,
    transaction,
)
from . import board_scores
from .board_scores import board_results
from .standings_store import save_standings


def record_result(rt: Runtime, event_id: str, round_no: int, table: str, board: str) -> bool:
    """Store one table's result of an ended board; True if this call recorded it."""
    item = board_store.load(event_id, round_no, table, board)
    if item is None or item.status != "ended":
        return False
    top = round_progress.counter_layout(event_id, round_no)
    recorded = store_result(item, top=top)
    key = None if item.in_match else BoardKey(item.group, item.board)
    maybe_finish_round(rt, event_id, round_no, table, key, top)
    return recorded


def store_result(
    item: BoardStateItem, adjusted: dict[str, Any] | None = None, top: ProgressItem | None = None
) -> bool:
    """The result of an ended board, with the round's counter in one transaction: written once however
    often this runs. A board ended unplayed (service/refereeing/unplayed_boards.py) scores nothing, marked
    ``not_played``; ``adjusted``: the referee's adjustment it is written with; ``top``: the counter's
    layout, if read (round_progress.counter_layout). True if written now."""
    event_id, round_no, table, board = item.event_id, item.round, item.table, item.board
    if ended_unplayed(item):
        result: dict[str, Any] = {"scores": [0] * len(item.players), "not_played": True}
    else:
        result = board_store.result_of(item)
    result_item = ResultItem(
        event_pk(event_id),
        result_sk(round_no, table, board),
        round=round_no,
        group=item.group,
        table=table,
        board=board,
        players=item.players,
        scores=result["scores"],
        play_time=[ms / 1000 for ms in item.play_ms],
        detail=result,
        adjusted=adjusted,
    )
    try:
        with transaction() as tx:
            tx.save(result_item, condition=ResultItem.sk.does_not_exist())
            if not item.in_match:  # a match counts once, with the board that ended it (match_boards.py)
                round_progress.count(tx, event_id, round_no, table, BoardKey(item.group, board), top)
    except TransactWriteError:
        return False
    return True


def list_results(event_id: str, round_no: int | None = None) -> list[ResultItem]:
    prefix = result_prefix(round_no)
    return list(ResultItem.query(event_pk(event_id), ResultItem.sk.startswith(prefix), consistent_read=True))


def compute_standings(event: EventItem, upto_round: int) -> dict[str, Any]:
    """The standings after ``upto_round``; each player's registered ``name`` beside the id."""
    if event.match is not None:
        from ..matches.results import standings as match_standings

        return match_standings(event, upto_round)
    event_id = event_of(event.pk)
    boards = [b for b in board_results(list_results(event_id)) if b.round <= upto_round]
    return _document(event, *standings(boards, event.ruleset, event.ranking))


def round_standings(event: EventItem, round_no: int) -> dict[str, Any]:
    """The standings computed as round ``round_no`` ends: from its boards' matchpoints and those of the
    rounds before (board_scores.py, read by key) — the same document as :func:`compute_standings` —
    or, for rounds stored before boards were matchpointed apart (or a board's matchpoints older than a
    referee's adjustment of it), from every result."""
    if event.match is None:
        found = board_scores.compared_rounds(event_of(event.pk), round_no, event.ranking)
        if found is not None:
            return _document(event, *ranked(found.comparisons, found.boards, event.ruleset, event.ranking))
    return compute_standings(event, round_no)


def _document(event: EventItem, comparisons: list[Comparison], table: list[Standing]) -> dict[str, Any]:
    names = {p["id"]: p["name"] for p in registrations(event)}
    return standings_document(comparisons, table, names)


def registrations(event: EventItem) -> list[dict[str, Any]]:
    """Who entered, in registration order: a player's id, name, registration number and region (when
    registered); a match event's pairs with their two players (``pairs``: the export names them
    ``pairs``)."""
    event_id = event_of(event.pk)
    if event.match is not None:
        from ..organiser.pairs import list_teams
        from ..storage.keys import team_of

        return [
            _with_region(
                {"id": team_of(t.sk), "name": t.name, "number": t.number, "players": t.players}, t.region
            )
            for t in list_teams(event_id)
        ]
    return [
        _with_region({"id": player_of(p.sk), "name": p.name, "number": p.number}, p.region)
        for p in list_players(event_id)
    ]


def _with_region(entry: dict[str, Any], region: str | None) -> dict[str, Any]:
    """An entrant's ``region`` when one was registered (an export without regions is as before)."""
    return {**entry, "region": region} if region else entry


def results_export(event: EventItem, upto_round: int | None = None) -> dict[str, Any]:
    """Board results as ``deckhand standings`` input — anyone can recompute the standings from it.

    ``upto_round``: only rounds up to it (the API passes the last round it may show). A referee's
    adjustment is shown on its row: the score counted, ``adjusted_from`` the score played and the
    reason (an artificial score: ``artificial`` the kind, ``score`` as played; a board the table could
    not play: ``not_played``); the document says whether the deals came from an organiser's seed.
    """
    if event.match is not None:
        from ..matches.results import results_document as match_document

        return match_document(event, event.current_round if upto_round is None else upto_round)
    event_id = event_of(event.pk)
    results = [r for r in list_results(event_id) if upto_round is None or r.round <= upto_round]
    doc = results_document(event.ruleset, board_results(results))
    adjusted = {(int(r.round), r.board, r.table): r.adjusted for r in results if r.adjusted}
    unplayed = {(int(r.round), r.board, r.table) for r in results if r.detail.get("not_played")}
    for b in doc["boards"]:
        for row in b["results"]:
            if (b["round"], b["board"], row["table"]) in unplayed:
                row["not_played"] = True
            adjustment = adjusted.get((b["round"], b["board"], row["table"]))
            if adjustment:
                row["adjusted_from"] = adjustment["was"][row["seat"]]
                row["adjustment_reason"] = adjustment["reason"]
                row["adjusted_by"] = adjustment.get("by")
    done = {
        r["round"] for r in revealed_rounds(event_id, max((b["round"] for b in doc["boards"]), default=0))
    }
    add_duplicate_records(event_id, event.ruleset, doc["boards"], done)
    doc["deals"] = deals_from(event)
    return doc


def maybe_finish_round(
    rt: Runtime,
    event_id: str,
    round_no: int,
    table: str | None = None,
    board: BoardKey | None = None,
    top: ProgressItem | None = None,
) -> None:
    """When every table has finished every board: standings, the salt revealed, the event moves on.

    The round is marked done and the event moved on in one transaction, so no crash leaves one
    without the other. ``round_end`` is published by every call that finds the round done: a retry of
    the step that finished it publishes it again (the same message) rather than skipping it.
    ``table``: the table whose board was just counted (only its shard of the count is read); ``board``:
    that board (a duplicate round's: matchpointed if this completes it); ``top``: the counter's layout.
    """
    top = top or round_progress.counter_layout(event_id, round_no)
    if top is not None and top.board_shards:
        if not _boards_scored(event_id, round_no, table, board, top):
            return  # the common case: one small read
    elif not round_progress.complete(event_id, round_no, table):
        return  # the common case: two small reads
    try:
        r = RoundItem.get(event_pk(event_id), round_sk(round_no), consistent_read=True)
    except DoesNotExist:
        return
    if r.status == "playing":
        event = get_event(event_id)
        doc = round_standings(event, round_no)
        save_standings(event_id, round_no, doc)
        _finish_round(event, r, round_no)
    event = get_event(event_id)
    if r.match and round_no < event.rounds and event.status != "finished":
        _pair_next(event_id, round_no + 1)
    rt.publisher.publish(
        event_topic(event_id), {"t": "round_end", "r": round_no, "commit": r.commitment, "salt": r.salt}
    )


def _boards_scored(
    event_id: str, round_no: int, table: str | None, board: BoardKey | None, top: ProgressItem
) -> bool:
    """A duplicate round: the board just counted matchpointed if that completed it; True when every
    board of the round is. Without a board (the timers' sweep, a referee's unplayed board): every
    complete board not yet matchpointed is, found from the round's board counts."""
    if table is not None and board is not None:
        state = round_progress.board_counted(event_id, round_no, table, board, top)
        return state.complete and _score_board(event_id, round_no, board, state.rev)
    if round_progress.complete(event_id, round_no):
        return True
    finished = False
    for key, state in round_progress.complete_boards(event_id, round_no).items():
        finished = _score_board(event_id, round_no, key, state.rev) or finished
    return finished


def _score_board(event_id: str, round_no: int, board: BoardKey, rev: int) -> bool:
    """Matchpoint a complete board (once: board_scores.score_board) and mark it scored in the round's
    counter (also when another scoring wrote it: that one may have stopped before marking it)."""
    board_scores.score_board(event_id, round_no, board, rev, get_event(event_id).ranking)
    return round_progress.board_scored(event_id, round_no, board)


def _pair_next(event_id: str, round_no: int) -> None:
    """A round of matches ended: the next round's pairing is computed and stored for the organiser to
    see before starting it (RULES.md §4.3). One that cannot be paired is told when they try."""
    from ..matches.round_of_matches import save_computed_pairing

    # Any reason it cannot be paired (no rematch-free pairing, a field too small for the knockout or
    # the cut) is the organiser's to see when they start it: the round that ended stays ended.
    with contextlib.suppress(Conflict):
        save_computed_pairing(get_event(event_id), round_no)


def _format_over(event: EventItem, round_no: int) -> bool:
    """A match event's format has nothing left after this round (a reset final not needed)."""
    from ..matches.round_of_matches import format_over

    return format_over(event, round_no)


def _finish_round(event: EventItem, r: RoundItem, round_no: int) -> None:
    """Round done, out of the timers' sweep, event moved on: all or nothing. Lost to another
    invocation that finished it: fine; any other failure is raised, for the retry to redo it."""
    finished = round_no >= event.rounds or (r.match and _format_over(event, round_no))
    try:
        with transaction() as tx:
            tx.update(
                r,
                actions=[RoundItem.status.set("done"), RoundItem.ended_at.set(now_ms())],
                condition=RoundItem.status == "playing",
            )
            tx.delete(ActiveItem(ACTIVE, active_sk(event_of(event.pk), round_no)))
            tx.update(
                event,
                actions=[EventItem.status.set("finished" if finished else "between_rounds")],
                condition=EventItem.current_round == round_no,
            )
    except TransactWriteError:
        r.refresh(consistent_read=True)
        if r.status != "done":
            raise


def recompute_latest_standings(event_id: str, adjusted: tuple[int, str, str] | None = None) -> None:
    """After a referee adjustment: the stored standings of every finished round are recomputed.
    ``adjusted``: the (round, group, board) whose result changed — its matchpoints are computed again
    (under a newer ``rev``: none computed from the results as they were can overwrite them)."""
    if adjusted is not None:
        _rescore(event_id, *adjusted)
    event = get_event(event_id)
    for n in range(1, event.current_round + 1):
        try:
            r = RoundItem.get(event_pk(event_id), round_sk(n))
        except DoesNotExist:
            continue
        if r.status == "done":
            save_standings(event_id, n, compute_standings(event, n))


def _rescore(event_id: str, round_no: int, group: str, board: str) -> None:
    top = round_progress.counter_layout(event_id, round_no)
    if top is None or not top.board_shards:
        return  # a round of matches, or stored before boards were matchpointed apart
    key = BoardKey(group, board)
    state = round_progress.board_adjusted(event_id, round_no, key, top)
    if state.complete:  # else its last table's scoring matchpoints it, from the adjusted result
        board_scores.score_board(event_id, round_no, key, state.rev, get_event(event_id).ranking)
