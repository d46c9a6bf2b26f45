"""Cost per play: DynamoDB requests, capacity units and item sizes per accepted device action (counted
at the botocore level, with moto in-process), IoT messages and bytes per action, and what a 100-table,
8-round event costs from these counts.

Run with ``make bench-platform`` (or ``python bench/cost_bench.py``). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import botocore.client

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

# US East (N. Virginia) list prices, per million (on-demand DynamoDB, IoT Core, Lambda x86); check the
# current AWS price list before quoting these to an organiser.
PRICE = {
    "dynamodb_write_unit": 0.625,
    "dynamodb_read_unit": 0.125,
    "iot_message": 1.00,  # per million messages, metered in 5 KB blocks
    "iot_rule": 0.15 + 0.15,  # rule triggered + one action
    "lambda_request": 0.20,
    "lambda_gb_second": 16.6667,  # per million GB-seconds
}


class Meter:
    """Counts every DynamoDB call botocore makes, with the sizes of the items it writes."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.write_units = 0
        self.read_units = 0
        self.written_bytes = 0
        self.sizes: list[int] = []
        self._original = botocore.client.BaseClient._make_api_call
        meter = self

        def counting(client: Any, operation: str, params: dict[str, Any]) -> Any:
            if client.meta.service_model.service_name == "dynamodb":
                meter.record(operation, params)
            return meter._original(client, operation, params)

        botocore.client.BaseClient._make_api_call = counting  # type: ignore[method-assign]

    def record(self, operation: str, params: dict[str, Any]) -> None:
        self.calls[operation] += 1
        items: list[dict[str, Any]] = []
        if operation == "PutItem":
            items = [params["Item"]]
        elif operation == "TransactWriteItems":
            for entry in params["TransactItems"]:
                if "Put" in entry:
                    items.append(entry["Put"]["Item"])
                else:
                    self.write_units += 2  # an update or check in a transaction: 2 units for a small item
        elif operation == "UpdateItem":
            self.write_units += 1
        elif operation in ("GetItem",):
            self.read_units += 1  # consistent reads of items under 4 KB
        for item in items:
            size = item_size(item)
            self.sizes.append(size)
            self.written_bytes += size
            self.write_units += math.ceil(size / 1024) * (2 if operation == "TransactWriteItems" else 1)

    def reset(self) -> None:
        self.calls.clear()
        self.write_units = self.read_units = self.written_bytes = 0
        self.sizes.clear()


def item_size(item: dict[str, Any]) -> int:
    """DynamoDB's item size: attribute names plus values (strings in UTF-8, numbers ~ digits/2+1,
    lists and maps 3 bytes plus 1 per element)."""

    def value(v: dict[str, Any]) -> int:
        ((kind, x),) = v.items()
        if kind == "S":
            return len(x.encode())
        if kind == "N":
            return len(x.lstrip("-").replace(".", "")) // 2 + 1
        if kind == "BOOL" or kind == "NULL":
            return 1
        if kind == "L":
            return 3 + sum(1 + value(e) for e in x)
        if kind == "M":
            return 3 + sum(1 + len(k.encode()) + value(e) for k, e in x.items())
        return len(json.dumps(x))

    return sum(len(name.encode()) + value(v) for name, v in item.items())


