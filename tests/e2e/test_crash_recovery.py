"""``make test``'s crash soak: a venue process killed with SIGKILL in the middle of a round and
started again on its data; the devices reconnect by themselves, the event completes, nothing the
devices were told was accepted is lost or applied twice, every board replays, and the results are
those of the same event played without the kill (bench/crash_bench.py does this 20 times)."""

import io

from deckhand_local.venue.crash_report import differences
from deckhand_local.venue.crash_soak import MID_BOARD, CrashSoak


def soak(tmp_path, kills, **changes):
    """The small crash soak (``changes``: CrashSoak's arguments changed, e.g. another rule set)."""
    log = io.StringIO()
    shape = {
        "seed": "crash-test",
        "tables": 2,
        "groups": 1,
        "rounds": 1,
        "boards": 2,
        "dealers": 1,
        "kinds": (MID_BOARD,),
        "gap_seconds": (3.0, 6.0),
        "tick_seconds": 0.1,
        "stall_seconds": 45.0,
    }
    result = CrashSoak(
        work=tmp_path / f"{changes.get('seed', 'crash-test')}-kills-{kills}",
        log=log,
        kills=kills,
        **{**shape, **changes},
    ).run()
    assert result.stalled is None, result.stalled + "\n" + log.getvalue()
    return result


def test_a_venue_killed_mid_round_restarts_and_the_event_completes_unchanged(tmp_path):
    baseline = soak(tmp_path, kills=0)
    crashed = soak(tmp_path, kills=1)
    assert [k.kind for k in crashed.kills] == [MID_BOARD]
    assert not crashed.device_errors
    a = crashed.audit
    assert crashed.accepted > 0 and a["boards"] == 4
    assert (a["lost"], a["doubled"], a["replay_mismatches"], a["results_missing"]) == (0, 0, 0, 0)
    assert differences(baseline.results, crashed.results) == 0
    # The restarted venue stopped the clocks for the outage: nobody's decision ran out meanwhile.
    assert len(crashed.stopped) == 1 and crashed.stopped[0] > 0
    assert baseline.stopped == [] and crashed.timeouts == baseline.timeouts == 0


def test_a_venue_killed_mid_match_restarts_and_the_matches_complete_unchanged(tmp_path):
    """A match event (pairs, boards carried from one to the next): the venue killed mid-board and
    started again; the match goes on from the board in play, nothing lost or applied twice, and every
    match ends as it did without the kill."""
    from deckhand.engines.registry import RULESETS, game
    from deckhand.engines.spec import Competition

    ruleset = next(r for r in RULESETS if game(r).competition is Competition.MATCH)

    def match_soak(kills):
        changes = {"seed": "crash-match", "gap_seconds": (4.0, 8.0), "tick_seconds": 0.05}
        return soak(tmp_path, kills, ruleset=ruleset, **changes)

    baseline = match_soak(0)
    crashed = match_soak(1)
    assert [k.kind for k in crashed.kills] == [MID_BOARD] and not crashed.device_errors
    a = crashed.audit
    assert crashed.accepted > 0 and a["boards"] == 4
    assert (a["lost"], a["doubled"], a["replay_mismatches"], a["results_missing"]) == (0, 0, 0, 0)
    assert len(baseline.results["totals"]) == 4
    assert differences(baseline.results, crashed.results) == 0
