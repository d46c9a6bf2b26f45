"""Fuzzing at scale: the hypothesis properties of tests/test_fuzz.py with ≥10,000 cases each (device
messages and API bodies), printing what the server answered. Zero unhandled exceptions and zero state
changes from refused input, or it fails with the case.

Run with ``make bench-fuzz`` (about half an hour on this machine) or ``python bench/fuzz_bench.py [N]``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    examples = sys.argv[1] if len(sys.argv) > 1 else "10000"
    print(f"Fuzzing with {examples} cases each (device messages, API bodies) …", flush=True)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-s",
            "-p",
            "no:cacheprovider",
            str(ROOT / "tests" / "test_fuzz.py"),
        ],
        env={**os.environ, "FUZZ_EXAMPLES": examples, "POWERTOOLS_METRICS_DISABLED": "true"},
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    for line in proc.stdout.splitlines():
        if line.startswith(("device messages:", "API bodies:")) or " passed" in line or " failed" in line:
            print(" ", line)
    if proc.returncode:
        print(proc.stdout[-4000:], proc.stderr[-2000:], file=sys.stderr)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
