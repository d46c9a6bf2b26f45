"""`deckhand demo`'s progress lines: tables waiting only when some are, every leader of a tie."""

import io
from types import SimpleNamespace

from deckhand_local.venue.demo_event import DemoEvent, leaders


def row(name, total):
    return (name, total, f"{total:.0f}")


def test_the_leaders_are_the_first_three_and_everyone_level_with_the_third():
    assert leaders([row("A", 9), row("B", 8), row("C", 7), row("D", 6)]) == "A 9, B 8, C 7"
    assert leaders([row("A", 9), row("B", 8)]) == "A 9, B 8"
    # Four level at the top: all four, never three picked out of them.
    four = [row("A", 40), row("B", 40), row("C", 40), row("D", 40), row("E", 30)]
    assert leaders(four) == "A 40, B 40, C 40, D 40"
    # More than five would be named: those ahead, then the tie counted.
    many = [row("Li", 114), *(row(f"P{i}", 111) for i in range(6)), row("Z", 100)]
    assert leaders(many) == "Li 114, 6 tied on 111"
    assert leaders([row(f"P{i}", 40) for i in range(8)]) == "8 tied on 40"


def test_match_leaders_are_level_on_match_and_level_points():
    rows = [("Pair 1", (6, 40), "6 MP 40 LP"), ("Pair 2", (4, 30), "4 MP 30 LP")]
    rows += [("Pair 3", (4, 28), "4 MP 28 LP"), ("Pair 4", (4, 28), "4 MP 28 LP"), ("Pair 5", (4, 20), "")]
    assert leaders(rows) == "Pair 1 6 MP 40 LP, Pair 2 4 MP 30 LP, Pair 3 4 MP 28 LP, Pair 4 4 MP 28 LP"


def progress(status):
    log = io.StringIO()
    demo = SimpleNamespace(_last_line="", say=lambda text: log.write(text + "\n"))
    DemoEvent._progress(demo, status)  # type: ignore[arg-type]
    return log.getvalue()


def board(status):
    return {"status": status}


def test_tables_waiting_for_the_others_are_said_only_when_some_are():
    playing = {"table": "T1", "boards": [board("ended"), board("playing")]}
    done = {"table": "T2", "boards": [board("ended"), board("ended")]}
    status = {"round": 1, "boards_done": 1, "boards_total": 4, "tables": [playing, playing]}
    assert progress(status) == "  round 1: boards 1/4 done\n"
    status = {"round": 1, "boards_done": 3, "boards_total": 4, "tables": [playing, done]}
    assert progress(status) == "  round 1: boards 3/4 done, 1 table(s) waiting for the others\n"
    stopped = {"table": "T1", "boards": [board("stopped"), board("waiting")]}
    status = {"round": 2, "matches_done": 0, "matches_total": 2, "tables": [stopped, playing]}
    assert (
        progress(status)
        == "  round 2: matches 0/2 done (1 boards played), 1 board(s) stopped for a referee\n"
    )
