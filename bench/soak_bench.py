"""Fault soak through the local venue: many tables for 2 rounds with faults injected — handsets'
links cut right after an action, actions delivered twice, out-of-turn presses at the same moment,
the play handler failing on the first try of 1 % of messages, messages delayed until the next one
has been handled (reordered), a dealing table misreading a card.
Afterwards every board's log must replay to its stored state and result, with zero lost and zero
double-applied actions; the counts are printed.

Run with ``make bench-soak`` (or ``python bench/soak_bench.py [--tables N] [--broker mosquitto]``).
Exits non-zero when the audit finds a problem. Every simulated device is an MQTT client in this one
process (64 tables: 320 devices, over 640 sockets with the embedded broker's side), so the bench
raises its own descriptor limit first.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

from deckhand_local.venue.demo_event import DemoEvent, Faults


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--broker", choices=("aedes", "embedded", "mosquitto"), default="aedes")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4096 if hard == resource.RLIM_INFINITY else min(4096, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    started = time.monotonic()
    event = DemoEvent(
        seed="soak",
        out=Path(tempfile.mkdtemp(prefix="deckhand-soak-")),
        tables=args.tables,
        groups=max(1, args.tables // 16),
        rounds=args.rounds,
        boards=1,
        dealers=min(4, args.tables),
        faults=Faults(
            drop_every=40,
            duplicate_every=23,
            concurrent_every=31,
            misread_board="1",
            handler_fails=100,
            reorder_every=37,
        ),
        log=sys.stderr,  # the event's progress; the figures go to stdout
        round_limit=3600.0,
        broker=args.broker,
    )
    event.run()
    print(
        f"Soak: {args.tables} tables, {args.rounds} rounds, {args.broker} broker,"
        f" {time.monotonic() - started:.0f} s"
    )
    print("  injected:", event.injected, "+ 1 misread deal")
    print("  server answers:", event.outcomes)
    print("  messages that failed every try:", event.failed)
    print("  audit:", event.audit)
    a = event.audit
    problems = a["doubled"] + a["replay_mismatches"] + a["results_missing"] + a["lost"] + event.failed
    print(
        f"  lost actions: {a['lost']}, double-applied: {a['doubled']}"
        + (" — every accepted action is in a log that replays" if not problems else " — PROBLEMS FOUND")
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
