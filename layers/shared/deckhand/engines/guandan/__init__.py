"""Guandan (掼蛋), rule set ``guandan-2023`` (RULES.md §4, seed 002)."""

RULESET = "guandan-2023"
SEATS = 4
HAND_SIZE = 27
DECKS = 2
