"""Starting a round: Swiss seating, secure deals, a public commitment, and the first board at every table.

Dealing is retry-safe: the round item (with a fresh 256-bit secret) is written first and every deal
is derived from that secret, so a retried invocation rebuilds exactly the same boards. A deal that
cannot be made (too few tables registered) fails before the round item exists: the event goes back
to where it was, with the reason, for the organiser to fix and start the round again. A deal whose
invocation failed for good is dealt again by :func:`retry_deal` (the organiser's route).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from typing import Any

from pynamodb.exceptions import DoesNotExist, PutError, TransactWriteError

from ...competition import swiss
from ...engines.common.cards import format_cards
from ...engines.registry import Game, game
from ...errors import DeckhandError
from ..boards import progress as board_progress
from ..boards import round_progress
from ..boards import store as board_store
from ..boards.log import CALL, ended_unplayed
from ..boards.round_boards import boards_of_round, list_matches
from ..boards.round_items import derived_order, round_salt, store_round, stored_round
from ..infra.clock import now_ms
from ..infra.messaging import event_topic
from ..infra.runtime import Runtime
from ..organiser.events import (
    Conflict,
    device_langs,
    event_id_of,
    get_event,
    list_players,
    list_tables,
    read_devices,
    things_taken,
)
from ..organiser.player_links import devices_of, link_things
from ..storage import batches
from ..storage.keys import (
    ACTIVE,
    STATE,
    active_sk,
    board_pk,
    deal_sk,
    event_pk,
    player_of,
    round_sk,
    table_of,
)
from ..storage.models import (
    ActiveItem,
    BoardStateItem,
    DealItem,
    EventItem,
    RoundItem,
    transaction,
)
from ..storage.presence import Presence, presence_of
from ..storage.seating import place_players, round_seating
from .scoring import maybe_finish_round
from .standings_store import load_standings


def request_next_round(rt: Runtime, event_id: str) -> int:
    """Open the next round (organiser) and hand the dealing to the deal function."""
    event = get_event(event_id)
    if event.status not in ("registering", "between_rounds"):
        raise Conflict(f"cannot start a round while the event is {event.status}")
    if event.current_round >= event.rounds:
        raise Conflict(f"all {event.rounds} rounds have been played")
    if event.match is not None:
        from ..matches.round_of_matches import get_pairing

        # A round that cannot be paired is not started (unless the organiser paired it by hand).
        get_pairing(event, event.current_round + 1)
    elif not list_players(event_id):
        raise Conflict("no players are registered")
    number = event.current_round + 1
    event.current_round = number
    event.status = "dealing"
    event.deal_error = None
    try:
        event.save()
    except PutError:
        raise Conflict("the event changed meanwhile (another start?); try again") from None
    rt.invoke("deal", {"event_id": event_id, "round": number})
    return number


class DealFailed(Conflict):
    """The round cannot be dealt as the event stands (too few tables): nothing of it was written."""


def retry_deal(rt: Runtime, event_id: str, round_no: int) -> None:
    """Deal the event's current round again (organiser), after its deal invocation failed for good
    and left the event dealing, or playing without every table's first board begun. Retry-safe: the
    same round, boards and commitment; a round that cannot be dealt puts the event back (DealFailed)."""
    event = get_event(event_id)
    if event.status not in ("dealing", "playing") or event.current_round != round_no:
        raise Conflict(
            f"round {round_no} is not being dealt or played (the event is {event.status}, "
            f"round {event.current_round})"
        )
    rt.invoke("deal", {"event_id": event_id, "round": round_no})


def _deal_failed(event: EventItem, round_no: int, why: str) -> None:
    """Back to before the round was requested, with the reason — only if the round item does not
    exist (a deal that got that far is dealt on by a retry, never undone) and the event still waits
    for this deal (a concurrent retry may have put it back already)."""
    event_id = event_id_of(event)
    with contextlib.suppress(TransactWriteError), transaction() as tx:
        tx.condition_check(RoundItem, event_pk(event_id), round_sk(round_no), RoundItem.sk.does_not_exist())
        tx.update(
            event,
            actions=[
                EventItem.status.set("registering" if round_no == 1 else "between_rounds"),
                EventItem.current_round.set(round_no - 1),
                EventItem.deal_error.set(f"round {round_no} was not dealt: {why}"),
            ],
            condition=(EventItem.status == "dealing") & (EventItem.current_round == round_no),
        )


def _seating(event: EventItem, round_no: int) -> list[swiss.Table]:
    event_id = event_id_of(event)
    k = game(event.ruleset).seats
    players = [player_of(p.sk) for p in list_players(event_id) if p.active]
    if event.format == "pva":
        return pva_seating(players, k, round_no)
    if round_no == 1:
        return swiss.first_round(players, k, event.groups, f"{event.seed}/round/1")
    previous = load_standings(event_id, round_no - 1)
    seated = set(players)  # a withdrawn player keeps a standing and is seated no more
    order = [s["player"] for s in previous["standings"] if s["player"] in seated]
    missing = [p for p in players if p not in order]  # late entries: below everyone, with nothing yet
    return swiss.next_round(order + missing, k, event.groups)


def pva_seating(players: list[str], seats: int, round_no: int) -> list[swiss.Table]:
    """Players vs AI (RULES.md §1): a table per participant, the AI in every other seat; every
    participant sits in the same seat, so all are compared on every board. The seat moves on by one
    each round, so a participant meets each seat's hands over the event."""
    seat = (round_no - 1) % seats
    return [
        swiss.Table(1, i + 1, tuple(p if s == seat else None for s in range(seats)))
        for i, p in enumerate(players)
    ]