def play_boards(boards: int, meter: Meter) -> dict[str, Any]:
    from backend import Backend, DeviceBot, create_table, setup_moto_env
    from deckhand.service.boards import store as board_store
    from deckhand.service.duplicate import rounds
    from moto import mock_aws

    setup_moto_env()
    event = {
        "event_id": "cost",
        "name": "Cost Cup",
        "ruleset": "bigtwo-2017",
        "grade": "unrated",
        "format": "pvp",
        "rounds": 1,
        "boards_per_round": boards,
        "groups": 1,
        "venue": True,
        "start": dt.date(2026, 12, 14),
        "seed": "cost",
    }
    with mock_aws():
        create_table()
        from deckhand.service.organiser import events

        b = Backend()
        events.create_event(event)
        events.register_players("cost", [{"id": f"P{i}"} for i in range(4)])
        things = [f"c-{s}" for s in range(4)]
        events.register_tables("cost", [{"id": "T1", "seats": things}])
        bots = [DeviceBot(b, t) for t in things]
        meter.reset()
        first = len(b.publisher.sent)
        rounds.request_next_round(b.rt, "cost")  # dealing and the first views count too
        actions = 0
        scored = 0
        per_message: list[int] = []
        for _ in range(10_000):
            moved = False
            for bot in bots:
                before = sum(meter.calls.values())
                outcome = bot.act()
                if outcome is not None:
                    per_message.append(sum(meter.calls.values()) - before)
                    assert outcome["status"] == "accepted", outcome
                    actions += 1
                    moved = True
            if not moved:
                break
        scored = sum(1 for name, _ in b.invocations if name == "score")
        messages = b.publisher.sent[first:]
        from deckhand.service.infra.messaging import encode

        sizes = [len(encode(p)) for _, p in messages]
        final = board_store.load("cost", 1, "T1", str(boards))
        per_message.sort()
        return {
            "per_message": per_message,
            "actions": actions,
            "boards": boards,
            "scored": scored,
            "messages": len(messages),
            "message_bytes": sum(sizes),
            "largest_message": max(sizes),
            "board_item_bytes": len(final.state) + len(json.dumps(final.log)),
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=8)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--boards-per-round", type=int, default=6)
    args = parser.parse_args()
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    meter = Meter()
    run = play_boards(args.boards, meter)
    n = run["actions"]
    calls = sum(meter.calls.values())
    print(f"Cost per play — Big Two, {args.boards} boards at one table, {n} accepted device actions")
    typical = run["per_message"][len(run["per_message"]) // 2]
    print(
        f"  DynamoDB requests per action   {calls / n:6.2f}   all included ({dict(meter.calls)}); a play message "
        f"alone: {typical} (median), {run['per_message'][-1]} at most (a board's end: scoring, next board)"
    )
    print(
        f"  write units per action         {meter.write_units / n:6.2f}   read units {meter.read_units / n:.2f}"
    )
    print(
        f"  bytes written per action       {meter.written_bytes / n:6.0f}   "
        f"(largest item {max(meter.sizes)} B, median {sorted(meter.sizes)[len(meter.sizes) // 2]} B)"
    )
    print(
        f"  IoT messages per action        {run['messages'] / n:6.2f}   "
        f"bytes {run['message_bytes'] / n:.0f}, largest {run['largest_message']} B"
    )
    per_board = n / run["boards"]
    boards = args.tables * args.rounds * args.boards_per_round
    total_actions = boards * per_board
    lambda_calls = total_actions + boards  # play per message (+ hello, ignored) and score per board
    cost = {
        "DynamoDB writes": meter.write_units / n * total_actions * PRICE["dynamodb_write_unit"] / 1e6,
        "DynamoDB reads": meter.read_units / n * total_actions * PRICE["dynamodb_read_unit"] / 1e6,
        "IoT messages": (run["messages"] / n + 1) * total_actions * PRICE["iot_message"] / 1e6,
        "IoT rule": total_actions * PRICE["iot_rule"] / 1e6,
        "Lambda": lambda_calls * (PRICE["lambda_request"] + 0.512 * 0.05 * PRICE["lambda_gb_second"]) / 1e6,
    }
    print(
        f"A {args.tables}-table, {args.rounds}-round event of {args.boards_per_round} boards a round: "
        f"{boards:,} table-boards, about {total_actions:,.0f} actions ({per_board:.0f} a board)"
    )
    for name, dollars in cost.items():
        print(f"  {name:<16} ${dollars:8.2f}")
    print(f"  {'total':<16} ${sum(cost.values()):8.2f}   (Lambda at 512 MB, 50 ms a call)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
