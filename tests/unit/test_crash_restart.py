"""The crash soak starts a venue that failed to start again, as its operator would, and reports the
failure as a finding instead of losing the whole run's report to it; a venue that never comes back is
a stall."""

from __future__ import annotations

import io

import pytest
from deckhand.errors import VenueStartError
from deckhand_local.venue.crash_soak import START_TRIES, CrashSoak, Stalled


class Venue:
    def __init__(self, failures: int) -> None:
        self.failures = failures

    def start(self) -> float:
        if self.failures:
            self.failures -= 1
            raise VenueStartError("the venue did not start: ConnectionRefusedError")
        return 3.0


def soak(tmp_path, failures: int) -> CrashSoak:
    run = CrashSoak(work=tmp_path, seed="s", log=io.StringIO())
    run.venue = Venue(failures)  # type: ignore[assignment]
    return run


def test_a_failed_start_is_noted_and_the_venue_started_again(tmp_path):
    run = soak(tmp_path, failures=1)
    assert run._restart() == 3.0
    assert len(run.result.failed_starts) == 1 and "ConnectionRefusedError" in run.result.failed_starts[0]
    assert "did not start" in run.log.getvalue()  # type: ignore[attr-defined]


def test_a_venue_that_never_starts_is_a_stall(tmp_path):
    run = soak(tmp_path, failures=START_TRIES)
    with pytest.raises(Stalled, match=f"did not start {START_TRIES} times"):
        run._restart()
    assert len(run.result.failed_starts) == START_TRIES
