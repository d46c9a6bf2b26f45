"""Junqi (军棋 / 陆战棋) in umpire form, rule set ``junqi-2004`` (RULES.md §6.3)."""

RULESET = "junqi-2004"
SEATS = 2  # seat 0 plays Red (moves first), seat 1 Blue; the match swaps seats game by game (§6.5)
