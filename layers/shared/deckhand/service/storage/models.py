"""The single DynamoDB table as PynamoDB models; key design and access patterns in docs/data-model.md.

Table name, region and endpoint come from the environment (``DECKHAND_TABLE``, ``AWS_REGION``,
``DECKHAND_DYNAMODB_ENDPOINT``) or :func:`configure`, so the same code runs on AWS, against moto's
server in the local venue, and against moto in-process in tests.
"""

from __future__ import annotations

import json
import os
from typing import Any

from pynamodb.attributes import (
    Attribute,
    BooleanAttribute,
    NumberSetAttribute,
    UnicodeAttribute,
    UnicodeSetAttribute,
    VersionAttribute,
)
from pynamodb.attributes import JSONAttribute as _JSONAttribute
from pynamodb.connection import Connection, TableConnection
from pynamodb.constants import NUMBER
from pynamodb.models import Model
from pynamodb.transactions import TransactWrite


class JSONAttribute(_JSONAttribute):
    """JSON stored compactly (no spaces): every byte of an item is paid for on every write."""

    def serialize(self, value: Any) -> str | None:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False) if value is not None else None


class IntAttribute(Attribute[int]):
    """A DynamoDB number that is always a whole number (counts, rounds, milliseconds)."""

    attr_type = NUMBER

    def serialize(self, value: int) -> str:
        return str(int(value))

    def deserialize(self, value: str) -> int:
        return int(value)


class _Base(Model):
    class Meta:
        table_name = os.environ.get("DECKHAND_TABLE", "deckhand-dev")
        region = os.environ.get("AWS_REGION", os.environ.get("AWS_DEFAULT_REGION", "us-east-1"))
        host = os.environ.get("DECKHAND_DYNAMODB_ENDPOINT") or None

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)

    @classmethod
    def _get_connection(cls) -> TableConnection:
        """Every model on one botocore client: PynamoDB builds one per model class otherwise, ~0.2 s of
        CPU apiece on a handler's first calls (a cold start pays it for each item type it touches)."""
        table = super()._get_connection()
        shared = shared_connection()
        if table.connection is not shared:
            if table.table_name not in shared._tables:
                shared.add_meta_table(table.connection.get_meta_table(table.table_name))
            table.connection = shared
        return table


class EventItem(_Base):
    """pk EVENT#<id>, sk META."""

    name = UnicodeAttribute()
    ruleset = UnicodeAttribute()
    grade = UnicodeAttribute()
    format = UnicodeAttribute()  # pvp (players vs players) | pva (players vs AI)
    rounds = IntAttribute()
    boards_per_round = IntAttribute()
    groups = IntAttribute()
    venue = BooleanAttribute(default=True)
    ranking = UnicodeAttribute(default="competition")
    seed = UnicodeAttribute()  # recorded: round-1 seating is reproducible from it
    deal_seed = UnicodeAttribute(null=True)  # unrated events only: deals derived from it, not secret
    owner = UnicodeAttribute(null=True)  # the verified identity that created it (none: made in-process)
    roles = JSONAttribute(default=dict)  # identity → "organiser" | "referee", granted by the owner
    # registering | dealing | playing | between_rounds | finished
    status = UnicodeAttribute(default="registering")
    current_round = IntAttribute(default=0)
    deal_error = UnicodeAttribute(null=True)  # why the last deal failed (the event went back to before it)
    # Match events (pairs play matches, RULES.md §4.3): the competition's settings (service/organiser/match_settings.py)
    # and the rule set's options (its typed ``Options``: an end mode, …). None for duplicate events.
    match = JSONAttribute(null=True)
    options = JSONAttribute(null=True)
    start = UnicodeAttribute(null=True)  # the event's date (YYYY-MM-DD), for its results pages
    created_at = IntAttribute()
    version = VersionAttribute()


class PlayerItem(_Base):
    """pk EVENT#<id>, sk PLAYER#<player id>."""

    name = UnicodeAttribute()
    number = IntAttribute()  # fixed registration number (seed 001 appendix 3)
    silver_points = IntAttribute(default=0)
    red_points = IntAttribute(default=0)
    region = UnicodeAttribute(null=True)  # optional, as registered; shown in the export
    registration = UnicodeAttribute(null=True)  # the digest of the request that registered the player
    active = BooleanAttribute(default=True)  # False: withdrawn — keeps its results, seated no more