def board_ids(event: EventItem) -> list[str]:
    return [str(i + 1) for i in range(event.boards_per_round)]


def deal_order(secret: str, group: int, board: str, g: Game) -> list[int]:
    """The card order of one board of one group, derived from the round's secret (see module doc): its
    deals one after another (a game that redeals when everyone passes carries its redeals, the same at every table)."""
    return derived_order(f"{secret}/group/{group}/board/{board}", g)


def commitment(salt: str, deals: dict[str, list[int]]) -> str:
    """SHA-256 over the salt and the canonical JSON of every deal ("group/board" → card tokens)."""
    canonical = json.dumps({k: format_cards(v) for k, v in sorted(deals.items())}, separators=(",", ":"))
    return hashlib.sha256((salt + canonical).encode()).hexdigest()


def deal_round(rt: Runtime, event_id: str, round_no: int) -> RoundItem:
    event = get_event(event_id)
    if event.current_round != round_no:
        raise Conflict(f"round {round_no} is not the event's current round ({event.current_round})")
    if event.match is not None:
        from ..matches.round_of_matches import deal_match_round

        try:
            match_round = deal_match_round(rt, event, round_no)
        except DeckhandError as exc:
            if _round_exists(event_id, round_no):
                raise
            _deal_failed(event, round_no, str(exc))
            raise DealFailed(str(exc)) from None
        if not round_seating(match_round):
            # Only byes and forfeits (a bracket's pairs all withdrawn): no board will end to finish it.
            maybe_finish_round(rt, event_id, round_no)
        return match_round
    g = game(event.ruleset)
    boards = board_ids(event)
    try:
        round_item = _round_item(event, round_no, boards)
    except DeckhandError as exc:  # raised before the round item is written: nothing to undo
        _deal_failed(event, round_no, str(exc))
        raise DealFailed(str(exc)) from None
    seating = round_seating(round_item)
    place_players(
        event_id, round_no, round_item, seating
    )  # before a board begins: players' devices read them
    secret = round_item.salt
    deals = {
        f"{group}/{b}": deal_order(secret, group, b, g)
        for group in range(1, event.groups + 1)
        for b in boards
    }
    # The deals and boards in batched writes (storage/batches.py): a deal is fixed by the round's secret
    # (written again, unchanged); a board is written only where none is, never over one under play.
    batches.put_all(
        [
            DealItem(event_pk(event_id), deal_sk(round_no, *key.split("/")), order=o)
            for key, o in deals.items()
        ]
    )
    names = player_names(event_id, False)
    read_devices([t for entry in seating for t in entry["devices"]])  # their languages
    made: list[BoardStateItem] = []
    for entry in seating:
        for position, b in enumerate(boards):
            order = deals[f"{entry['group']}/{b}"]
            item = BoardStateItem(
                board_pk(event_id, round_no, entry["table"], b),
                STATE,
                event_id=event_id,
                round=round_no,
                group=str(entry["group"]),
                table=entry["table"],
                board=b,
                position=position,
                ruleset=g.ruleset,
                players=[p or "" for p in entry["seats"]],
                names=[names.get(p, p) if p else "" for p in entry["seats"]],
                devices=entry["devices"],
                langs=device_langs(entry["devices"]),
                dealer=entry["dealer"],
                next_board=boards[position + 1] if position + 1 < len(boards) else "",
                previous_board=boards[position - 1] if position else "",
                status="waiting",
                # A board that carries the previous one's outcome is made when it starts (tableboard.start);
                # a game dealt in steps starts with no card out (tableboard gives them out).
                state=""
                if g.carries and position
                else (g.new_board_in_steps or g.new_board)(order, None).to_json(),
                log=[],
                asked_at=[0] * g.seats,
                play_ms=[0] * g.seats,
                commitment=round_item.commitment,
            )
            made.append(item)
    stored = batches.put_absent(made)  # a retried deal finds its boards there, as they are now
    ActiveItem(ACTIVE, active_sk(event_id, round_no), event_id=event_id, round=round_no).save()
    if event.status == "dealing":
        event.status = "playing"
        event.save()
    rt.publisher.publish(
        event_topic(event_id),
        {"t": "round", "r": round_no, "commit": round_item.commitment, "boards": boards},
    )
    board_progress.start_boards(
        rt, [stored[(board_pk(event_id, round_no, e["table"], boards[0]), STATE)] for e in seating]
    )
    return round_item


