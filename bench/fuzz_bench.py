"""Fuzzing at scale: the hypothesis properties of tests/integration/test_fuzz.py with ≥10,000 cases each (device
messages and API bodies), printing what the server answered. Zero unhandled exceptions and zero state
changes from refused input, or it fails with the case. The broker property
(tests/integration/test_fuzz_broker.py: random clients, credentials, topics and payloads against Aedes
and the embedded broker) runs a tenth as many cases, each a few real connections: no client ever
receives another thing's down topic, nothing reaches the server as a thing that did not send it.

Run with ``make bench-fuzz`` or ``python bench/fuzz_bench.py [N] [device|api|broker]``. Each property
runs on its own and prints its counts and time when it finishes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# name printed, test selected, its file, its cases' environment variable, cases per N
PROPERTIES = {
    "device": ("device messages", "fuzzed_device_messages", "test_fuzz.py", "FUZZ_EXAMPLES", 1.0),
    "api": ("API bodies", "fuzzed_api_bodies", "test_fuzz.py", "FUZZ_EXAMPLES", 1.0),
    "broker": ("broker clients", "fuzzed_broker_clients", "test_fuzz_broker.py", "FUZZ_BROKER_EXAMPLES", 0.1),
}


def main() -> int:
    examples = sys.argv[1] if len(sys.argv) > 1 else "10000"
    chosen = sys.argv[2:] or list(PROPERTIES)
    unknown = [c for c in chosen if c not in PROPERTIES]
    if unknown or not examples.isdigit():
        print(f"usage: fuzz_bench.py [cases] [{'|'.join(PROPERTIES)} …]", file=sys.stderr)
        return 2
    names = [PROPERTIES[c][0] for c in chosen]
    print(f"Fuzzing with {examples} cases ({', '.join(names)}; the broker a tenth) …", flush=True)
    failed = 0
    for name, selector, test_file, variable, share in (PROPERTIES[c] for c in chosen):
        cases = max(1, int(int(examples) * share))
        started = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "-k", selector]
            + [str(ROOT / "tests" / "integration" / test_file)],
            env={**os.environ, variable: str(cases), "POWERTOOLS_METRICS_DISABLED": "true"},
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        elapsed = time.monotonic() - started
        tally = [line for line in proc.stdout.splitlines() if line.startswith(f"{name}:")]
        verdict = "passed" if proc.returncode == 0 else "FAILED"
        print(
            f"  {name}: {verdict}, {cases} cases in {elapsed:.0f} s ({elapsed / cases * 1000:.0f} ms a case)"
        )
        for line in tally:
            print("   ", line)
        if proc.returncode:
            failed += 1
            print(proc.stdout[-4000:], proc.stderr[-2000:], file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
