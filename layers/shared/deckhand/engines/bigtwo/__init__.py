"""Big Two (锄大地), rule set ``bigtwo-2017`` (RULES.md §2)."""

RULESET = "bigtwo-2017"
SEATS = 4
HAND_SIZE = 13
D3 = 0  # rank 3 (index 0), diamonds (suit 0)