def _round_exists(event_id: str, round_no: int) -> bool:
    try:
        RoundItem.get(event_pk(event_id), round_sk(round_no), consistent_read=True, attributes_to_get=["sk"])
    except DoesNotExist:
        return False
    return True


def _round_item(event: EventItem, round_no: int, boards: list[str]) -> RoundItem:
    event_id = event_id_of(event)
    stored = stored_round(event_id, round_no)
    if stored is not None:
        return stored
    g = game(event.ruleset)
    seating = _seating(event, round_no)
    venue_tables = list_tables(event_id)
    if event.venue and len(venue_tables) < len(seating):
        raise Conflict(f"round {round_no} needs {len(seating)} tables; {len(venue_tables)} are registered")
    taken = things_taken(event_id, venue_tables[: len(seating)])
    if taken:
        # Registered in another event while this one had not started (events.register_tables).
        raise Conflict(f"things {', '.join(taken)} are registered in another event since")
    links = link_things(event_id)  # players' own devices get their seats' views
    rows: list[dict[str, Any]] = []
    for i, t in enumerate(seating):
        venue = venue_tables[i] if i < len(venue_tables) else None
        rows.append(
            {
                "group": t.group,
                "table": table_of(venue.sk) if venue else f"{t.group}-{t.table}",
                "number": t.table,
                "seats": list(t.seats),
                "devices": devices_of(list(t.seats), list(venue.seats) if venue else [""] * g.seats, links),
                "dealer": venue.dealer if venue else "",
            }
        )
    salt = round_salt(event, round_no)
    deals = {
        f"{group}/{b}": deal_order(salt, group, b, g) for group in range(1, event.groups + 1) for b in boards
    }
    item = RoundItem(
        event_pk(event_id),
        round_sk(round_no),
        status="playing",
        seating=rows,
        boards=boards,
        commitment=commitment(salt, deals),
        salt=salt,
        boards_total=len(rows) * len(boards),
        started_at=now_ms(),
    )
    return store_round(event_id, round_no, item)


def get_progress(event_id: str, round_no: int) -> tuple[int, int]:
    """(boards scored, boards in the round)."""
    return round_progress.progress_of(event_id, round_no)


def get_round(event_id: str, round_no: int) -> RoundItem:
    try:
        return RoundItem.get(event_pk(event_id), round_sk(round_no), consistent_read=True)
    except DoesNotExist:
        from ..organiser.events import NotFound

        raise NotFound(f"event {event_id!r} has no round {round_no}") from None


