"""Chinese checkers for two (跳棋), rule set ``checkers-2004`` (RULES.md §6.4)."""

RULESET = "checkers-2004"
SEATS = 2  # seat 0 plays Red (moves first), seat 1 Blue (who sits where is the match's lot: §6.5)
