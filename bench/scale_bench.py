"""Scale: an online (non-venue) Big Two event through the Lambda handlers, on DynamoDB Local (on disk,
as the local venue keeps its data) or moto in-process: time per round for seating and dealing, for
scoring every table's boards, and for the standings; the DynamoDB calls, Lambda invocations and IoT
messages of each, and the writes per item (the hottest item's count: a national field's 2,500 tables
must not all write one item).

Run with ``make bench-platform`` (or ``python bench/scale_bench.py [--players 10000 --rounds 3]
[--database dynamodb-local moto]``).
The boards are played by the deterministic bot straight on the board items (one read and one write a
board), since playing is the play path's figure (playpath_bench), not this one's. Prints figures,
ending with one line a round: ``scale round R: seat+deal …, score …, standings …, total …, max item
writes N``.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import sys
import tempfile
import threading
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


WRITES = ("PutItem", "UpdateItem", "DeleteItem")
READS = ("GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems")


class StorageCalls:
    """Every DynamoDB call the handlers make, counted by wrapping botocore's one entry point (the bench's
    own instrument: production code is unchanged): calls by operation, and writes by item key."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.item_writes: Counter[tuple[str, str]] = Counter()
        self.lock = threading.Lock()  # the scoring step's invocations run from a pool of threads

    def clear(self) -> None:
        self.calls.clear()
        self.item_writes.clear()

    def seen(self, operation: str, params: dict[str, Any]) -> None:
        with self.lock:
            self._seen(operation, params)

    def _seen(self, operation: str, params: dict[str, Any]) -> None:
        self.calls[operation] += 1
        if operation in WRITES:
            self._write(params["Key"] if "Key" in params else params["Item"])
        elif operation == "TransactWriteItems":
            for action in params["TransactItems"]:
                ((kind, body),) = action.items()
                if kind != "ConditionCheck":
                    self._write(body["Key"] if "Key" in body else body["Item"])
        elif operation == "BatchWriteItem":
            for requests in params["RequestItems"].values():
                for r in requests:
                    body = r.get("PutRequest") or r.get("DeleteRequest")
                    self._write(body["Key"] if "Key" in body else body["Item"])

    def _write(self, key: dict[str, Any]) -> None:
        self.item_writes[(key["pk"]["S"], key["sk"]["S"])] += 1

    def hottest(self, n: int = 3) -> list[tuple[tuple[str, str], int]]:
        return self.item_writes.most_common(n)

    @contextlib.contextmanager
    def installed(self) -> Iterator[StorageCalls]:
        from botocore.client import BaseClient

        original = BaseClient._make_api_call

        def counted(client: Any, operation: str, params: dict[str, Any]) -> Any:
            if client.meta.service_model.service_name == "dynamodb":
                self.seen(operation, params)
            return original(client, operation, params)

        BaseClient._make_api_call = counted  # type: ignore[method-assign]
        try:
            yield self
        finally:
            BaseClient._make_api_call = original  # type: ignore[method-assign]


@contextlib.contextmanager
def database(kind: str) -> Iterator[str]:
    """The table, on a DynamoDB Local of its own (data on disk) or moto in-process; yields its label."""
    from backend import create_table
    from deckhand.service.organiser import events
    from deckhand.service.storage import models

    if kind == "moto":
        from moto import mock_aws

        with mock_aws():
            create_table()
            yield "moto in-process"
        return
    from deckhand_local.venue.demo_event import free_port
    from deckhand_local.venue.dynamodb_local import DynamoDBLocal

    with tempfile.TemporaryDirectory(prefix="deckhand-scale-") as folder:
        server = DynamoDBLocal(free_port(), Path(folder)).start()
        try:
            models.configure(table_name="deckhand-scale", host=server.endpoint, region="us-east-1")
            models.create_table()
            events._DEVICE_CACHE.clear()
            yield "DynamoDB Local, on disk"
        finally:
            server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument(
        "--pairs", type=int, default=0, help="a Swiss of matches of this many pairs instead of players"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--deal-only", action="store_true", help="round 1's seating or pairing and dealing only, then stop"
    )
    parser.add_argument("--boards", type=int, default=2, help="boards per round (per match with --pairs)")
    parser.add_argument(
        "--ruleset", default=None, help="--pairs: the match rule set (default: the registry's first)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=8,
        help="the tables' scoring invocations run from a pool of this many threads, as AWS runs each "
        "its own invocation in parallel (1: one after the other, the bench before this option)",
    )
    parser.add_argument(
        "--links",
        action="store_true",
        help="every player has a join link: the seating names each one's own device (an online field's)",
    )
    parser.add_argument(
        "--database", nargs="+", default=["dynamodb-local"], choices=["dynamodb-local", "moto"]
    )
    args = parser.parse_args()
    for kind in args.database:
        (run_pairs if args.pairs else run)(args, kind)
    return 0


