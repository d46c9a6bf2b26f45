"""Issue 33, also seen: right after ``kill -9`` a venue could not be restarted ("a venue … is already
running") while the killed process was still a zombie its parent had not reaped."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from deckhand_local.venue.local import process_started


def test_a_killed_process_not_yet_reaped_counts_as_gone():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert process_started(child.pid) is not None
        child.send_signal(signal.SIGKILL)
        deadline = time.monotonic() + 5
        while process_started(child.pid) is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert process_started(child.pid) is None  # a zombie still: not waited for yet
    finally:
        child.kill()
        child.wait()
