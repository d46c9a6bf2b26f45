"""Play path through the local venue: a device publishes an action → the broker → the bridge → the
play handler → the venue's database (DynamoDB Local on disk; ``--database moto`` for moto's server) → every device of the table has its new view. Median and p99
at 1, 16 and 64 concurrent tables, and sustained plays per second.

Run with ``make bench-platform`` (or ``python bench/playpath_bench.py [--tables 1 16 64] [--think S]``).
The venue runs as ``deckhand venue`` in its own process, as it does at a venue; this process holds
the devices: one MQTT client per table with its four seats' topics. A table's next play comes a
think time after all four of its views arrived: uniform between 0 and twice ``--think`` (default 2 s,
quicker than people play), so the tables do not act in step. ``--think 0`` plays as soon as the views
arrive (closed loop): the plays per second of that row is the venue's capacity. Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from deckhand_local.venue.api_client import ApiClient
from deckhand_local.venue.bridge import Login, new_client
from deckhand_local.venue.credentials import SERVER, VenueCredentials
from deckhand_local.venue.demo_event import free_port
from deckhand_local.venue.mosquitto import find_mosquitto


class TableDriver:
    """Four seats' devices in one client: acts for whoever's turn it is once the table is up to date."""

    def __init__(
        self, table: str, port: int, think: float, latencies: list[float], lock: threading.Lock, login: Login
    ) -> None:
        self.things = [f"pp-{table}-{s}" for s in range(4)]
        self.views: dict[int, dict[str, Any]] = {}
        self.sent_at: float | None = None
        self.after: tuple[str, int] | None = None
        self.think = think
        self.random = random.Random(table)
        self.latencies = latencies
        self.lock = lock
        self.counter = 0
        self.boards_done = 0
        # Four things in one client: only the server identity may use several things' topics.
        self.client = new_client(f"pp-{table}", login)
        self.client.on_message = self.on_message
        self.client.connect("127.0.0.1", port)
        for thing in self.things:
            self.client.subscribe(f"dh/{thing}/down", qos=1)
        self.client.loop_start()

    def on_message(self, client: Any, userdata: Any, message: Any) -> None:
        payload = json.loads(message.payload)
        if payload.get("t") != "view":
            return
        seat = self.things.index(message.topic.split("/")[1])
        self.views[seat] = payload
        if len(self.views) < 4:
            return
        keys = {(v["b"], v["v"]) for v in self.views.values()}
        if len(keys) != 1:
            return  # the table is not up to date yet
        (key,) = keys
        if self.after is not None:
            if key == self.after:
                return
            with self.lock:
                self.latencies.append(time.perf_counter() - self.sent_at)  # type: ignore[operator]
        self.after = key
        if self.views[0]["st"] == "ended":
            self.boards_done += 1
            return
        views = dict(self.views)
        if self.think:
            threading.Timer(self.random.uniform(0, 2 * self.think), self.play, (views,)).start()
        else:
            self.play(views)

    @staticmethod
    def decide(v: dict[str, Any]) -> dict[str, Any] | None:
        """A player reading the screen only (the device gets no engine view): no to every yes/no,
        pass when it may; leading, the 3♦ when the prompt asks for it, else the highest single."""
        ask = v.get("ask")
        if ask is None:
            return None
        options: list[dict[str, Any]] = [o["a"] for o in ask["o"]]
        plain = [a for a in options if not a.get("c")]
        if plain:
            return next((a for a in plain if a.get("v", 0) == 0), plain[-1])
        card = v["h"][0] if "3\u2666" in ask["p"] else v["h"][-1]
        return {**options[0], "c": [card]}

    def play(self, views: dict[int, dict[str, Any]]) -> None:
        for seat, v in sorted(views.items()):
            action = self.decide(v)
            if action is None:
                continue
            self.counter += 1
            body: dict[str, Any] = {"t": "act", "msg": f"m{self.counter}", "board": v["b"], "r": v["r"]}
            body["a"] = action
            self.sent_at = time.perf_counter()
            self.client.publish(f"dh/{self.things[seat]}/up", json.dumps(body), qos=1)
            return

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def start_venue(state: Path, broker: str, workers: int, database: str) -> tuple[subprocess.Popen[bytes], int]:
    """``deckhand venue`` in a process of its own; returns it and its MQTT port once the API is up."""
    mqtt_port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "deckhand_local.cli.main", "venue", "--state", str(state)]
        + [
            "--dynamodb-port",
            str(free_port()),
            "--mqtt-port",
            str(mqtt_port),
            "--http-port",
            str(free_port()),
        ]
        + ["--broker", broker, "--bridge-workers", str(workers), "--database", database],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while not (state / "venue.json").exists():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"the venue did not start: {process.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
        time.sleep(0.1)
    return process, mqtt_port


def run(tables: int, boards: int, think: float, broker: str, workers: int, database: str) -> dict[str, float]:
    state = Path(tempfile.mkdtemp(prefix="deckhand-playpath-"))
    venue, mqtt_port = start_venue(state, broker, workers, database)
    drivers: list[TableDriver] = []
    try:
        api = ApiClient(state_dir=state)
        api.request(
            "POST",
            "/events",
            {
                "event_id": "pp",
                "name": "Play path",
                "ruleset": "bigtwo-2017",
                "grade": "unrated",
                "rounds": 1,
                "boards_per_round": boards,
                "start": dt.date.today().isoformat(),
                "seed": "pp",
                "deal_seed": "pp",
            },
        )
        api.request("POST", "/events/pp/players", {"players": [{"id": f"P{i}"} for i in range(4 * tables)]})
        api.request(
            "POST",
            "/events/pp/tables",
            {"tables": [{"id": f"T{t}", "seats": [f"pp-T{t}-{s}" for s in range(4)]} for t in range(tables)]},
        )
        latencies: list[float] = []
        lock = threading.Lock()
        login = (SERVER, VenueCredentials.for_state(state).server_password)
        drivers = [TableDriver(f"T{t}", mqtt_port, think, latencies, lock, login) for t in range(tables)]
        time.sleep(0.5)  # subscriptions in place
        start = time.perf_counter()
        api.request("POST", "/events/pp/rounds")
        deadline = start + 1800
        while time.perf_counter() < deadline and any(d.boards_done < boards for d in drivers):
            time.sleep(0.05)
        elapsed = time.perf_counter() - start
        ordered = sorted(latencies)
        return {
            "plays": len(ordered),
            "median_ms": statistics.median(ordered) * 1000,
            "p99_ms": ordered[max(0, int(len(ordered) * 0.99) - 1)] * 1000,
            "per_second": len(ordered) / elapsed,
        }
    finally:
        for d in drivers:
            d.close()
        venue.terminate()
        venue.wait(30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 16, 64])
    parser.add_argument("--boards", type=int, default=1, help="boards each table plays")
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds before a table's next play")
    parser.add_argument(
        "--capacity", type=int, default=64, help="tables of the closed-loop row (0: no such row)"
    )
    parser.add_argument("--workers", type=int, default=4, help="the bridge's workers")
    parser.add_argument(
        "--broker",
        nargs="+",
        default=["aedes", "embedded", "mosquitto"],
        help="brokers to measure (if installed)",
    )
    parser.add_argument(
        "--database",
        nargs="+",
        default=["dynamodb-local"],
        choices=["dynamodb-local", "moto"],
        help="the venue's database (DynamoDB Local on disk, or moto's server in memory)",
    )
    args = parser.parse_args()
    brokers = [b for b in args.broker if b != "mosquitto" or find_mosquitto()]
    print("Play path through the local venue: publish → all four views of the table updated (ms)")
    print(f"  bridge workers {args.workers}; think time: mean {args.think} s (0 = closed loop)")
    print(
        f"  {'database':>14} {'broker':>9} {'tables':>6} {'think s':>7} {'plays':>7} {'median':>8} {'p99':>8}"
        f" {'plays/s':>9}"
    )
    rows = [(t, args.think) for t in args.tables] + ([(args.capacity, 0.0)] if args.capacity else [])
    for database in args.database:
        for broker in brokers:
            for tables, think in rows:
                r = run(tables, args.boards, think, broker, args.workers, database)
                print(
                    f"  {database:>14} {broker:>9} {tables:>6} {think:>7.1f} {r['plays']:>7.0f}"
                    f" {r['median_ms']:>8.1f} {r['p99_ms']:>8.1f} {r['per_second']:>9.1f}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
