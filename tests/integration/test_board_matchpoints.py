"""Duplicate scoring without scans (service/duplicate/board_scores.py): a board is matchpointed once its
last table has finished it, found from its own count (no query of the round), written once however its
scorings race or are retried, and the round's standings from those boards are exactly the standings
computed from every result of the event (ties, AI seats, artificial scores, referee adjustments)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import botocore.client
import pytest
from backend import setup_moto_env
from deckhand.competition.artificial import Artificial
from deckhand.competition.matchpoints import COMPETITION, DENSE
from deckhand.engines.registry import DUPLICATE_RULESETS, game
from deckhand.service.boards import round_progress
from deckhand.service.boards.round_items import store_round
from deckhand.service.boards.round_progress import BoardKey
from deckhand.service.duplicate import board_scores, rounds, scoring
from deckhand.service.duplicate.standings_store import load_standings
from deckhand.service.organiser.events import get_event
from deckhand.service.storage import parts
from deckhand.service.storage.keys import META, event_pk, matchpoints_sk, player_sk, result_sk, round_sk
from deckhand.service.storage.models import (
    BoardStateItem,
    EventItem,
    MatchpointsItem,
    PlayerItem,
    ResultItem,
    RoundItem,
)
from deckhand.service.storage.seating import round_seating

setup_moto_env()


@contextmanager
def calls_made() -> Iterator[list[tuple[str, dict[str, Any], bool]]]:
    """Every DynamoDB call (operation, parameters, whether it succeeded), as bench/scale_bench.py counts them."""
    made: list[tuple[str, dict[str, Any], bool]] = []
    original = botocore.client.BaseClient._make_api_call

    def wrapped(client: Any, operation: str, params: dict[str, Any]) -> Any:
        try:
            out = original(client, operation, params)
        except Exception:
            made.append((operation, params, False))
            raise
        made.append((operation, params, True))
        return out

    botocore.client.BaseClient._make_api_call = wrapped  # type: ignore[method-assign]
    try:
        yield made
    finally:
        botocore.client.BaseClient._make_api_call = original  # type: ignore[method-assign]


# --- A synthetic event: random scores (many ties), AI seats, artificial scores, adjustments ---------


class Synthetic:
    """A duplicate event scored through ``record_result`` with boards made up here (the board item and
    its result stand in for play): every table's boards finished in a random order."""

    def __init__(self, backend: Any, monkeypatch: Any, event_id: str, ruleset: str, rng: random.Random):
        self.b, self.event_id, self.ruleset, self.rng = backend, event_id, ruleset, rng
        self.seats = game(ruleset).seats
        self.boards: dict[tuple[int, str, str], BoardStateItem] = {}
        self.scores: dict[tuple[int, str, str], list[int]] = {}
        monkeypatch.setattr(scoring.board_store, "load", lambda e, r, t, b: self.boards.get((r, t, b)))
        monkeypatch.setattr(
            scoring.board_store,
            "result_of",
            lambda item: {"scores": self.scores[(item.round, item.table, item.board)]},
        )
        self.players = [f"p{i:02d}" for i in range(rng.randint(2, 4) * self.seats)]
        EventItem(
            event_pk(event_id),
            META,
            name="synthetic",
            ruleset=ruleset,
            grade="unrated",
            format="pvp",
            rounds=2,
            boards_per_round=2,
            groups=2,
            seed="s",
            ranking=rng.choice([COMPETITION, DENSE]),
            status="playing",
            current_round=0,
            created_at=0,
        ).save()
        for n, p in enumerate(self.players, start=1):
            PlayerItem(event_pk(event_id), player_sk(p), name=f"name {p}", number=n).save()

    def start(self, round_no: int) -> RoundItem:
        event = get_event(self.event_id)
        event.current_round, event.status = round_no, "playing"
        event.save()
        order = self.rng.sample(self.players, len(self.players))
        groups = 2 if len(order) >= 4 * self.seats else 1
        rows = []
        for t in range(len(order) // self.seats):
            seats: list[str | None] = list(order[t * self.seats : (t + 1) * self.seats])
            if self.rng.random() < 0.2:
                seats[self.rng.randrange(self.seats)] = None  # a withdrawn player's seat: played by AI
            rows.append({"group": 1 + t % groups, "table": f"{round_no}-{t + 1}", "seats": seats})
        r = RoundItem(
            event_pk(self.event_id),
            round_sk(round_no),
            status="playing",
            seating=rows,
            boards=["1", "2"],
            commitment="c",
            salt="s",
            boards_total=2 * len(rows),
            started_at=0,
        )
        return store_round(self.event_id, round_no, r)

    def play(self, r: RoundItem, round_no: int, artificial: bool) -> list[tuple[int, str, str]]:
        """Every table's boards ended (the scores made up, many equal), in a random order: the scorings
        due, (round, table, board). With ``artificial``: some results written with an artificial score
        first (one per board and group at most), as a referee's ended-unplayed board is."""
        order = [(row, b) for row in round_seating(r) for b in r.boards]
        self.rng.shuffle(order)
        given: set[tuple[str, str]] = set()
        for row, b in order:
            players = [p or "" for p in row["seats"]]
            self.scores[(round_no, row["table"], b)] = [self.rng.randint(-2, 2) for _ in players]
            self.boards[(round_no, row["table"], b)] = BoardStateItem(
                event_id=self.event_id,
                round=round_no,
                group=str(row["group"]),
                table=row["table"],
                board=b,
                players=players,
                play_ms=[self.rng.choice([1000, 2500, 4000]) for _ in players],
                status="ended",
                log=[],
            )
            if artificial and (str(row["group"]), b) not in given and self.rng.random() < 0.3:
                given.add((str(row["group"]), b))
                self._artificial(round_no, row["table"], b, players)
        return [(round_no, row["table"], b) for row, b in order]

    def score(self, due: tuple[int, str, str]) -> None:
        scoring.record_result(self.b.rt, self.event_id, *due)

    def _artificial(self, round_no: int, table: str, board: str, players: list[str]) -> None:
        """The table's result written with an artificial score (as a referee's ended-unplayed board is)."""
        kinds = [self.rng.choice(list(Artificial)).value if p else None for p in players]
        item = self.boards[(round_no, table, board)]
        scoring.store_result(
            item, {"artificial": kinds, "reason": "r", "by": "ref", "was": [0] * len(players)}
        )

    def adjust(self, round_no: int) -> None:
        """A referee's adjustment of one result of the round (its scores permuted: the same sum)."""
        r = RoundItem.get(event_pk(self.event_id), round_sk(round_no))
        row = self.rng.choice(r.seating)
        board = self.rng.choice(r.boards)
        try:
            result = ResultItem.get(event_pk(self.event_id), result_sk(round_no, row["table"], board))
        except ResultItem.DoesNotExist:
            return  # not finished yet
        played = list(result.scores)
        result.adjusted = {
            "scores": self.rng.sample(played, len(played)),
            "reason": "r",
            "by": "ref",
            "was": played,
        }
        result.save()
        scoring.recompute_latest_standings(self.event_id, adjusted=(round_no, result.group, result.board))


def _same_as_full_recompute(event_id: str, round_no: int) -> dict[str, Any]:
    event = get_event(event_id)
    full = scoring.compute_standings(event, round_no)
    assert board_scores.compared_rounds(event_id, round_no, event.ranking) is not None  # not the fallback
    assert scoring.round_standings(event, round_no) == full
    return full


@pytest.mark.parametrize("ruleset", DUPLICATE_RULESETS)
def test_standings_from_the_boards_matchpoints_are_those_from_every_result(backend, monkeypatch, ruleset):
    event_id = "syn"
    event = Synthetic(backend, monkeypatch, event_id, ruleset, random.Random(ruleset))
    for n in (1, 2):
        r = event.start(n)
        due = event.play(r, n, artificial=n == 2)
        for step, payload in enumerate(due):
            event.score(payload)
            if n == 2 and step in (0, len(due) - 2):
                event.adjust(n)  # a board not yet complete, then (likely) one matchpointed already
        assert RoundItem.get(event_pk(event_id), round_sk(n)).status == "done"
        assert load_standings(event_id, n) == scoring.compute_standings(get_event(event_id), n)
        _same_as_full_recompute(event_id, n)
    event.adjust(1)  # a past round's board: its matchpoints written again
    full = _same_as_full_recompute(event_id, 2)
    assert load_standings(event_id, 2) == full
    assert any(s["tie_break"] for s in full["standings"])  # equal totals: the tie-break chain decided
    assert any("artificial" in o for b in full["boards"] for o in b["results"])


def test_matchpoints_from_before_an_adjustment_cannot_overwrite_those_after_it(backend, monkeypatch):
    event = Synthetic(backend, monkeypatch, "stale", DUPLICATE_RULESETS[0], random.Random("stale"))
    r = event.start(1)
    for payload in event.play(r, 1, artificial=False):
        event.score(payload)
    key = BoardKey(str(r.seating[0]["group"]), "1")
    sk = matchpoints_sk(1, key.group, key.board)
    result = ResultItem.get(event_pk("stale"), result_sk(1, r.seating[0]["table"], "1"))
    before = MatchpointsItem.get(event_pk("stale"), sk).document
    result.adjusted = {
        "scores": [s + 1 for s in result.scores],
        "reason": "r",
        "by": "ref",
        "was": result.scores,
    }
    result.save()
    scoring.recompute_latest_standings("stale", adjusted=(1, key.group, "1"))
    after = MatchpointsItem.get(event_pk("stale"), sk)
    assert after.rev == 1 and after.document != before
    # A scoring that read the results before the adjustment (rev 0), writing late: refused.
    assert not board_scores.score_board("stale", 1, key, 0, COMPETITION)
    assert MatchpointsItem.get(event_pk("stale"), sk).document == after.document
    _same_as_full_recompute("stale", 1)


# --- Retried and raced scorings; what a scoring reads -----------------------------------------------


def matchpoints_written(made: list[tuple[str, dict[str, Any], bool]]) -> Counter[str]:
    return Counter(
        p["Item"]["sk"]["S"]
        for op, p, ok in made
        if ok and op == "PutItem" and p["Item"]["sk"]["S"].startswith("MATCHPOINTS#")
    )


def one_round(backend: Any, monkeypatch: Any, seed: str) -> tuple[Synthetic, list[tuple[int, str, str]]]:
    event = Synthetic(backend, monkeypatch, "cup", DUPLICATE_RULESETS[0], random.Random(seed))
    return event, event.play(event.start(1), 1, artificial=False)


@pytest.mark.parametrize("redrives", [3])
def test_a_boards_matchpoints_are_written_once_however_its_scorings_are_re_driven(
    backend, monkeypatch, redrives
):
    # Parts, as a national field's board needs (10,000 results pass the 400 KB item limit), at this size
    # (the round's seating too: its tables are read from its parts).
    monkeypatch.setattr(parts, "WHOLE_BYTES", 400)
    monkeypatch.setattr(parts, "PART_CHARS", 300)
    event, due = one_round(backend, monkeypatch, f"redrive{redrives}")
    order = [payload for payload in due for _ in range(redrives)]
    random.Random(redrives).shuffle(order)
    with calls_made() as made:
        for payload in order:
            event.score(payload)
    layout = round_progress.counter_layout("cup", 1)
    assert layout is not None
    keys = round_progress.board_keys(layout.board_shards)
    assert matchpoints_written(made) == {matchpoints_sk(1, k.group, k.board): 1 for k in keys}
    assert all((MatchpointsItem.get(event_pk("cup"), sk).parts or 0) > 1 for sk in matchpoints_written(made))
    assert rounds.round_status("cup", 1)["status"] == "done"
    assert load_standings("cup", 1) == scoring.compute_standings(get_event("cup"), 1)


def test_racing_scorings_that_both_find_a_board_complete_write_it_once(backend, monkeypatch):
    """Scorings all past the "already written?" read at once (as a board's last tables can be on AWS):
    each computes, the conditional write lets the first through and no other."""
    event, due = one_round(backend, monkeypatch, "race")
    for payload in due:
        event.score(payload)
    first = {
        h.sk: h.document
        for h in MatchpointsItem.query(event_pk("cup"), MatchpointsItem.sk.startswith("MATCHPOINTS#"))
    }

    def never_found(*_a: Any, **_k: Any) -> Any:
        raise MatchpointsItem.DoesNotExist()

    monkeypatch.setattr(board_scores.MatchpointsItem, "get", never_found)
    with calls_made() as made:
        for payload in due:
            event.score(payload)
    tried = [p for op, p, _ in made if op == "PutItem" and p["Item"]["sk"]["S"].startswith("MATCHPOINTS#")]
    assert len(tried) >= len(first) > 0 and not matchpoints_written(made)  # every late write refused
    monkeypatch.undo()
    again = {
        h.sk: h.document
        for h in MatchpointsItem.query(event_pk("cup"), MatchpointsItem.sk.startswith("MATCHPOINTS#"))
    }
    assert again == first


def test_a_board_is_found_complete_without_a_query_or_scan_of_the_round(backend, monkeypatch):
    event, due = one_round(backend, monkeypatch, "calls")
    *first, last = due
    with calls_made() as made:
        for payload in first:
            event.score(payload)
    ops = Counter(op for op, _, _ in made)
    assert not ops["Query"] and not ops["Scan"], ops  # each scoring: reads and writes by key only
    assert ops["BatchGetItem"] >= 1  # the boards complete so far: their results read by key
    with calls_made() as made:
        event.score(last)
    assert rounds.round_status("cup", 1)["status"] == "done"
    assert not any(op == "Scan" for op, _, _ in made)
    queried = [
        value["S"]
        for op, p, _ in made
        if op == "Query"
        for value in p.get("ExpressionAttributeValues", {}).values()
        if "S" in value
    ]
    # The round's end: the players' names (a query of the registrations), nothing of the results or counts.
    assert queried and {v for v in queried if not v.startswith("EVENT#")} == {"PLAYER#"}, queried
    assert load_standings("cup", 1) == scoring.compute_standings(get_event("cup"), 1)
