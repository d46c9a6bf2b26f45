"""A match event's pairs: registered two players at a time, numbered, listed as the competition core's
entrants (RULES.md §4.3: registration number, region and club take part in the pairing)."""

from __future__ import annotations

import contextlib
from typing import Any

from pynamodb.exceptions import DeleteError, DoesNotExist

from ...competition.matchplay.entrants import Entrant, Status
from ...engines.registry import game
from ...errors import DeckhandError
from ..storage.keys import (
    TEAM_PREFIX,
    event_pk,
    pair_player_sk,
    pairing_sk,
    team_of,
    team_sk,
    teams_counter_sk,
)
from ..storage.models import EventItem, PairingItem, PairPlayerItem, TeamItem
from .events import ID, Conflict, event_id_of, get_event, request_digest, take_numbers, write_registration

PAIR = 2


def list_teams(event_id: str) -> list[TeamItem]:
    items = TeamItem.query(event_pk(event_id), TeamItem.sk.startswith(TEAM_PREFIX), consistent_read=True)
    return sorted(items, key=lambda t: t.number)


def is_ai(player: dict[str, Any]) -> bool:
    """A pair's player the AI plays (a players-vs-AI event's partner or opponents): its seat has no
    person, so the service decides for it (boards/table.py) and no join link admits it."""
    return bool(player.get("ai"))


def seat_holders(team: TeamItem) -> list[str]:
    """Who sits in the pair's seats at a table: each person's id, "" where the AI plays."""
    return ["" if is_ai(p) else p["id"] for p in team.players]


def entrants(teams: list[TeamItem]) -> list[Entrant]:
    return [
        Entrant(
            id=team_of(t.sk),
            reg=t.number,
            name=t.name,
            players=tuple(p["id"] for p in t.players),
            seed=t.seed,
            region=t.region,
            club=t.club,
            status=Status.ACTIVE if t.active else Status.WITHDRAWN,
        )
        for t in teams
    ]


def _late_entries_allowed(event: Any) -> bool:
    from .match_settings import MatchFormat, MatchSettings

    return MatchSettings.from_dict(event.match).format in (MatchFormat.SWISS, MatchFormat.SWISS_WITH_CUT)


def register_pairs(event_id: str, pairs: list[dict[str, Any]]) -> list[TeamItem]:
    """Register pairs of a match event before its first round: all of a request or none of it.

    A pair id or a player registered twice (in this request or before) is a Conflict, never a merge.
    Numbers come from the event's pairs counter as players' numbers do (events.register_players): a
    retry of the same request gets the same numbers and completes what a failure left half-written.
    """
    event = get_event(event_id)
    if event.match is None:
        raise Conflict("this is a duplicate event: register players, not pairs")
    if event.status not in ("registering", "between_rounds"):
        raise Conflict(
            f"pairs can be registered before a round starts, not while the event is {event.status}"
        )
    if event.status == "between_rounds" and not _late_entries_allowed(event):
        raise Conflict(
            "a late entry joins a Swiss only: a schedule or a bracket is fixed by the field it began with"
        )
    ai_allowed = event.format == "pva"
    g = game(event.ruleset)
    size = len(g.sides[0]) if g.sides else PAIR if g.seats > 2 else 1  # a board game: one player a side
    side = "pair" if size > 1 else "player"
    registered = list_teams(event_id)
    digest = request_digest(pairs)
    others = [t for t in registered if t.registration != digest]
    taken_ids = {team_of(t.sk) for t in others}
    taken_players = {p["id"] for t in others for p in t.players}
    seen: set[str] = set()
    for pair in pairs:
        pid = pair["id"]
        if not ID.match(pid):
            raise DeckhandError(f"pair id {pid!r} may use letters, digits, '_', '.', '-' (1–64)")
        if pid in seen or pid in taken_ids:
            raise Conflict(f"pair {pid!r} is registered twice")
        seen.add(pid)
        if len(pair["players"]) != size:
            raise DeckhandError(f"{side} {pid!r} needs {size} player(s), got {len(pair['players'])}")
        for player in pair["players"]:
            if not ID.match(player["id"]):
                raise DeckhandError(f"player id {player['id']!r} may use letters, digits, '_', '.', '-'")
            if player["id"] in taken_players:
                raise Conflict(f"player {player['id']!r} is registered twice")
            if player.get("ai") and not ai_allowed:
                raise DeckhandError(
                    f"player {player['id']!r}: AI players sit only in a players-vs-AI (pva) event"
                )
            taken_players.add(player["id"])
    registration = take_numbers(event_id, digest, len(pairs), registered, teams_counter_sk())
    if registration.done:
        raise Conflict(f"pair {pairs[0]['id']!r} is registered twice")
    items = [
        TeamItem(
            event_pk(event_id),
            team_sk(pair["id"]),
            name=pair.get("name") or " & ".join(p.get("name") or p["id"] for p in pair["players"]),
            number=registration.first + i,
            players=[
                {"id": p["id"], "name": p.get("name") or p["id"], **({"ai": True} if p.get("ai") else {})}
                for p in pair["players"]
            ],
            seed=pair.get("seed"),
            region=pair.get("region"),
            club=pair.get("club"),
            registration=digest,
        )
        for i, pair in enumerate(pairs)
    ]

    def players_of(team: TeamItem) -> list[PairPlayerItem]:
        pair = team_of(team.sk)
        return [
            PairPlayerItem(event_pk(event_id), pair_player_sk(p["id"]), team=pair, registration=digest)
            for p in team.players
        ]

    write_registration(
        items, digest, registration, "a pair or player in this batch is registered already", players_of
    )
    if event.status == "between_rounds":  # a late entry: the next round is paired with it
        field_changed(event)
    return items


def field_changed(event: EventItem) -> None:
    """A pair withdrew or entered late: the next round's stored pairing, computed before, is dropped so
    the round is paired again from the field as it is (an organiser's override stays: starting the
    round then says which pair it seats that has left)."""
    round_no = event.current_round + 1
    if event.status not in ("registering", "between_rounds"):
        return  # a round in play: the change counts from the round after, paired when this one ends
    with contextlib.suppress(DoesNotExist, DeleteError):
        item = PairingItem.get(event_pk(event_id_of(event)), pairing_sk(round_no), consistent_read=True)
        if item.source != "override":
            item.delete(condition=PairingItem.source != "override")
