"""Every storage key of the one DynamoDB table (docs/data-model.md), built here and nowhere else.

One place spells the key layout, so a change of it is one change, and no module builds a key that
another reads differently.
"""

from __future__ import annotations

META = "META"  # the sort key of an event's or a device's own item
STATE = "STATE"  # the sort key of a table board
PRESENCE = "PRESENCE"  # the sort key of a device's presence (connected or not)
ACTIVE = "ACTIVE"  # the partition of the rounds in play (the timers' sweep)
PLAYER_PREFIX = "PLAYER#"
TABLE_PREFIX = "TABLE#"
RESULT_PREFIX = "RESULT#"
TEAM_PREFIX = "TEAM#"
MATCH_PREFIX = "MATCH#"


def round_key(n: int) -> str:
    """Rounds zero-padded, so sort keys sort in round order."""
    return f"{n:03d}"


def event_pk(event_id: str) -> str:
    return f"EVENT#{event_id}"


def device_pk(thing: str) -> str:
    return f"DEVICE#{thing}"


def board_pk(event_id: str, round_no: int, table: str, board: str) -> str:
    return f"BOARD#{event_id}#{round_key(round_no)}#{table}#{board}"


def player_sk(player: str) -> str:
    return f"{PLAYER_PREFIX}{player}"


def kept_sk(player: str) -> str:
    """A player's kept choice in an event (their last setup of a board game that keeps one), offered again in their next game."""
    return f"KEPT#{player}"


LINK_PREFIX = "LINK#"
# A player's own device (the browser client) is the thing "web-<link id>": no handset may take that name.
PLAYER_THING_PREFIX = "web-"


def link_sk(player: str) -> str:
    """A player's join link (one per player: a new one replaces it)."""
    return f"{LINK_PREFIX}{player}"


def player_thing(link_id: str) -> str:
    """The thing of the device a join link admits."""
    return f"{PLAYER_THING_PREFIX}{link_id}"


def link_of_thing(thing: str) -> str | None:
    """The link id of a player device's thing name (None: not a player device)."""
    return thing.removeprefix(PLAYER_THING_PREFIX) if thing.startswith(PLAYER_THING_PREFIX) else None


def team_sk(team: str) -> str:
    return f"{TEAM_PREFIX}{team}"


def team_of(sk: str) -> str:
    return sk.removeprefix(TEAM_PREFIX)


def pair_player_sk(player: str) -> str:
    """A player's place in a pair of a match event (one pair per player)."""
    return f"PAIRPLAYER#{player}"


def teams_counter_sk() -> str:
    """The match event's counter of pairs' registration numbers given."""
    return "COUNTER#TEAMS"


def match_sk(round_no: int, table: str) -> str:
    return f"{match_prefix(round_no)}{table}"


def match_prefix(round_no: int | None = None) -> str:
    """Every match of the event, or of one round."""
    return MATCH_PREFIX if round_no is None else f"{MATCH_PREFIX}{round_key(round_no)}#"


def bye_sk(round_no: int, team: str) -> str:
    """A bye of a round, among its matches: "~" is in no table's id, so it sorts after them."""
    return f"{match_prefix(round_no)}~bye~{team}"


def forfeit_sk(round_no: int, winner: str) -> str:
    """A game of a round robin that a withdrawn pair forfeits (no table), among the round's matches."""
    return f"{match_prefix(round_no)}~forfeit~{winner}"


def pairing_sk(round_no: int) -> str:
    return f"PAIRING#{round_key(round_no)}"


def table_sk(table: str) -> str:
    return f"{TABLE_PREFIX}{table}"


def players_counter_sk() -> str:
    """The event's counter of registration numbers given."""
    return "COUNTER#PLAYERS"


def registration_sk(digest: str) -> str:
    """One registration request, by the digest of its players: the numbers it was given."""
    return f"REGISTRATION#{digest}"


