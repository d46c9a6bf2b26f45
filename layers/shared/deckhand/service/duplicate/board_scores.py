"""A board's matchpoints, computed once its last table has finished it, and the round's standings from them.

The board's tables are the round's seating for its group, so its results are read by key (no scan, no
query of the round), compared, and written once (``MatchpointsItem``) under a condition on ``rev``: a
retried or raced scoring writes nothing more, and a referee's adjustment (a newer ``rev``) writes it
again. The item keeps the board's results too (in the competition core's form): the tie-break chain
needs the whole field's play times and table sums, so the round's end ranks the field from these items
alone — the standings are the same as from every result of the event (``scoring.compute_standings``).
A board with an artificial score is compared at the round's end, with its round (its scaling needs
the seat's mean over the round's other boards).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from pynamodb.exceptions import DoesNotExist, PutError

from ...competition.artificial import Artificial
from ...competition.standings import BoardResults, Comparison, Outcome, Result, compare_boards
from ..boards.round_progress import BoardKey
from ..storage.keys import board_progress_sk, event_pk, matchpoints_sk, progress_sk, result_sk
from ..storage.models import BoardProgressItem, MatchpointsItem, ProgressItem, ResultItem
from ..storage.parts import joined_document, save_parts, split_document
from ..storage.seating import round_seating, seating_head

AI_PLAYER = "AI"


def board_results(results: Sequence[ResultItem]) -> list[BoardResults]:
    """Results in the competition core's form; adjusted scores (referee) replace the played ones, and
    an artificial score takes the table out of the board's comparison."""
    grouped: dict[tuple[int, str, str], list[Result]] = {}
    for r in results:
        adjusted = r.adjusted or {}
        scores = adjusted.get("scores") or r.scores
        kinds = adjusted.get("artificial") or [None] * len(r.players)
        for seat, player in enumerate(r.players):
            grouped.setdefault((int(r.round), r.board, r.group), []).append(
                Result(
                    player or f"{AI_PLAYER}:{r.table}:{seat}",
                    r.table,
                    seat,
                    scores[seat],
                    r.play_time[seat],
                    ai=not player,
                    artificial=Artificial(kinds[seat]) if kinds[seat] and player else None,
                )
            )
    return [BoardResults(b, rnd, g, tuple(rs)) for (rnd, b, g), rs in sorted(grouped.items())]


def score_board(event_id: str, round_no: int, key: BoardKey, rev: int, ranking: str) -> bool:
    """Compare ``key``'s results and write its matchpoints, unless they are stored at ``rev`` or later.
    True if written now. Reads: the stored matchpoints' ``rev``, the group's tables (the round's
    seating), and the board's results by key (``BatchGetItem``, 100 a call)."""
    head_sk = matchpoints_sk(round_no, key.group, key.board)
    try:
        stored = MatchpointsItem.get(
            event_pk(event_id), head_sk, consistent_read=True, attributes_to_get=["rev"]
        )
        if (stored.rev or 0) >= rev:
            return False  # a retry, or a scoring that raced this one
    except DoesNotExist:
        pass
    results = _results(event_id, round_no, key)
    if results is None:
        return False  # not every table's result is there: not complete (a stale count cannot say so)
    [board] = board_results(results)
    split = split_document(_encoded(board, ranking))
    save_parts(event_id, head_sk, split)
    item = MatchpointsItem(
        event_pk(event_id),
        head_sk,
        document=split.document,
        parts=len(split.parts) or None,
        digest=split.digest,
        rev=rev,
    )
    try:
        item.save(condition=MatchpointsItem.sk.does_not_exist() | (MatchpointsItem.rev < rev))
    except PutError as exc:
        if getattr(exc, "cause_response_code", "") != "ConditionalCheckFailedException":
            raise
        return False
    return True


def _results(event_id: str, round_no: int, key: BoardKey) -> list[ResultItem] | None:
    """Every table's result of the board in its group, in sort-key order (as a query returns them)."""
    seating = round_seating(seating_head(event_id, round_no))
    tables = [str(row["table"]) for row in seating if str(row["group"]) == key.group]
    keys = [(event_pk(event_id), result_sk(round_no, t, key.board)) for t in tables]
    got = sorted(ResultItem.batch_get(keys, consistent_read=True), key=lambda r: r.sk)
    return got if len(got) == len(keys) else None