class CounterItem(_Base):
    """pk EVENT#<id>, sk COUNTER#PLAYERS: the last registration number given (changed only by a
    compare-and-set, in the same transaction as the registration that takes the numbers)."""

    value = IntAttribute()


class RegistrationItem(_Base):
    """pk EVENT#<id>, sk REGISTRATION#<digest>: one registration request — its first number, its size,
    and whether all its players are written (a retry of an unfinished one completes it)."""

    first = IntAttribute()
    size = IntAttribute()  # players in the request
    done = BooleanAttribute(default=False)


class TeamItem(_Base):
    """pk EVENT#<id>, sk TEAM#<pair id>: a pair of a match event (two players), with its registration
    number, region and club (Swiss round 1 and the club rule read them)."""

    name = UnicodeAttribute()
    number = IntAttribute()
    players = JSONAttribute()  # [{"id", "name"}, {"id", "name"}]: the pair's two players
    seed = IntAttribute(null=True)  # strength, 1 the strongest (a Swiss round 1 by snake)
    region = UnicodeAttribute(null=True)
    club = UnicodeAttribute(null=True)
    active = BooleanAttribute(default=True)  # False: withdrawn (results kept, no longer paired)
    registration = UnicodeAttribute(null=True)  # the digest of the request that registered it


class PairPlayerItem(_Base):
    """pk EVENT#<id>, sk PAIRPLAYER#<player>: a player's place in one pair, written in the same
    transaction as the pair (only if absent): two registrations at once never share a player."""

    team = UnicodeAttribute()
    registration = UnicodeAttribute()


class TableItem(_Base):
    """pk EVENT#<id>, sk TABLE#<venue table id>: which device sits at each seat, which deals."""

    order = IntAttribute()
    seats = JSONAttribute()  # thing name per seat ("" = none)
    dealer = UnicodeAttribute(default="")
    eboard = UnicodeAttribute(default="")  # a board game's electronic board (device_io/eboard_reports.py)


class DeviceItem(_Base):
    """pk DEVICE#<thing name>, sk META: the one seat (or dealing table) a device may act for, or the
    player a player's own device (a join link's, role ``player``) acts for wherever they sit."""

    event_id = UnicodeAttribute()
    table = UnicodeAttribute()  # "" for a player device: it follows its player from table to table
    # -1: the table's automatic dealer; -2: a player device (no fixed seat); -3: an electronic board
    seat = IntAttribute()
    role = UnicodeAttribute(null=True)  # None: a handset or dealing table; "player": a join link's device
    player = UnicodeAttribute(null=True)  # a player device's player
    lang = UnicodeAttribute(null=True)  # the language its screens are drawn in (hello's lang; None: English)


class PresenceItem(_Base):
    """pk DEVICE#<thing name>, sk PRESENCE: whether the device's MQTT connection is up, since when
    (the broker's lifecycle event time), written only by a newer event (service/storage/presence.py):
    an item of its own, so a device's assignment is never rewritten by its connecting."""

    online = BooleanAttribute()
    since = IntAttribute()  # ms: the lifecycle event's timestamp
    reason = UnicodeAttribute(null=True)  # a disconnect's disconnectReason


class LinkItem(_Base):
    """pk EVENT#<id>, sk LINK#<player>: the player's join link. Only the SHA-256 of its secret is kept
    (the token is shown once, to the organiser who issued it); a new link replaces the old one."""

    link_id = UnicodeAttribute()  # the thing is web-<link id>
    digest = UnicodeAttribute()  # hex SHA-256 of the secret
    created_at = IntAttribute()  # ms
    revoked = BooleanAttribute(default=False)


class RoundItem(_Base):
    """pk EVENT#<id>, sk ROUND#<nnn>.

    A seating over DynamoDB's 400 KB item limit (a national field's) is kept in parts
    (service/storage/seating.py, read by ``round_seating``): ``seating`` empty, ``seating_parts`` their
    count (None: whole here), ``seating_digest`` its version (a re-seat is conditional on it; None: a
    round stored before it was kept, its seating whole)."""

    status = UnicodeAttribute()  # playing | done
    seating = JSONAttribute()  # [{"group", "table", "seats": [player|null]}]
    seating_parts = IntAttribute(null=True)
    seating_digest = UnicodeAttribute(null=True)
    boards = JSONAttribute()
    commitment = UnicodeAttribute()
    salt = UnicodeAttribute()  # secret until the round is done
    boards_total = IntAttribute()
    started_at = IntAttribute()
    ended_at = IntAttribute(null=True)
    match = BooleanAttribute(null=True)  # a round of matches: its boards are the matches' (MatchItem)
    byes = JSONAttribute(null=True)  # a round of matches: the pair that sits out (scores a bye)
    forfeits = JSONAttribute(null=True)  # [[winner, loser], …]: games a withdrawn pair forfeits


