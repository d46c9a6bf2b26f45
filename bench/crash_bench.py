"""Crash soak through the local venue: a 16-table event whose venue process is killed with SIGKILL
at least 20 times (right after a round is dealt, at random moments mid-board, right after a board
ends while it is being scored) and started again on the same data; the simulated devices reconnect
by themselves. Then the audit, and the results compared with a run of the same seed without kills,
table by table, seat by seat: a later round is seated from standings whose ties play time (the
wall clock) decides, so its tables may be seated otherwise; the bots play from their cards alone, so
the scores are compared whoever sits there (``crash_report.compare``).

Run with ``make bench-crash`` (or ``python bench/crash_bench.py [--tables N] [--kills K]``). Prints:
accepted actions lost, applied twice, replay mismatches, the decisions that timed out in each run, the
outages the restarted venue stopped the clocks for, results equal or not. Exits non-zero on any
problem, and on a stall (it then says which tables and boards are stuck, in which state).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from deckhand_local.venue.crash_report import Comparison, after_restarts, compare
from deckhand_local.venue.crash_soak import KINDS, CrashSoak, SoakResult


def run(work: Path, args: argparse.Namespace, kills: int) -> SoakResult:
    return CrashSoak(
        work=work,
        seed=args.seed,
        log=sys.stderr,
        tables=args.tables,
        rounds=args.rounds,
        boards=args.boards,
        kills=kills,
        kinds=tuple(args.kinds.split(",")),
        stall_seconds=args.stall,
    ).run()


def near(soak: SoakResult) -> str:
    """How long after the venue last came back the soak's timed-out decisions ran out."""
    since = after_restarts(soak.timed_out_at, [k.back_at for k in soak.kills])
    if not since:
        return ""
    return f" (ran out {', '.join(f'{s:.0f}' for s in sorted(since))} s after a restart)"


def stopped(outages: list[int]) -> str:
    """The outages the restarted venue stopped the clocks for."""
    if not outages:
        return "never"
    seconds = [ms / 1000 for ms in outages]
    return f"{len(outages)} outages, median {statistics.median(seconds):.1f} s, max {max(seconds):.1f} s"


def outcome(comparison: Comparison | None) -> str:
    """Equal or not, and the tables of a later round seated otherwise (ties decided by play time)."""
    if comparison is None:
        return "not compared: a run stalled"
    if not comparison.equal:
        return f"DIFFER ({comparison.differ} scores/totals)"
    if not comparison.reseated:
        return "equal"
    rounds = ", ".join(f"round {r}: {n} of {t}" for r, (n, t) in comparison.reseated.items())
    return (
        f"equal seat by seat at every table ({rounds} tables seated otherwise, from standings whose"
        " ties play time decided: players' totals not compared)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--boards", type=int, default=3)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", default="crash")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"kill moments, of {', '.join(KINDS)}")
    parser.add_argument("--stall", type=float, default=90.0, help="seconds without progress that are a stall")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="deckhand-crash-"))
    try:
        print("Baseline (no kills) …", file=sys.stderr)
        baseline = run(work / "baseline", args, 0)
        print(f"Soak ({args.kills} kills) …", file=sys.stderr)
        soak = run(work / "soak", args, args.kills)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    kinds = {k: sum(1 for x in soak.kills if x.kind == k) for k in KINDS}
    restarts = [k.restart_seconds for k in soak.kills] or [0.0]
    reconnects = [k.reconnect_seconds for k in soak.kills] or [0.0]
    a = soak.audit
    stalled = soak.stalled or baseline.stalled
    comparison = compare(baseline.results, soak.results) if not stalled else None
    equal = comparison is not None and comparison.equal
    rows = [
        ("event", f"{args.tables} tables, {args.rounds} rounds × {args.boards} boards, seed {args.seed!r}"),
        ("kills", f"{len(soak.kills)} ({', '.join(f'{n} {k}' for k, n in kinds.items())})"),
        ("restart", f"median {statistics.median(restarts):.1f} s, max {max(restarts):.1f} s"),
        ("failed starts", f"{len(soak.failed_starts)} (each started again)"),
        ("devices back", f"median {statistics.median(reconnects):.1f} s, max {max(reconnects):.1f} s"),
        ("time", f"baseline {baseline.seconds:.0f} s, soak {soak.seconds:.0f} s"),
        ("accepted actions", f"baseline {baseline.accepted}, soak {soak.accepted}"),
        ("timed-out decisions", f"baseline {baseline.timeouts}, soak {soak.timeouts}{near(soak)}"),
        ("clocks stopped", stopped(soak.stopped)),
        ("lost", str(a.get("lost", "-"))),
        ("applied twice", str(a.get("doubled", "-"))),
        ("replay mismatches", str(a.get("replay_mismatches", "-"))),
        ("results missing", str(a.get("results_missing", "-"))),
        ("results", outcome(comparison)),
    ]
    print("Crash soak")
    for name, value in rows:
        print(f"  {name:<20} {value}")
    for label, result in (("baseline", baseline), ("soak", soak)):
        if result.stalled:
            print(f"  STALLED ({label}): {result.stalled}")
        if result.device_errors:
            print(f"  device errors ({label}): {result.device_errors[:5]}")
        for failed in result.failed_starts:
            print(f"  FAILED START ({label}, started again): {failed}")
    failed = baseline.failed_starts or soak.failed_starts
    problems = (
        stalled or failed or not equal or any(a.get(k) for k in ("lost", "doubled", "replay_mismatches"))
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
