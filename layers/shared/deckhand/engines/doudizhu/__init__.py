"""Dou Dizhu (斗地主 / 二打一), rule set ``doudizhu-2016`` (RULES.md §3)."""

RULESET = "doudizhu-2016"
SEATS = 3
HAND_SIZE = 17
DECK = 54
DECISION_MS = 10_000  # RULES.md §3: 10 s per bidding or doubling choice, then "no"
# A board all three players pass is redealt with the board's next pre-generated deal (the same at every
# table). A board carries this many deals; past the last one the first is dealt again.
DEALS_PER_BOARD = 4