def round_sk(round_no: int) -> str:
    return f"ROUND#{round_key(round_no)}"


def placement_sk(round_no: int, player: str) -> str:
    """Where one player sits in a round (their own device finds its seat by this key alone)."""
    return f"{round_sk(round_no)}#AT#{player}"


def progress_sk(round_no: int) -> str:
    return f"PROGRESS#{round_key(round_no)}"


def progress_shard_prefix(round_no: int) -> str:
    return f"{progress_sk(round_no)}#S"


def progress_shard_sk(round_no: int, shard: int) -> str:
    return f"{progress_shard_prefix(round_no)}{shard:03d}"


def board_progress_sk(round_no: int, group: str, board: str) -> str:
    """A board's completion in one group: the set of its shards whose tables have all finished it."""
    return f"{progress_sk(round_no)}#B{group}#{board}"


def board_progress_prefix(round_no: int) -> str:
    """Every board's completion item and count shards of the round."""
    return f"{progress_sk(round_no)}#B"


def board_shard_sk(round_no: int, group: str, board: str, shard: int) -> str:
    """One shard of the count of a board's tables (in one group) that have finished it."""
    return f"{board_progress_sk(round_no, group, board)}#S{shard:03d}"


def matchpoints_sk(round_no: int, group: str, board: str) -> str:
    """A board's comparison in one group, written once all its tables have finished it."""
    return f"MATCHPOINTS#{round_key(round_no)}#{group}#{board}"


def part_sk(head_sk: str, digest: str, part: int) -> str:
    """One part of a document too large for its item (``head_sk``'s), keyed by the whole one's digest."""
    return f"{head_sk}#{digest}#P{part:03d}"


def deal_sk(round_no: int, group: int | str, board: str) -> str:
    return f"DEAL#{round_key(round_no)}#{group}#{board}"


def result_sk(round_no: int, table: str, board: str) -> str:
    return f"{result_prefix(round_no)}{table}#{board}"


def result_prefix(round_no: int | None = None) -> str:
    """Every result of the event, or of one round."""
    return RESULT_PREFIX if round_no is None else f"{RESULT_PREFIX}{round_key(round_no)}#"


def standings_sk(round_no: int) -> str:
    return f"STANDINGS#{round_key(round_no)}"


def standings_part_sk(round_no: int, digest: str, part: int) -> str:
    return part_sk(standings_sk(round_no), digest, part)


def active_sk(event_id: str, round_no: int) -> str:
    return f"{event_id}#{round_key(round_no)}"


AUDIT_PREFIX = "AUDIT#"

# The organiser API's idempotency records (service/storage/idempotency.py), written by Powertools: pk is this
# partition, sk is "<prefix>#<hash of caller, method, path and Idempotency-Key>". One partition is
# enough: organisers send a few requests a minute, and each record expires after a day (TTL).
IDEMPOTENCY_PK = "IDEMPOTENCY"
IDEMPOTENCY_SK_PREFIX = "REQUEST"

# The console on AWS (its Cognito sessions): a form's one-time token spent, a session signed
# out — written once (``attribute_not_exists``), each expiring by the table's TTL after a day at most.
CONSOLE_PK_PREFIX = "CONSOLE#"


def console_pk(digest: str) -> str:
    """The console's record of a spent form token or a signed-out session, by the hex SHA-256 of it."""
    return f"{CONSOLE_PK_PREFIX}{digest}"


def audit_sk(at_ms: int, token: str) -> str:
    """Audit entries sort by time; the token keeps two at the same millisecond apart."""
    return f"{AUDIT_PREFIX}{at_ms:015d}#{token}"


def event_of(pk: str) -> str:
    """The event id of an event item's partition key."""
    return pk.removeprefix("EVENT#")


def player_of(sk: str) -> str:
    return sk.removeprefix(PLAYER_PREFIX)


def table_of(sk: str) -> str:
    return sk.removeprefix(TABLE_PREFIX)