class PlacementItem(_Base):
    """pk EVENT#<id>, sk ROUND#<nnn>#AT#<player>: where a seated player sits in the round, so their own
    device finds its seat by one small read; written from the round's seating once it is stored, and by
    a re-seat in its own transaction (service/storage/seating.py). None for a player sitting out."""

    table = UnicodeAttribute()
    seat = IntAttribute()
    group = UnicodeAttribute()
    digest = UnicodeAttribute()  # the seating's version it was written from


class ProgressItem(_Base):
    """pk EVENT#<id>, sk PROGRESS#<nnn>: the round's count of scored boards, kept apart from the round
    item (whose seating grows with the field) so every scoring writes and reads a tiny item.

    Counted in shards (service/boards/round_progress.py): ``shard_totals`` the boards each shard counts,
    ``shards_done`` the shards whose count is complete. A round stored without them counts here, in
    ``boards_done``. A duplicate round is counted board by board instead: ``board_shards`` its boards and
    each group's shard totals (tables a shard counts), ``boards_scored`` the boards ("<group>#<board>")
    whose matchpoints are written."""

    boards_total = IntAttribute()
    boards_done = IntAttribute(default=0)
    shard_totals = JSONAttribute(null=True)
    shards_done = NumberSetAttribute(null=True)
    board_shards = JSONAttribute(null=True)  # {"boards": [...], "groups": {"<group>": [tables a shard]}}
    boards_scored = UnicodeSetAttribute(null=True)


class BoardProgressItem(_Base):
    """pk EVENT#<id>, sk PROGRESS#<nnn>#B<group>#<board>: a board's completion in one group — the shards
    whose tables have all finished it (a set: a retry adds nothing), and ``rev``, the referee's
    adjustments of its results so far (its matchpoints are written again, under a newer ``rev``)."""

    shards_done = NumberSetAttribute(null=True)
    rev = IntAttribute(default=0)


class ProgressShardItem(_Base):
    """pk EVENT#<id>, sk PROGRESS#<nnn>#S<sss>: one shard of the round's count of scored boards, so the
    tables' results are counted into many small items, not one hot one; in a duplicate round, sk
    PROGRESS#<nnn>#B<group>#<board>#S<sss>: one shard of a board's count of tables that finished it."""

    boards_done = IntAttribute(default=0)


class DealItem(_Base):
    """pk EVENT#<id>, sk DEAL#<nnn>#<group>#<board>: the shuffled card order (secret)."""

    order = JSONAttribute()


class BoardStateItem(_Base):
    """pk BOARD#<event>#<nnn>#<table>#<board>, sk STATE: the live board, its log, versioned."""

    event_id = UnicodeAttribute()
    round = IntAttribute()
    group = UnicodeAttribute()
    table = UnicodeAttribute()
    board = UnicodeAttribute()
    position = IntAttribute()  # order of the board in the round (0 first)
    ruleset = UnicodeAttribute()
    players = JSONAttribute()  # per seat; "" = AI seat
    names = JSONAttribute(null=True)  # per seat: the player's registered name, shown on the handset
    devices = JSONAttribute()  # thing name per seat ("" = none)
    # The language each seat's device draws in ({"<seat>": "zh-CN"}; a seat not listed: English): from
    # the devices when the board is made, the board before when it starts, a device's hello since.
    langs = JSONAttribute(null=True)
    dealer = UnicodeAttribute(default="")
    eboard = UnicodeAttribute(default="")  # the table's electronic board: it gets the position (``pos``)
    next_board = UnicodeAttribute(default="")  # the board this table plays after this one
    previous_board = UnicodeAttribute(default="")  # the board before it (its outcome is carried over)
    carry = JSONAttribute(null=True)  # what the board started from (games whose boards carry); for replay
    status = UnicodeAttribute()  # waiting | playing | ended | stopped
    state = UnicodeAttribute()  # engine state JSON ("" until a carrying game's board starts)
    log = JSONAttribute(default=list)  # append-only: every accepted action
    asked_at = JSONAttribute(default=list)  # ms, per seat: when asked to act
    play_ms = JSONAttribute(default=list)  # ms on own turns, per seat
    deadline = IntAttribute(default=0)  # ms; 0 = no timed decision pending
    dealt_ok = BooleanAttribute(null=True)
    stop_reason = UnicodeAttribute(null=True)
    commitment = UnicodeAttribute(
        null=True
    )  # the round's deal commitment: its first board's handsets show it
    in_match = BooleanAttribute(null=True)  # a board of a match (MatchItem): the next one is made as it ends
    clock_ends_at = IntAttribute(default=0)  # ms; a match's clock: then no new board (0 = no clock)
    # A game dealt in steps (seats act during the deal): ms between two cards the server gives out
    # (0: all at once), and when it began giving them (0: not begun, or a dealing table's reports pace it).
    deal_ms = IntAttribute(default=0)
    deal_from = IntAttribute(default=0)
    time_up_told = BooleanAttribute(null=True)  # the match's clock ran out and the board was told so
    stopped_for = IntAttribute(default=0)  # ms: the start of the last venue outage its clocks stopped for
    version = VersionAttribute()