def play_out(current: Any) -> None:
    """One board played out by the bot on its item (the play path's work, done here in one write)."""
    from deckhand.service.boards import store as board_store
    from deckhand.service.boards import table as tableboard

    if current.status == "waiting":
        tableboard.start(current)  # the table's next board, as the play path begins it
    g, engine = board_store.engine_of(current)
    decide = g.bot()
    while not engine.finished:
        seat = engine.pending()[0]
        action = decide(engine, seat)
        assert action is not None
        engine.apply(action)
    current.state = engine.to_json()
    current.status = "ended"


def play_boards(event_id: str, number: int, pairs: list[tuple[str, str]]) -> None:
    """Every board of the round played out by the bot straight on its item (one read, one write)."""
    from deckhand.service.boards import store as board_store

    for table, board in pairs:
        item = board_store.load(event_id, number, table, board)
        assert item is not None
        if item.status in ("playing", "waiting"):
            board_store.transact((event_id, number, table, board), play_out, first=item)


def play_matches(
    event_id: str, number: int, tables: list[str], scored: Callable[[str, str], None]
) -> tuple[int, float]:
    """Every match of the round played out board after board by the bot on the items: each board that
    ends is saved with the match's next board or its result (match_boards.py), as the play path does,
    and then handed to ``scored`` (the score function, as the play path invokes it when a board ends).
    Returns the boards played and the seconds the playing took (without ``scored``)."""
    from deckhand.service.boards import store as board_store
    from deckhand.service.boards.match_boards import get_match

    boards, seconds = 0, 0.0
    for table in tables:
        while True:
            start = time.perf_counter()
            match = get_match(event_id, number, table)
            board = match.boards[-1]
            if match.status != "playing":
                seconds += time.perf_counter() - start
                break
            board_store.transact((event_id, number, table, board), play_out)
            seconds += time.perf_counter() - start
            boards += 1
            scored(table, board)
    return boards, seconds


class Handlers:
    """The Lambda handlers the bench drives, with the time and count of each function's invocations."""

    def __init__(self) -> None:
        from handlers import load_handler

        self.fns = {name: load_handler(name) for name in ("api", "deal", "score")}
        self.timings: dict[str, float] = {}
        self.invocations: Counter[str] = Counter()
        self.lock = threading.Lock()  # invoked from the scoring step's pool of threads

    def invoke(self, name: str, payload: dict[str, Any]) -> None:
        from handlers import FakeContext

        start = time.perf_counter()
        self.fns[name].handler(json.loads(json.dumps(payload)), FakeContext())
        with self.lock:
            self.timings[name] = self.timings.get(name, 0.0) + time.perf_counter() - start
            self.invocations[name] += 1

    def api(self, method: str, path: str, body: Any = None) -> Any:
        from handlers import FakeContext, api_event

        event = api_event("api-standings.json", path=path, method=method, body=body)
        response = self.fns["api"].handler(event, FakeContext())
        self.invocations["api"] += 1
        assert response["statusCode"] < 300, response
        return json.loads(response["body"])


class Timed:
    """A module's function timed where it is called (the bench's instrument: the code is unchanged);
    ``seconds`` since the last ``clear``."""

    def __init__(self, module: Any, name: str) -> None:
        self.module, self.name = module, name
        self.original = getattr(module, name)
        self.seconds = 0.0
        self.lock = threading.Lock()

    def __enter__(self) -> Timed:
        original = self.original

        def timed(*a: Any, **k: Any) -> Any:
            start = time.perf_counter()
            try:
                return original(*a, **k)
            finally:
                with self.lock:
                    self.seconds += time.perf_counter() - start

        setattr(self.module, self.name, timed)
        return self

    def __exit__(self, *exc: object) -> None:
        setattr(self.module, self.name, self.original)

    def take(self) -> float:
        seconds, self.seconds = self.seconds, 0.0
        return seconds


