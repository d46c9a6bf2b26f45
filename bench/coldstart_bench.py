"""Cold start of each Lambda handler: import time with its layer (``python -X importtime``, a fresh
interpreter per handler, as Lambda starts one), what dominates it, and the first call's time.

Run with ``make bench-platform`` (or ``python bench/coldstart_bench.py``). Prints figures; asserts nothing.
The first call runs against moto in-process (its import is not counted), so it shows our code's own
first-call work (clients made, caches filled), not AWS network latency.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HANDLERS = ("api", "play", "deal", "score", "timers")
REPEAT = 3

PROBE = r"""
import json, os, sys, time
sys.path[:0] = [sys.argv[1], sys.argv[2]]
t0 = time.perf_counter()
import app
imported = time.perf_counter() - t0
first = None
if sys.argv[3]:
    from moto import mock_aws
    sys.path.insert(0, sys.argv[4])
    from backend import create_table
    with mock_aws():
        create_table()
        event = json.loads(open(sys.argv[3]).read())
        class Context:
            function_name = "cold"; memory_limit_in_mb = 512; aws_request_id = "cold"
            invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:cold"
            @staticmethod
            def get_remaining_time_in_millis(): return 30000
        t1 = time.perf_counter()
        try:
            app.handler(event, Context())
        except Exception:
            pass  # an event for an event that does not exist is refused: the path still ran
        first = time.perf_counter() - t1
print(json.dumps({"import": imported, "first": first}))
"""

SAMPLES = {
    "api": "api-standings.json",
    "play": "iot-play.json",
    "timers": "timers.json",
    "score": "score.json",
}


def env() -> dict[str, str]:
    return {
        **os.environ,
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ACCESS_KEY_ID": "cold",
        "AWS_SECRET_ACCESS_KEY": "cold",
        "POWERTOOLS_METRICS_NAMESPACE": "Deckhand",
        "POWERTOOLS_TRACE_DISABLED": "1",
        "POWERTOOLS_METRICS_DISABLED": "true",
        "DECKHAND_TABLE": "deckhand-test",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def importtime(name: str) -> list[tuple[int, int, str]]:
    """(self µs, cumulative µs, module) from -X importtime for ``import app`` of one handler."""
    proc = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-c",
            PROBE,
            str(ROOT / "layers" / "shared"),
            str(ROOT / "functions" / name),
            "",
        ],
        capture_output=True,
        text=True,
        env=env(),
        check=True,
    )
    rows = []
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, cumulative, module = (part.strip() for part in line.removeprefix("import time:").split("|"))
        rows.append((int(self_us), int(cumulative), module))
    return rows


def timed(name: str) -> dict[str, float]:
    sample = SAMPLES.get(name)
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            PROBE,
            str(ROOT / "layers" / "shared"),
            str(ROOT / "functions" / name),
            str(ROOT / "events" / sample) if sample else "",
            str(ROOT / "tests"),
        ],
        capture_output=True,
        text=True,
        env=env(),
        check=True,
    )
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    print("Cold start per handler — a fresh interpreter each, best of 3 (ms)")
    print(
        f"  {'handler':<8} {'import':>8} {'first call':>11}   what dominates the import (own ms by package)"
    )
    for name in HANDLERS:
        runs = [timed(name) for _ in range(REPEAT)]
        imported = min(r["import"] for r in runs) * 1000
        firsts = [r["first"] for r in runs if r["first"] is not None]
        first = f"{min(firsts) * 1000:9.1f}" if firsts else "        –"
        rows = importtime(name)
        own: dict[str, int] = {}
        for self_us, _, module in rows:  # each module's own time, summed by top-level package
            root = module.strip().split(".")[0]
            own[root] = own.get(root, 0) + self_us
        heavy = ", ".join(f"{m} {us / 1000:.0f}" for m, us in sorted(own.items(), key=lambda kv: -kv[1])[:6])
        print(f"  {name:<8} {imported:8.1f} {first:>11}   {heavy}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