class MatchItem(_Base):
    """pk EVENT#<id>, sk MATCH#<nnn>#<table>: one match of a round at one table, board after board.

    Its boards are made one at a time: each in the same transaction as the board that ended before it,
    and the match's result in the same transaction as the board that ended the match."""

    round = IntAttribute()
    table = UnicodeAttribute()
    number = IntAttribute()  # the table's number in the round (1 first): the deal derivation names it
    pairs = JSONAttribute()  # [pair at seats 0/2, pair at seats 1/3]
    players = JSONAttribute()  # player id per seat
    devices = JSONAttribute()  # thing name per seat ("" = none)
    dealer = UnicodeAttribute(default="")
    eboard = UnicodeAttribute(default="")  # the table's electronic board (a board game), its boards' too
    # The event's settings the match plays by: games a round, same boards, the rule options, and the
    # first board of each game (best of three).
    rules = JSONAttribute(default=dict)
    boards = JSONAttribute(default=list)  # board ids made so far, in order ("1", "2", …)
    games = JSONAttribute(default=list)  # finished games: {"mp": [a, b], "lp": [a, b], "ended_by", "boards"}
    status = UnicodeAttribute(default="playing")  # playing | done
    started_at = IntAttribute()  # ms: the match's clock (end by time) runs from here
    clock_ends_at = IntAttribute(default=0)  # ms: no new board after this (0 = no clock)
    result = JSONAttribute(null=True)  # {"mp": [a, b], "lp": [a, b], "kind": played|forfeit}
    stopped_for = IntAttribute(default=0)  # ms: the start of the last venue outage its clock stopped for
    version = VersionAttribute()


class PairingItem(_Base):
    """pk EVENT#<id>, sk PAIRING#<nnn>: the pairing of a round, stored before it starts (Swiss: when the
    round before ends) for the organiser to see; an override replaces it (with its warnings, logged)."""

    pairs = JSONAttribute()  # [[pair, pair], …], the higher-standing pair first
    bye = UnicodeAttribute(null=True)
    rests = JSONAttribute(null=True)  # a round robin's pairs without a game this round (no score)
    forfeits = JSONAttribute(null=True)  # [[winner, loser], …]: scheduled games of a withdrawn pair
    walkovers = JSONAttribute(null=True)  # a bracket's first round: pairs on without a game
    labels = JSONAttribute(null=True)  # per table of ``pairs``: its bracket match (W1-1, L2-1, F, 3rd)
    stage = UnicodeAttribute(null=True)  # swiss | group | knockout
    seeds = JSONAttribute(null=True)  # the knockout's first round after a Swiss: its seeds, kept
    cuts = JSONAttribute(null=True)  # a unit's first round: {"<end of unit>": [pairs cut]}, kept
    source = UnicodeAttribute()  # swiss | schedule | knockout | override
    warnings = JSONAttribute(default=list)
    reason = UnicodeAttribute(null=True)  # an override's reason