def _encoded(board: BoardResults, ranking: str) -> dict[str, Any]:
    """The board's results (columns) and, unless it has an artificial score, each seat's comparison
    (the results it ranks, by index, with their matchpoints, MP%, places and rank points)."""
    rs = board.results
    held = any(r.artificial for r in rs)
    doc: dict[str, Any] = {
        "ranking": ranking,
        "player": [r.player for r in rs],
        "table": [r.table for r in rs],
        "seat": [r.seat for r in rs],
        "score": [r.score for r in rs],
        "time": [r.play_time for r in rs],
        "ai": [i for i, r in enumerate(rs) if r.ai],
        "artificial": [[i, r.artificial.value] for i, r in enumerate(rs) if r.artificial],
        "held": held,
    }
    if not held:
        index = {r.player: i for i, r in enumerate(rs)}
        doc["compared"] = [
            [
                c.seat,
                [index[o.player] for o in c.outcomes],
                [o.mp for o in c.outcomes],
                [o.mp_pct for o in c.outcomes],
                [o.place for o in c.outcomes],
                [o.rank_points_cents for o in c.outcomes],
            ]
            for c in compare_boards([board], ranking)
        ]
    return doc


class Scored(NamedTuple):
    """A board as its matchpoints item gives it back: its results, and its comparisons (None: to compare
    at the round's end — an artificial score, or another ranking than the event's now)."""

    board: BoardResults
    compared: list[Comparison] | None


def _decoded(doc: dict[str, Any], round_no: int, key: BoardKey, ranking: str) -> Scored:
    ai = set(doc["ai"])
    kinds = {i: Artificial(kind) for i, kind in doc["artificial"]}
    results = tuple(
        Result(player, table, seat, score, time, i in ai, kinds.get(i))
        for i, (player, table, seat, score, time) in enumerate(
            zip(doc["player"], doc["table"], doc["seat"], doc["score"], doc["time"], strict=True)
        )
    )
    board = BoardResults(key.board, round_no, key.group, results)
    if doc["held"] or doc["ranking"] != ranking:
        return Scored(board, None)
    players = doc["player"]
    compared = [
        Comparison(
            key.board,
            round_no,
            key.group,
            seat,
            tuple(
                Outcome(players[i], mp, pct, place, points, None)
                for i, mp, pct, place, points in zip(order, mps, pcts, places, points_cents, strict=True)
            ),
        )
        for seat, order, mps, pcts, places, points_cents in doc["compared"]
    ]
    return Scored(board, compared)


class Compared(NamedTuple):
    boards: list[BoardResults]
    comparisons: list[Comparison]


def compared_rounds(event_id: str, upto_round: int, ranking: str) -> Compared | None:
    """Every board of rounds 1..``upto_round`` with its comparisons, from the boards' matchpoints items
    (read by key: the rounds' counters name their boards), in the order a comparison of every result
    gives them. None when a round has none (stored before they were kept) or one is missing or older
    than a referee's adjustment of its board: the caller computes from every result instead."""
    pk = event_pk(event_id)
    counters = {
        c.sk: c
        for c in ProgressItem.batch_get(
            [(pk, progress_sk(n)) for n in range(1, upto_round + 1)],
            consistent_read=True,
            attributes_to_get=["pk", "sk", "board_shards", "boards_scored"],
        )
    }
    keys: list[tuple[int, BoardKey]] = []
    for n in range(1, upto_round + 1):
        counter = counters.get(progress_sk(n))
        if counter is None or not counter.board_shards:
            return None
        round_keys = [
            BoardKey(g, b) for g in counter.board_shards["groups"] for b in counter.board_shards["boards"]
        ]
        if not {k.code() for k in round_keys} <= set(counter.boards_scored or ()):
            return None
        keys += [(n, k) for k in round_keys]
    heads = {
        h.sk: h
        for h in MatchpointsItem.batch_get(
            [(pk, matchpoints_sk(n, k.group, k.board)) for n, k in keys], consistent_read=True
        )
    }
    revs = {
        d.sk: d.rev or 0
        for d in BoardProgressItem.batch_get(
            [(pk, board_progress_sk(n, k.group, k.board)) for n, k in keys],
            consistent_read=True,
            attributes_to_get=["pk", "sk", "rev"],
        )
    }
    scored: dict[tuple[int, str, str], Scored] = {}
    for n, k in keys:
        head = heads.get(matchpoints_sk(n, k.group, k.board))
        if head is None or (head.rev or 0) < revs.get(board_progress_sk(n, k.group, k.board), 0):
            return None
        doc = joined_document(event_id, head.sk, head.document, head.parts, head.digest)
        scored[(n, k.board, k.group)] = _decoded(doc, n, k, ranking)
    ordered = [scored[key] for key in sorted(scored)]
    comparisons: list[Comparison] = []
    for n in range(1, upto_round + 1):
        of_round = [s for s in ordered if s.board.round == n]
        if any(s.compared is None for s in of_round):
            comparisons += compare_boards([s.board for s in of_round], ranking)
        else:
            comparisons += [c for s in of_round for c in s.compared or ()]
    return Compared([s.board for s in ordered], comparisons)
