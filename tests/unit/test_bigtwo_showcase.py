"""``deckhand demo`` plays real boards: every board at both tables, zero-sum, reproducible."""

import io
import re

from deckhand.competition.showcase import write_standings
from deckhand.engines.bigtwo.showcase import run_demo


def demo_text(seed="test-seed", boards=2) -> str:
    out = io.StringIO()
    write_standings(run_demo(boards=boards, seed=seed, out=out), "bigtwo-2017", out)
    return out.getvalue()


def test_demo_plays_each_board_at_two_tables_with_zero_sum_scores():
    text = demo_text()
    assert text.count("=== Board ") == 2
    assert text.count("  table 1\n") == 2 and text.count("  table 2\n") == 2
    ends = re.findall(r"scores \[(-?\d+), (-?\d+), (-?\d+), (-?\d+)\]", text)
    assert len(ends) == 4
    assert all(sum(map(int, e)) == 0 for e in ends)
    assert "trick  1:" in text and "D3" in text.split("trick  1:")[1].split("\n")[0]
    assert "Duplicate comparison" in text and "Standings" in text
    assert text.count(" rank points, game score ") == 8


def test_demo_is_reproducible_and_depends_on_the_seed():
    assert demo_text() == demo_text()
    assert demo_text() != demo_text(seed="other")