def player_names(event_id: str, match: bool) -> dict[str, str]:
    """Each registered player's name (a match event's players are registered with their pairs)."""
    if match:
        from ..organiser.pairs import list_teams

        return {p["id"]: p.get("name") or p["id"] for t in list_teams(event_id) for p in t.players}
    from ..storage.keys import player_of

    return {player_of(p.sk): p.name or player_of(p.sk) for p in list_players(event_id)}


def device_seen(thing: str, present: dict[str, Presence]) -> dict[str, Any]:
    """A seat's device as the staff see it: the thing, and whether its connection is up since when
    (``online``/``online_since``, ms: absent while the broker has said nothing of it)."""
    seen = present.get(thing)
    return {"thing": thing} | ({"online": seen.online, "online_since": seen.since} if seen else {})


def round_status(event_id: str, round_no: int, *, staff: bool = True) -> dict[str, Any]:
    """A round's progress. ``staff`` (the event's owner, organisers, referees) also see why a board
    stopped: a misread names a card of a duplicate board that other tables still play."""
    r = get_round(event_id, round_no)
    names = player_names(event_id, r.match)
    tables = []
    pairs = boards_of_round(event_id, round_no, r)
    items = board_store.load_many(event_id, round_no, pairs)
    by_table: dict[str, list[str]] = {}
    for table, b in pairs:
        by_table.setdefault(table, []).append(b)
    # the staff see each seat's device online or not (its presence item: one batched read a status)
    seating = round_seating(r)
    present = presence_of([t for e in seating for t in e.get("devices") or []]) if staff else {}
    for entry in seating:
        boards = []
        for b in by_table.get(entry["table"], []):
            item = items.get((entry["table"], b))
            board: dict[str, Any] = {"board": b, "status": item.status if item else "missing"}
            if staff and item is not None and item.status == "stopped" and item.stop_reason:
                board["why"] = item.stop_reason  # handsets are told only that it stopped
                if item.eboard:  # stopped by its electronic board: the referee's resume names the version
                    board["version"] = item.version
            if item is not None and ended_unplayed(item):
                board["not_played"] = True  # the referee ended it (artificial scores), for all to see
            if staff and item is not None and item.status == "playing" and item.state:
                board["turn"] = sorted(board_store.engine_of(item)[1].pending())  # the seats asked now
                board["version"] = item.version  # what a referee's ruling on the board is bound to
                if item.deadline:
                    board["deadline"] = item.deadline  # ms: when the clock next acts for a seat
            calls = [{"seat": e["s"], "at": e["at"]} for e in item.log if e["t"] == CALL] if item else []
            if staff and calls:
                board["calls"] = calls  # a handset called the referee to this table
            boards.append(board)
        row: dict[str, Any] = {
            "table": entry["table"],
            "group": entry["group"],
            "seats": entry["seats"],
            "players": [
                {
                    "seat": seat,
                    "player": player,
                    "name": names.get(player, player) if player else None,
                    **(
                        device_seen(entry["devices"][seat], present) if staff and entry.get("devices") else {}
                    ),
                }
                for seat, player in enumerate(entry["seats"])
            ],
            "boards": boards,
        }
        if "pairs" in entry:  # a match: its pairs, and the table's number (the deal derivation's)
            row["pairs"] = entry["pairs"]
            row["number"] = entry["number"]
        tables.append(row)
    out: dict[str, Any] = {
        "round": round_no,
        "status": r.status,
        "commitment": r.commitment,
        "boards_done": get_progress(event_id, round_no)[0],
        "boards_total": r.boards_total,
        "tables": tables,
    }
    if r.match:
        out["matches_done"], out["matches_total"] = out.pop("boards_done"), out.pop("boards_total")
        out["byes"] = r.byes or []
        matches = {m.table: m for m in list_matches(event_id, round_no) if m.table}
        for t in tables:
            m = matches.get(t["table"])
            if m is not None:
                t["match"] = {"status": m.status, "games": len(m.games)}
                if staff or r.status == "done":  # never a score of the round in play to the public
                    t["match"]["result"] = m.result
    if r.status == "done":
        out["salt"] = r.salt
    return out
