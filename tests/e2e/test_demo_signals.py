"""``deckhand demo`` stopped with SIGTERM (a terminal closed, ``kill``, a CI step's timeout) leaves
nothing running: the database, broker and venue it started go with it, as they do on Ctrl-C."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (read from /proc: no dependency for one test)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_demo_stopped_with_sigterm_stops_everything_it_started(tmp_path):
    command = [sys.executable, "-m", "deckhand_local.cli.main", "demo", "--game", "bigtwo"]
    proc = subprocess.Popen(
        [*command, "--seed", "sigterm", "--out", str(tmp_path / "out")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        for line in proc.stdout:
            if line.startswith("Round 1"):
                break
        else:
            raise AssertionError(f"the demo did not start a round: {proc.communicate()[1]}")
        started = descendants(proc.pid)
        assert started, "the demo runs its database and broker as processes of its own"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 128 + signal.SIGTERM and "Traceback" not in err, err
        deadline = time.monotonic() + 20
        while any(alive(p) for p in started) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [p for p in started if alive(p)], "left running after SIGTERM"
    finally:
        if proc.poll() is None:
            proc.kill()
