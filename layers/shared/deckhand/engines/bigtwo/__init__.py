"""Big Two (锄大地), rule set ``bigtwo-2017`` (RULES.md §2)."""

RULESET = "bigtwo-2017"
SEATS = 4
HAND_SIZE = 13
DECISION_MS = 10_000  # show and double: 10 s each, then "no" (RULES.md §2)
D3 = 0  # rank 3 (index 0), diamonds (suit 0)