@contextlib.contextmanager
def driven(kind: str) -> Iterator[tuple[str, Handlers, Any]]:
    """The database, the handlers and the publisher they send to, as the Lambda runtime."""
    from deckhand.service.infra import lambda_runtime
    from deckhand.service.infra.messaging import RecordingPublisher
    from deckhand.service.infra.runtime import Runtime

    with database(kind) as label:
        fns = Handlers()
        publisher = RecordingPublisher()
        lambda_runtime.set_runtime(Runtime(publisher, fns.invoke))
        try:
            yield label, fns, publisher
        finally:
            lambda_runtime.set_runtime(None)


def quiet_handlers() -> None:
    os.environ["POWERTOOLS_METRICS_DISABLED"] = "true"
    os.environ["POWERTOOLS_LOG_LEVEL"] = "WARNING"
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    from backend import setup_moto_env

    setup_moto_env()


def report(
    number: int,
    fns: Handlers,
    published: int,
    calls: Counter[str],
    writes: dict[tuple[str, str], int],
    hottest: list[tuple[tuple[str, str], int]],
) -> None:
    """The round's invocations, messages, DynamoDB calls and most written items."""
    print(
        "    Lambda invocations:",
        ", ".join(f"{k} {v}" for k, v in sorted(fns.invocations.items())),
        f"; IoT messages published {published}",
    )
    print("    DynamoDB calls:", ", ".join(f"{k} {v}" for k, v in sorted(calls.items())))
    print(
        f"    items written in the round: {len(writes)}; the most written:",
        ", ".join(f"{pk}/{sk} {n}" for (pk, sk), n in hottest),
    )


def closing(number: int, deal: float, scoring_s: float, ranking: float, hottest: list[Any]) -> str:
    return (
        f"scale round {number}: seat+deal {deal:.1f} s, score {scoring_s:.1f} s, "
        f"standings {ranking:.1f} s, total {deal + scoring_s + ranking:.1f} s, "
        f"max item writes {hottest[0][1] if hottest else 0}"
    )


@contextlib.contextmanager
def seating_steps() -> Iterator[list[Timed]]:
    """The deal's seating steps timed: its parts written, its players' placements written."""
    from deckhand.service.boards import round_items
    from deckhand.service.duplicate import rounds
    from deckhand.service.matches import round_of_matches

    with (
        Timed(round_items, "save_seating") as saving,
        Timed(rounds, "place_players") as placing,
        Timed(round_of_matches, "place_players") as placing_matches,
    ):
        yield [saving, placing, placing_matches]


def seating_stored(number: int, steps: list[Timed]) -> str:
    """How the round's seating is stored (its size, whole in the round item or in parts), and what its
    parts and placements took of the deal."""
    from deckhand.service.duplicate import rounds
    from deckhand.service.storage.models import PlacementItem
    from deckhand.service.storage.parts import text_of
    from deckhand.service.storage.seating import round_seating

    r = rounds.get_round("online", number)
    size = len(text_of(round_seating(r)).encode())
    kept = f"in {r.seating_parts} parts" if r.seating_parts else "whole in the round item"
    placements = PlacementItem.count("EVENT#online", PlacementItem.sk.startswith(f"{r.sk}#AT#"))
    saving, placing, matches = steps
    return (
        f"    round {number}'s seating: {size / 1000:.0f} kB, {kept} ({saving.take():.1f} s); "
        f"{placements} placements ({placing.take() + matches.take():.1f} s)"
    )


def deal_only(seconds: float, cpu: float, calls: Counter[str]) -> None:
    """``--deal-only``: round 1's seating or pairing and dealing, its time, CPU and DynamoDB calls."""
    print(f"  round 1: seat+deal {seconds:.1f} s (CPU {cpu:.1f} s)")
    print("    DynamoDB calls:", ", ".join(f"{k} {v}" for k, v in sorted(calls.items())))


