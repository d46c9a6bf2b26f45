"""Junqi's pieces and the umpire's battle table (RULES.md §6.3 Pieces, Battles)."""

from __future__ import annotations

from ...errors import DeckhandError

MARSHAL, GENERAL, DIVISION, BRIGADE, REGIMENT, BATTALION = (
    "marshal",
    "general",
    "division",
    "brigade",
    "regiment",
    "battalion",
)
COMPANY, PLATOON, ENGINEER, MINE, BOMB, FLAG = "company", "platoon", "engineer", "mine", "bomb", "flag"
# Each token with how many a side owns and its rank (None: mine, bomb and flag have none).
TABLE: dict[str, tuple[int, int | None]] = {
    MARSHAL: (1, 9),
    GENERAL: (1, 8),
    DIVISION: (2, 7),
    BRIGADE: (2, 6),
    REGIMENT: (2, 5),
    BATTALION: (2, 4),
    COMPANY: (3, 3),
    PLATOON: (3, 2),
    ENGINEER: (3, 1),
    MINE: (3, None),
    BOMB: (2, None),
    FLAG: (1, None),
}
TOKENS = tuple(TABLE)
COUNTS = {token: n for token, (n, _) in TABLE.items()}
IMMOVABLE = frozenset({MINE, FLAG})  # never move, never attack
ATTACKER, DEFENDER, BOTH = "attacker", "defender", "both"


def token(value: object) -> str:
    if not isinstance(value, str) or value not in TABLE:
        raise DeckhandError(f"not a piece: {value!r} ({', '.join(TOKENS)})")
    return value


def battle(attacker: str, defender: str) -> str:
    """Who survives an attack: ``attacker`` (it takes the square), ``defender`` or ``both`` removed.
    The rules in order: the flag falls (a bomb too takes it, D5); a bomb removes both; a mine stops
    all but an engineer; else the higher rank wins and equal ranks both go."""
    if token(attacker) in IMMOVABLE:
        raise DeckhandError(f"a {attacker} never attacks")
    if token(defender) == FLAG:
        return ATTACKER
    if BOMB in (attacker, defender):
        return BOTH
    if defender == MINE:
        return ATTACKER if attacker == ENGINEER else DEFENDER
    mine, theirs = TABLE[attacker][1], TABLE[defender][1]
    assert mine is not None and theirs is not None
    return ATTACKER if mine > theirs else DEFENDER if mine < theirs else BOTH
