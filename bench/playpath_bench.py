"""Play path through the local venue: a device publishes an action → the bridge → the play handler →
moto's DynamoDB server → every device of the table has its new view. Median and p99 at 1, 16 and 64
concurrent tables, and sustained plays per second.

Run with ``make bench-platform`` (or ``python bench/playpath_bench.py [--tables 1 16 64]``). Each table
is driven by one MQTT client holding its four seats' topics, playing as soon as the last action's
views have all arrived (closed loop). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from deckhand.cards import format_cards
from deckhand.cli.organiser import ApiClient
from deckhand.games import game
from deckhand.venue.demo import free_port
from deckhand.venue.local import Venue
from paho.mqtt.enums import CallbackAPIVersion


class TableDriver:
    """Four seats' devices in one client: acts for whoever's turn it is once the table is up to date."""

    def __init__(self, table: str, port: int, latencies: list[float], lock: threading.Lock) -> None:
        self.things = [f"pp-{table}-{s}" for s in range(4)]
        self.views: dict[int, dict[str, Any]] = {}
        self.sent_at: float | None = None
        self.after: tuple[str, int] | None = None
        self.latencies = latencies
        self.lock = lock
        self.counter = 0
        self.boards_done = 0
        self.bot = game("bigtwo-2017").view_bot("steady")
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=f"pp-{table}", protocol=mqtt.MQTTv311
        )
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
        view = self.views[0]
        if view["st"] == "ended":
            self.boards_done += 1
            return
        for seat, v in sorted(self.views.items()):
            action = self.bot(v["view"])
            if action is None:
                continue
            self.counter += 1
            body: dict[str, Any] = {"t": action.kind, "msg": f"m{self.counter}", "board": v["b"], "r": v["r"]}
            if action.cards:
                body["cards"] = format_cards(action.cards)
            if action.kind in ("show", "double", "bid"):
                body["v"] = action.value
            self.sent_at = time.perf_counter()
            client.publish(f"dh/{self.things[seat]}/up", json.dumps(body), qos=1)
            return

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def run(tables: int, boards: int) -> dict[str, float]:
    work = Path(tempfile.mkdtemp(prefix="deckhand-playpath-"))
    venue = Venue(dynamodb_port=free_port(), mqtt_port=free_port(), http_port=0, state_dir=work).start()
    drivers: list[TableDriver] = []
    try:
        api = ApiClient(state_dir=work)
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
        drivers = [TableDriver(f"T{t}", venue.mqtt_port, latencies, lock) for t in range(tables)]
        time.sleep(0.5)  # subscriptions in place
        start = time.perf_counter()
        api.request("POST", "/events/pp/rounds")
        deadline = start + 600
        while time.perf_counter() < deadline and any(d.boards_done < boards for d in drivers):
            time.sleep(0.05)
        elapsed = time.perf_counter() - start
        ordered = sorted(latencies)
        return {
            "tables": tables,
            "plays": len(ordered),
            "median_ms": statistics.median(ordered) * 1000,
            "p99_ms": ordered[int(len(ordered) * 0.99) - 1] * 1000,
            "per_second": len(ordered) / elapsed,
        }
    finally:
        for d in drivers:
            d.close()
        venue.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 16, 64])
    parser.add_argument("--boards", type=int, default=2, help="boards each table plays")
    args = parser.parse_args()
    print("Play path through the local venue: publish → all four views of the table updated (ms)")
    print(f"  {'tables':>6} {'plays':>7} {'median':>8} {'p99':>8} {'plays/s':>9}")
    for tables in args.tables:
        r = run(tables, args.boards)
        print(
            f"  {tables:>6} {r['plays']:>7.0f} {r['median_ms']:>8.1f} {r['p99_ms']:>8.1f} {r['per_second']:>9.1f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