def run(args: argparse.Namespace, kind: str) -> None:
    quiet_handlers()
    from deckhand.service.duplicate import rounds, scoring
    from deckhand.service.storage.seating import round_seating

    with driven(kind) as (label, fns, publisher):
        api = fns.api
        api(
            "POST",
            "/events",
            {
                "event_id": "online",
                "name": "Online Open",
                "ruleset": "bigtwo-2017",
                "grade": "unrated",
                "rounds": args.rounds,
                "boards_per_round": args.boards,
                "venue": False,
                "start": dt.date.today().isoformat(),
                "seed": "online",
            },
        )
        api("POST", "/events/online/players", {"players": [{"id": f"P{i:05d}"} for i in range(args.players)]})
        if getattr(args, "links", False):
            join_links([f"P{i:05d}" for i in range(args.players)])
        print(
            f"Scale: {args.players} players{' on join links' if getattr(args, 'links', False) else ''}, "
            f"{-(-args.players // 4)} tables, {args.boards} boards a round, "
            f"through the handlers ({label}), scoring {args.workers} invocations at a time — seconds"
        )
        storage = StorageCalls()
        lines = []
        # The round's standings, computed by the scoring that finds the round complete (timed apart).
        standings_step = "round_standings" if hasattr(scoring, "round_standings") else "compute_standings"
        with storage.installed(), Timed(scoring, standings_step) as computing:
            for number in range(1, args.rounds + 1):
                storage.clear()
                fns.invocations.clear()
                published = len(publisher.sent)
                calls: Counter[str] = Counter()
                start, cpu = time.perf_counter(), time.process_time()
                with seating_steps() as steps:
                    api("POST", "/events/online/rounds")  # the deal function runs (synchronously here)
                deal, cpu = time.perf_counter() - start, time.process_time() - cpu  # CPU: the handlers'
                calls.update({f"seat+deal {k}": v for k, v in storage.calls.items()})
                print(seating_stored(number, steps), flush=True)
                if getattr(args, "deal_only", False):  # callers that build their own arguments
                    return deal_only(deal, cpu, calls)
                r = rounds.get_round("online", number)
                pairs = [(e["table"], b) for e in round_seating(r) for b in r.boards]
                storage.clear()
                start = time.perf_counter()
                play_boards("online", number, pairs)
                play = time.perf_counter() - start
                storage.clear()
                computing.take()
                start = time.perf_counter()
                score_all(fns, number, pairs, args.workers)
                ranking = computing.take()
                scoring_s = time.perf_counter() - start - ranking
                calls.update({f"score {k}": v for k, v in storage.calls.items()})
                writes = dict(storage.item_writes)
                hottest = storage.hottest()
                start = time.perf_counter()
                standings = api("GET", "/events/online/standings")
                ranking += time.perf_counter() - start
                assert len(standings["standings"]) == args.players
                print(
                    f"  round {number}: seat+deal {deal:.1f} s (CPU {cpu:.1f} s), play (bot, not counted) {play:.1f} s, "
                    f"score {len(pairs)} boards {scoring_s:.1f} s, standings {ranking:.1f} s",
                    flush=True,
                )
                report(number, fns, len(publisher.sent) - published, calls, writes, hottest)
                lines.append(closing(number, deal, scoring_s, ranking, hottest))
        for line in lines:
            print(line)


def join_links(players: list[str]) -> None:
    """A join link for every player, written straight to the table in batches (the bench's shortcut:
    issuing them through the API is a transaction a player): each seating row then names the players'
    own devices, as an online event's does (~495 KB of seating at 10,000 players)."""
    from deckhand.service.storage import batches
    from deckhand.service.storage.keys import event_pk, link_sk
    from deckhand.service.storage.models import LinkItem

    batches.put_all(
        [
            LinkItem(event_pk("online"), link_sk(p), link_id=f"{n:010d}", digest="0" * 64, created_at=0)
            for n, p in enumerate(players)
        ]
    )


def score_all(fns: Handlers, number: int, pairs: list[tuple[str, str]], workers: int) -> None:
    """Every table's boards through the score function: ``workers`` invocations at a time, as AWS runs
    the tables' scorings in parallel (each its own invocation), in the order the tables finish here."""

    def score(pair: tuple[str, str]) -> None:
        table, board = pair
        fns.invoke("score", {"event_id": "online", "round": number, "table": table, "board": board})

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        for _ in pool.map(score, pairs):
            pass  # an invocation's exception is raised here


def match_ruleset(chosen: str | None) -> str:
    """The rule set the Swiss of pairs plays: the one named, else the registry's first that runs matches."""
    from deckhand.engines.registry import RULESETS, game
    from deckhand.engines.spec import Competition

    return chosen or next(r for r in RULESETS if game(r).competition is Competition.MATCH)