class ResultItem(_Base):
    """pk EVENT#<id>, sk RESULT#<nnn>#<table>#<board>: one table's result of one board."""

    round = IntAttribute()
    group = UnicodeAttribute()
    table = UnicodeAttribute()
    board = UnicodeAttribute()
    players = JSONAttribute()
    scores = JSONAttribute()
    play_time = JSONAttribute()  # seconds per seat
    detail = JSONAttribute()  # the engine's result
    adjusted = JSONAttribute(null=True)  # referee adjustment {"scores", "reason", "by"}


class StandingsItem(_Base):
    """pk EVENT#<id>, sk STANDINGS#<nnn>: standings after round nnn (the competition core's output).

    A document over DynamoDB's 400 KB item limit (a national field's) is kept in parts
    (service/storage/parts.py): ``document`` empty, ``parts`` their count, ``digest`` the
    version their keys carry."""

    document = JSONAttribute()
    parts = IntAttribute(null=True)
    digest = UnicodeAttribute(null=True)


class MatchpointsItem(_Base):
    """pk EVENT#<id>, sk MATCHPOINTS#<nnn>#<group>#<board>: one board's comparison in one group (every
    table's result and the matchpoints, places and rank points of each seat's comparison), written once
    its last table has finished it, under ``rev`` (its BoardProgressItem's when computed: a referee's
    adjustment writes it again). Large ones in parts, as the standings (``parts``, ``digest``)."""

    document = JSONAttribute()
    parts = IntAttribute(null=True)
    digest = UnicodeAttribute(null=True)
    rev = IntAttribute(default=0)


class PartItem(_Base):
    """pk EVENT#<id>, sk <head's sk>#<digest>#P<ppp> (STANDINGS#<nnn>…, MATCHPOINTS#<nnn>#<group>#<board>…
    or ROUND#<nnn>…): one part of a large document's JSON (service/storage/parts.py)."""

    chunk = UnicodeAttribute()


class AuditItem(_Base):
    """pk EVENT#<id>, sk AUDIT#<ms>#<id>: referee actions, append-only."""

    kind = UnicodeAttribute()
    detail = JSONAttribute()
    by = UnicodeAttribute()
    at = IntAttribute()


class ActiveItem(_Base):
    """pk ACTIVE, sk <event>#<nnn>: rounds in play, for the timers' sweep."""

    event_id = UnicodeAttribute()
    round = IntAttribute()


class KeptItem(_Base):
    """pk EVENT#<id>, sk KEPT#<player>: the player's last choice a board game keeps for their next
    game in the event (a setup, as sent, whichever side), written with the game's end."""

    choice = JSONAttribute()
    board = UnicodeAttribute()  # where it was made: <round>/<table>/<board>


ALL_MODELS: tuple[type[_Base], ...] = (
    EventItem,
    PlayerItem,
    CounterItem,
    RegistrationItem,
    TeamItem,
    PairPlayerItem,
    TableItem,
    DeviceItem,
    PresenceItem,
    LinkItem,
    RoundItem,
    PlacementItem,
    ProgressItem,
    ProgressShardItem,
    BoardProgressItem,
    DealItem,
    BoardStateItem,
    MatchItem,
    PairingItem,
    ResultItem,
    StandingsItem,
    MatchpointsItem,
    PartItem,
    AuditItem,
    ActiveItem,
    KeptItem,
)


_CONNECTIONS: dict[tuple[str | None, str | None], Connection] = {}


def configure(*, table_name: str | None = None, host: str | None = None, region: str | None = None) -> None:
    """Point every model at a table (and endpoint): used by tests and the local venue."""
    models: list[type[_Base]] = [_Base, *ALL_MODELS]
    for model in models:
        meta = model.Meta
        if table_name is not None:
            meta.table_name = table_name
        if host is not None:
            meta.host = host
        if region is not None:
            meta.region = region
        model._connection = None
    _CONNECTIONS.clear()


def create_table() -> None:
    """Create the table where it does not exist yet (tests and the local venue)."""
    if not _Base.exists():
        _Base.create_table(billing_mode="PAY_PER_REQUEST", wait=True)


def shared_connection() -> Connection:
    """The one connection (botocore client) of the models' endpoint: a new one costs ~0.2 s of CPU."""
    key = (_Base.Meta.region, _Base.Meta.host)
    connection = _CONNECTIONS.get(key)
    if connection is None:
        connection = _CONNECTIONS[key] = Connection(region=key[0], host=key[1])
    return connection


def transaction() -> TransactWrite:
    """An all-or-nothing write across items, on the same table, endpoint and client as the models."""
    return TransactWrite(connection=shared_connection())
