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
import time
import warnings
from collections import Counter
from collections.abc import Iterator
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

    def clear(self) -> None:
        self.calls.clear()
        self.item_writes.clear()

    def seen(self, operation: str, params: dict[str, Any]) -> None:
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
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--boards", type=int, default=2, help="boards per round")
    parser.add_argument(
        "--database", nargs="+", default=["dynamodb-local"], choices=["dynamodb-local", "moto"]
    )
    args = parser.parse_args()
    for kind in args.database:
        run(args, kind)
    return 0


def play_boards(number: int, pairs: list[tuple[str, str]]) -> None:
    """Every board of the round played out by the bot straight on its item (one read, one write)."""
    from deckhand.service.boards import store as board_store
    from deckhand.service.boards import table as tableboard

    def play_out(current: Any) -> None:
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

    for table, board in pairs:
        item = board_store.load("online", number, table, board)
        assert item is not None
        if item.status in ("playing", "waiting"):
            board_store.transact(("online", number, table, board), play_out, first=item)


def run(args: argparse.Namespace, kind: str) -> None:
    os.environ["POWERTOOLS_METRICS_DISABLED"] = "true"
    os.environ["POWERTOOLS_LOG_LEVEL"] = "WARNING"
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    from backend import setup_moto_env
    from handlers import FakeContext, api_event, load_handler

    setup_moto_env()
    from deckhand.service.duplicate import rounds
    from deckhand.service.infra import lambda_runtime
    from deckhand.service.infra.messaging import RecordingPublisher
    from deckhand.service.infra.runtime import Runtime

    with database(kind) as label:
        fns = {name: load_handler(name) for name in ("api", "deal", "score")}
        timings: dict[str, float] = {}
        invocations: Counter[str] = Counter()

        def invoke(name: str, payload: dict[str, Any]) -> None:
            start = time.perf_counter()
            fns[name].handler(json.loads(json.dumps(payload)), FakeContext())
            timings[name] = timings.get(name, 0.0) + time.perf_counter() - start
            invocations[name] += 1

        publisher = RecordingPublisher()
        lambda_runtime.set_runtime(Runtime(publisher, invoke))

        def api(method: str, path: str, body: Any = None) -> Any:
            event = api_event("api-standings.json", path=path, method=method, body=body)
            response = fns["api"].handler(event, FakeContext())
            invocations["api"] += 1
            assert response["statusCode"] < 300, response
            return json.loads(response["body"])

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
        print(
            f"Scale: {args.players} players, {-(-args.players // 4)} tables, {args.boards} boards a round, "
            f"through the handlers ({label}) — seconds"
        )
        from deckhand.service.duplicate import scoring

        computing = {"s": 0.0}
        compute = scoring.compute_standings

        def timed_standings(*a: Any, **k: Any) -> Any:
            start = time.perf_counter()
            try:
                return compute(*a, **k)
            finally:
                computing["s"] += time.perf_counter() - start

        scoring.compute_standings = timed_standings  # type: ignore[assignment]
        storage = StorageCalls()
        lines = []
        with storage.installed():
            for number in range(1, args.rounds + 1):
                storage.clear()
                invocations.clear()
                published = len(publisher.sent)
                calls: Counter[str] = Counter()
                start = time.perf_counter()
                api("POST", "/events/online/rounds")  # the deal function runs (synchronously here)
                deal = time.perf_counter() - start
                calls.update({f"seat+deal {k}": v for k, v in storage.calls.items()})
                r = rounds.get_round("online", number)
                pairs = [(e["table"], b) for e in r.seating for b in r.boards]
                storage.clear()
                start = time.perf_counter()
                play_boards(number, pairs)
                play = time.perf_counter() - start
                storage.clear()
                computing["s"] = 0.0
                start = time.perf_counter()
                for table, board in pairs:
                    invoke("score", {"event_id": "online", "round": number, "table": table, "board": board})
                scoring_s = time.perf_counter() - start - computing["s"]
                ranking = computing["s"]
                calls.update({f"score {k}": v for k, v in storage.calls.items()})
                writes = dict(storage.item_writes)
                hottest = storage.hottest()
                start = time.perf_counter()
                standings = api("GET", "/events/online/standings")
                ranking += time.perf_counter() - start
                assert len(standings["standings"]) == args.players
                print(
                    f"  round {number}: seat+deal {deal:.1f} s, play (bot, not counted) {play:.1f} s, "
                    f"score {len(pairs)} boards {scoring_s:.1f} s, standings {ranking:.1f} s",
                    flush=True,
                )
                print(
                    "    Lambda invocations:",
                    ", ".join(f"{k} {v}" for k, v in sorted(invocations.items())),
                    f"; IoT messages published {len(publisher.sent) - published}",
                )
                print("    DynamoDB calls:", ", ".join(f"{k} {v}" for k, v in sorted(calls.items())))
                print(
                    f"    items written while scoring: {len(writes)}; the most written:",
                    ", ".join(f"{pk}/{sk} {n}" for (pk, sk), n in hottest),
                )
                lines.append(
                    f"scale round {number}: seat+deal {deal:.1f} s, score {scoring_s:.1f} s, "
                    f"standings {ranking:.1f} s, total {deal + scoring_s + ranking:.1f} s, "
                    f"max item writes {hottest[0][1] if hottest else 0}"
                )
        scoring.compute_standings = compute  # type: ignore[assignment]
        for line in lines:
            print(line)
        lambda_runtime.set_runtime(None)


if __name__ == "__main__":
    sys.exit(main())
