"""Scale: a 1,000-player online (non-venue) Big Two event through the Lambda handlers, on DynamoDB
Local (on disk, as the local venue keeps its data) or moto in-process: time per round for seating and
dealing, for scoring every table's boards, and for the standings.

Run with ``make bench-platform`` (or ``python bench/scale_bench.py [--players 1000 --rounds 2]
[--database dynamodb-local moto]``).
The boards are played by the deterministic bot straight on the board items (one read and one write a
board), since playing is the play path's figure (playpath_bench), not this one's. Prints figures.
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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


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
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--boards", type=int, default=2, help="boards per round")
    parser.add_argument(
        "--database", nargs="+", default=["dynamodb-local"], choices=["dynamodb-local", "moto"]
    )
    args = parser.parse_args()
    for kind in args.database:
        run(args, kind)
    return 0


def run(args: argparse.Namespace, kind: str) -> None:
    os.environ["POWERTOOLS_METRICS_DISABLED"] = "true"
    os.environ["POWERTOOLS_LOG_LEVEL"] = "WARNING"
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    from backend import setup_moto_env
    from handlers import FakeContext, api_event, load_handler

    setup_moto_env()
    from deckhand.service.boards import store as board_store
    from deckhand.service.boards import table as tableboard
    from deckhand.service.duplicate import rounds
    from deckhand.service.infra import lambda_runtime
    from deckhand.service.infra.messaging import RecordingPublisher
    from deckhand.service.infra.runtime import Runtime

    with database(kind) as label:
        fns = {name: load_handler(name) for name in ("api", "deal", "score")}
        timings: dict[str, float] = {}

        def invoke(name: str, payload: dict[str, Any]) -> None:
            start = time.perf_counter()
            fns[name].handler(json.loads(json.dumps(payload)), FakeContext())
            timings[name] = timings.get(name, 0.0) + time.perf_counter() - start

        publisher = RecordingPublisher()
        lambda_runtime.set_runtime(Runtime(publisher, invoke))

        def api(method: str, path: str, body: Any = None) -> Any:
            event = api_event("api-standings.json", path=path, method=method, body=body)
            response = fns["api"].handler(event, FakeContext())
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
        api("POST", "/events/online/players", {"players": [{"id": f"P{i:04d}"} for i in range(args.players)]})
        print(
            f"Scale: {args.players} players, {-(-args.players // 4)} tables, {args.boards} boards a round, "
            f"through the handlers ({label}) — seconds"
        )
        print(f"  {'round':>5} {'seat+deal':>10} {'play':>8} {'scoring':>8} {'standings':>10} {'boards':>7}")
        for number in range(1, args.rounds + 1):
            timings.clear()
            start = time.perf_counter()
            api("POST", "/events/online/rounds")  # the deal function runs (synchronously here)
            deal = time.perf_counter() - start
            r = rounds.get_round("online", number)
            pairs = [(e["table"], b) for e in r.seating for b in r.boards]
            start = time.perf_counter()
            ended = []
            for table, board in pairs:
                item = board_store.load("online", number, table, board)
                assert item is not None
                if item.status not in ("playing", "waiting"):
                    continue

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

                board_store.transact(("online", number, table, board), play_out, first=item)
                ended.append((table, board))
            play = time.perf_counter() - start
            timings.clear()
            start = time.perf_counter()
            for table, board in pairs:
                invoke("score", {"event_id": "online", "round": number, "table": table, "board": board})
            scoring = time.perf_counter() - start
            start = time.perf_counter()
            standings = api("GET", "/events/online/standings")
            reading = time.perf_counter() - start
            assert len(standings["standings"]) == args.players
            print(
                f"  {number:>5} {deal:>10.1f} {play:>8.1f} {scoring:>8.1f} {reading:>10.1f} {len(pairs):>7}",
                flush=True,
            )
        lambda_runtime.set_runtime(None)


if __name__ == "__main__":
    sys.exit(main())
