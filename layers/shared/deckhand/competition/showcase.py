"""The standings of an engine's showcase (``deckhand engine-demo``): its boards ranked as a duplicate
session, so the demonstration ends as an event would, while the engine itself knows no standings."""

from __future__ import annotations

from typing import IO

from ..engines.spec import ShowcaseScore
from .standings import BoardResults, Result, standings


def write_standings(boards: list[tuple[ShowcaseScore, ...]], ruleset: str, out: IO[str]) -> None:
    """Rank the showcase's players by matchpoints → rank points, with each one's total game score."""
    totals: dict[str, int] = {}
    for board in boards:
        for player, _, _, score in board:
            totals[player] = totals.get(player, 0) + score
    results = [
        BoardResults(str(number), 1, "1", tuple(Result(*score) for score in board))
        for number, board in enumerate(boards, start=1)
    ]
    out.write("\n=== Standings (matchpoints → rank points, RULES.md §1) ===\n")
    _, ranked = standings(results, ruleset)
    for s in ranked:
        decided = f"  (tie-break: {s.tie_break})" if s.tie_break else ""
        out.write(
            f"  {s.place:>2}. {s.player:<3} {s.total_cents / 100:>9.2f} rank points, "
            f"game score {totals[s.player]:+d}{decided}\n"
        )
