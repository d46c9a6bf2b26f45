"""Gomoku with renju restrictions (五子棋), rule set ``gomoku-renju`` (RULES.md §6.2)."""

RULESET = "gomoku-renju"
SEATS = 2  # seat 0 plays Black, seat 1 White (who sits where is the match's lot: §6.5)
