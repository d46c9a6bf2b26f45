"""Match play for partnership games (RULES.md §4.3): pairs, match results, pairings and rankings.

Partnership games are played by pairs, as matches at one table. This package holds the
competition side only (no engine, no AWS): entrants and results, the level-points table, Swiss,
round robin, knockouts, staged formats, the ranking chains and the JSON documents of the CLI.
"""