def run_pairs(args: argparse.Namespace, kind: str) -> None:
    """A Swiss of matches of ``--pairs`` pairs: per round, the pairing (computed when the round before
    ends, counted in the next round's seat+deal) and the matches' first boards, the matches played by
    the bot on the items (not counted), each board's result through the score function (the match
    results), and the standings (computed when the last match ends, plus the standings read)."""
    quiet_handlers()
    from deckhand.service.duplicate import rounds, scoring
    from deckhand.service.matches import round_of_matches
    from deckhand.service.storage.seating import round_seating

    ruleset = match_ruleset(args.ruleset)
    with driven(kind) as (label, fns, publisher):
        api = fns.api
        api(
            "POST",
            "/events",
            {
                "event_id": "online",
                "name": "Online Pairs",
                "ruleset": ruleset,
                "grade": "unrated",
                "rounds": args.rounds,
                "venue": False,
                "start": dt.date.today().isoformat(),
                "seed": "online",
                "match": {"format": "swiss"},
                "options": {"end_mode": "boards", "boards": args.boards},
            },
        )
        api(
            "POST",
            "/events/online/pairs",
            {"pairs": [{"id": f"T{i:05d}", "players": [{"id": f"T{i:05d}a"}, {"id": f"T{i:05d}b"}]}
                       for i in range(args.pairs)]},
        )  # fmt: skip
        print(
            f"Scale: a Swiss of {args.pairs} pairs ({ruleset}), {args.pairs // 2} matches a round of "
            f"{args.boards} boards, through the handlers ({label}) — seconds"
        )
        storage = StorageCalls()
        lines = []
        with (
            storage.installed(),
            Timed(scoring, "compute_standings") as computing,
            Timed(round_of_matches, "save_computed_pairing") as pairing,
        ):
            paired = 0.0  # the next round's pairing, computed as this one ends
            results = {"s": 0.0, "round": 0.0}
            result_calls: Counter[str] = Counter()  # the score function's calls, not the bot's

            def scored(table: str, board: str) -> None:
                """One board's result through the score function, as the play path invokes it."""
                before = Counter(storage.calls)
                start = time.perf_counter()
                payload = {
                    "event_id": "online",
                    "round": int(results["round"]),
                    "table": table,
                    "board": board,
                }
                fns.invoke("score", payload)
                results["s"] += time.perf_counter() - start
                result_calls.update(storage.calls - before)

            for number in range(1, args.rounds + 1):
                storage.clear()
                fns.invocations.clear()
                published = len(publisher.sent)
                calls: Counter[str] = Counter()
                writes: Counter[tuple[str, str]] = Counter()
                start, cpu = time.perf_counter(), time.process_time()
                with seating_steps() as steps:
                    api("POST", "/events/online/rounds")  # pairing (round 1) and the matches' first boards
                deal, cpu = time.perf_counter() - start + paired, time.process_time() - cpu
                this_pairing, paired = paired, 0.0
                calls.update({f"pair+deal {k}": v for k, v in storage.calls.items()})
                print(seating_stored(number, steps), flush=True)
                if getattr(args, "deal_only", False):  # callers that build their own arguments
                    return deal_only(deal, cpu, calls)
                writes.update(storage.item_writes)
                r = rounds.get_round("online", number)
                tables = [e["table"] for e in round_seating(r)]
                storage.clear()
                computing.take()
                pairing.take()
                results["s"], results["round"] = 0.0, number
                result_calls.clear()
                played, play = play_matches("online", number, tables, scored)
                ranking = computing.take()
                paired = pairing.take()
                scoring_s = results["s"] - ranking - paired
                calls.update({f"results {k}": v for k, v in result_calls.items()})
                writes.update(storage.item_writes)
                hottest = writes.most_common(3)
                start = time.perf_counter()
                standings = api("GET", "/events/online/standings")
                ranking += time.perf_counter() - start
                assert len(standings["standings"]) == args.pairs
                print(
                    f"  round {number}: pair+deal {deal:.1f} s (of it the pairing, as the round before "
                    f"ended, {this_pairing:.1f}; the deal's CPU {cpu:.1f} s), play {len(tables)} matches, {played} boards (bot, not "
                    f"counted) {play:.1f} s, results {scoring_s:.1f} s, standings {ranking:.1f} s; "
                    f"the next pairing {paired:.1f} s",
                    flush=True,
                )
                report(number, fns, len(publisher.sent) - published, calls, dict(writes), hottest)
                lines.append(closing(number, deal, scoring_s, ranking, hottest))
        for line in lines:
            print(line)


if __name__ == "__main__":
    sys.exit(main())
