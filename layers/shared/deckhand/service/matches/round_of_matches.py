"""A round of matches: its pairing (Swiss, round robin or the organiser's override), its matches at the
venue's tables, and each match's first board (RULES.md §4.3).

The pairing of a round is stored before the round starts (Swiss: when the round before ends) so the
organiser sees it first; an override goes through the competition core's checks and is logged with
its warnings. Dealing is retry-safe as for duplicate rounds (rounds.py): the round item with its
secret is written first, and every match and board is derived from it, written only if absent.
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
from typing import Any

from pynamodb.exceptions import DoesNotExist, PutError

from ...competition.matchplay import manual
from ...competition.matchplay.entrants import Entrant
from ...competition.matchplay.errors import MatchPlayError
from ...competition.matchplay.level_points import FORFEIT_POINTS
from ...engines.registry import Game, game
from ...errors import DeckhandError
from ..boards import progress as board_progress
from ..boards.head_to_head import MIN_GAMES
from ..boards.match_boards import (
    board_item,
    deal_item,
    first_carry,
    first_mover,
    head_to_head_carry,
    match_deal,
)
from ..boards.round_items import round_salt, store_round, stored_round
from ..infra.clock import now_ms
from ..infra.messaging import event_topic
from ..infra.runtime import Runtime
from ..organiser.events import (
    Conflict,
    device_langs,
    event_id_of,
    list_tables,
    read_devices,
    things_taken,
)
from ..organiser.match_settings import DEFAULT_MAX_GAMES, KnockoutDraw, MatchFormat, MatchSettings
from ..organiser.pairs import entrants, list_teams, seat_holders
from ..organiser.player_links import devices_of, link_things
from ..storage import batches
from ..storage.keys import (
    ACTIVE,
    active_sk,
    audit_sk,
    bye_sk,
    event_pk,
    forfeit_sk,
    match_sk,
    pairing_sk,
    round_sk,
    table_of,
    team_of,
)
from ..storage.models import ActiveItem, AuditItem, EventItem, MatchItem, PairingItem, RoundItem
from ..storage.seating import place_players, round_seating
from .formats import (
    RoundPlan,
    check_rounds,
    is_bracket_round,
    over_after,
    plan_round,
    undrawn_tables,
)
from .results import frozen_draws, history


def round_commitment(salt: str) -> str:
    """The commitment published at a round of matches' start: SHA-256 of its secret, which fixes every
    board of every match however many each takes (match_boards.py); the secret is shown at its end."""
    return hashlib.sha256(f"deckhand/match-round/{salt}".encode()).hexdigest()


def _field(event: EventItem) -> list[Entrant]:
    return entrants(list_teams(event_id_of(event)))


def drawn_at_start(settings: MatchSettings, round_no: int) -> bool:
    """Round 1 of a bracket drawn by lot: drawn from the round's secret as it starts, not before."""
    return round_no == 1 and settings.knockout.draw is KnockoutDraw.LOT


def compute_pairing(event: EventItem, round_no: int, lot: str | None = None) -> dict[str, Any]:
    """The pairing the event's format gives for ``round_no`` (match_formats.py), as stored; ``lot``:
    the round's secret, which draws a bracket by lot (none yet: its pairs are not known)."""
    settings = MatchSettings.from_dict(event.match)
    field = _field(event)
    if len([e for e in field if e.active]) < 2:
        raise Conflict("a round of matches needs at least two pairs registered")
    check_rounds(settings, field, event.rounds)
    frozen = frozen_draws(event, settings)
    plan = plan_round(settings, field, history(event_id_of(event), round_no - 1), round_no, frozen, lot)
    if lot is None and drawn_at_start(settings, round_no):
        plan = RoundPlan([], plan.source, stage=plan.stage, bracket=True)  # the lot is drawn at the start
    return {
        "seeds": plan.seeds,
        "cuts": {str(k): v for k, v in plan.cuts.items()},
        "pairs": plan.pairs,
        "bye": plan.bye,
        "rests": plan.rests,
        "forfeits": plan.forfeits,
        "walkovers": plan.walkovers,
        "labels": plan.labels,
        "stage": plan.stage,
        "source": plan.source,
    }


def format_over(event: EventItem, round_no: int) -> bool:
    """Nothing is left to play after ``round_no`` (a double elimination's reset final not needed)."""
    settings = MatchSettings.from_dict(event.match)
    frozen = frozen_draws(event, settings)
    return over_after(settings, _field(event), history(event_id_of(event), round_no), round_no, frozen)


def get_pairing(event: EventItem, round_no: int) -> dict[str, Any]:
    """The stored pairing of a round, or the one its format gives now (not stored: the field may still
    change before round 1, and the round before may not have ended)."""
    event_id = event_id_of(event)
    try:
        item = PairingItem.get(event_pk(event_id), pairing_sk(round_no), consistent_read=True)
    except DoesNotExist:
        return {"round": round_no, "stored": False, **compute_pairing(event, round_no)}
    return {"round": round_no, "stored": True, **stored_pairing(item)}


def stored_pairing(item: PairingItem) -> dict[str, Any]:
    """A pairing item as the pairing document shows it."""
    return {
        "pairs": item.pairs,
        "bye": item.bye,
        "rests": item.rests or [],
        "forfeits": item.forfeits or [],
        "walkovers": item.walkovers or [],
        "labels": item.labels or [],
        "stage": item.stage or "",
        **({"seeds": item.seeds} if item.seeds else {}),
        **({"cuts": item.cuts} if item.cuts else {}),
        "source": item.source,
        "warnings": item.warnings,
        **({"reason": item.reason} if item.reason else {}),
    }


def save_computed_pairing(event: EventItem, round_no: int) -> None:
    """At the end of the round before (or the round's start): the computed pairing, if none is stored
    (a bracket drawn by lot: stored with its first round, in one write — _round_item). One stored
    already is not computed again: every late or retried result of the round ended calls this, and a
    national field's pairing takes seconds (docs/performance.md)."""
    if drawn_at_start(MatchSettings.from_dict(event.match), round_no) or _pairing_stored(event, round_no):
        return
    with contextlib.suppress(PutError):  # stored already (by a retry, or an override): kept
        computed_pairing_item(event, round_no).save(condition=PairingItem.sk.does_not_exist())


def _pairing_stored(event: EventItem, round_no: int) -> bool:
    try:
        PairingItem.get(
            event_pk(event_id_of(event)), pairing_sk(round_no), consistent_read=True, attributes_to_get=["sk"]
        )
    except DoesNotExist:
        return False
    return True


def computed_pairing_item(event: EventItem, round_no: int, lot: str | None = None) -> PairingItem:
    """The pairing the format gives, as stored (``lot``: the round's secret, for a draw by lot)."""
    pairing = compute_pairing(event, round_no, lot)
    return PairingItem(
        event_pk(event_id_of(event)),
        pairing_sk(round_no),
        pairs=pairing["pairs"],
        bye=pairing["bye"],
        rests=pairing["rests"] or None,
        forfeits=pairing["forfeits"] or None,
        walkovers=pairing["walkovers"] or None,
        labels=pairing["labels"] or None,
        stage=pairing["stage"] or None,
        seeds=pairing["seeds"] or None,
        cuts=pairing["cuts"] or None,
        source=pairing["source"],
        warnings=[],
    )


def override_pairing(
    event: EventItem, round_no: int, pairs: list[list[str]], bye: str | None, reason: str, by: str
) -> dict[str, Any]:
    """The organiser's own pairing of the next round: checked like the Swiss's (rematches, forbidden
    pairs, clubs, regions, the bye rule), stored with its warnings, and logged with the reason."""
    event_id = event_id_of(event)
    if event.status not in ("registering", "between_rounds") or event.current_round != round_no - 1:
        raise Conflict(f"round {round_no} is not the next round to start (the event is {event.status})")
    settings = MatchSettings.from_dict(event.match)
    if settings.format in (MatchFormat.ROUND_ROBIN, MatchFormat.KNOCKOUT, MatchFormat.DOUBLE_ELIMINATION) or (
        is_bracket_round(settings, round_no)
    ):
        # A schedule or a bracket decides who meets whom; another pairing would leave it without the
        # results it goes on from.
        raise Conflict(
            f"round {round_no} follows the {settings.format.value} schedule: only a Swiss round is paired by hand"
        )
    field = _field(event)
    try:
        checked = manual.override(
            field,
            history(event_id, round_no - 1),
            round_no,
            [(a, b) for a, b in pairs],
            bye,
            reason,
            settings.swiss_options(field),
        )
    except MatchPlayError as exc:
        raise DeckhandError(str(exc)) from None
    warnings = [
        {"concern": w.concern.value, "teams": list(w.teams), "message": w.message} for w in checked.warnings
    ]
    PairingItem(
        event_pk(event_id),
        pairing_sk(round_no),
        pairs=[list(p) for p in checked.pairs],
        bye=checked.bye,
        source="override",
        warnings=warnings,
        reason=reason,
    ).save()
    at = now_ms()
    detail = {"round": round_no, "pairs": pairs, "bye": bye, "warnings": warnings, "reason": reason}
    AuditItem(
        event_pk(event_id),
        audit_sk(at, secrets.token_hex(4)),
        kind="pairing_override",
        detail=detail,
        by=by,
        at=at,
    ).save()
    return get_pairing(event, round_no)


def deal_match_round(rt: Runtime, event: EventItem, round_no: int) -> RoundItem:
    """Seat the round's matches at the venue's tables and begin each one's first board (retry-safe)."""
    event_id = event_id_of(event)
    round_item = _round_item(event, round_no)
    seating = round_seating(round_item)
    place_players(
        event_id, round_no, round_item, seating
    )  # before a board begins: players' devices read them
    g = game(event.ruleset)
    settings = MatchSettings.from_dict(event.match)
    bracket = is_bracket_round(settings, round_no)
    options = g.options(event.options) if g.options is not None else None
    minutes = settings.clock_minutes(g, options)
    knockout_rule = settings.knockout.match if bracket else None
    names = {p["id"]: p.get("name") or p["id"] for t in list_teams(event_id) for p in t.players}
    undrawn = undrawn_tables(
        settings, _field(event), history(event_id, round_no - 1), round_no, event.rounds,
        [row["pairs"] for row in seating],
    )  # fmt: skip
    numbers = draw_numbers(event, settings)
    handsets = {table_of(t.sk): list(t.seats) for t in list_tables(event_id)} if g.position else {}
    made: list[MatchItem] = []
    for i, row in enumerate(seating):
        options_json = round_options(g, event.options, i in undrawn)
        match = MatchItem(
            event_pk(event_id),
            match_sk(round_no, row["table"]),
            round=round_no,
            table=row["table"],
            number=row["number"],
            pairs=row["pairs"],
            players=row["seats"],
            devices=row["devices"],
            dealer=row["dealer"],
            eboard=row.get("eboard", ""),
            rules={
                "games": settings.games.value,
                "same_boards": settings.same_boards,
                "deal_ms": settings.deal_ms,  # a game dealt in steps: the server's pace without a dealing table
                "options": options_json,
                "clock_minutes": minutes,  # each game's clock (a best of three restarts it)
                "forfeit": list(forfeit_points(g, options)),
                **({"label": row["label"]} if row.get("label") else {}),
                "names": [names.get(p, p) for p in row["seats"]],  # shown on each board's handsets
                **(
                    {"knockout": {"decision": knockout_rule.decision.value, "games": knockout_rule.games}}
                    if knockout_rule is not None
                    else {}
                ),
                **head_to_head_rules(g, settings, row["pairs"], numbers),
                # A board game's players change seats between games: the table's handsets stay, a
                # player's own device (in ``devices`` instead of the handset) follows its player.
                **({"handsets": handsets.get(row["table"], [""] * g.seats)} if g.position else {}),
            },
            boards=["1"],
            games=[],
            status="playing",
            started_at=round_item.started_at,
            clock_ends_at=round_item.started_at + minutes * 60_000 if minutes else 0,
        )
        made.append(match)
    # In batched writes (storage/batches.py), the matches and their first boards written only where
    # none is (a retried deal finds them as they are now: a board under play stays), the deals (fixed
    # by the round's secret) again.
    stored = batches.put_absent(made)
    matches = [stored[batches.key_of(m)] for m in made]
    orders = [match_deal(round_item.salt, m.number, 1, g, settings.same_boards) for m in matches]
    batches.put_all(
        [deal_item(event_id, round_no, m.table, 1, o) for m, o in zip(matches, orders, strict=True)]
    )
    read_devices([t for m in matches for t in m.devices])  # their languages, for the boards
    boards = [
        board_item(
            event_id,
            match,
            1,
            head_to_head_carry(event_id, match, g, round_item.salt, 1) if g.position else first_carry(match),
            order,
            g.ruleset,
            round_item.commitment,
            langs=device_langs(list(match.devices)),
            first=first_mover(match, g, round_item.salt, 1),
        )
        for match, order in zip(matches, orders, strict=True)
    ]
    firsts = batches.put_absent(boards)
    # Scored without a table: a game a withdrawn pair forfeits, and the bye (RULES.md §4.3).
    lp = list(forfeit_points(g, options))
    unplayed = [(forfeit_sk(round_no, w), [w, x], "forfeit") for w, x in round_item.forfeits or []]
    unplayed += [(bye_sk(round_no, team), [team, None], "bye") for team in round_item.byes or []]
    batches.put_absent(
        [
            MatchItem(
                event_pk(event_id),
                key,
                round=round_no,
                table="",
                number=0,
                pairs=sides,
                players=[],
                devices=[],
                boards=[],
                games=[],
                status="done",
                started_at=round_item.started_at,
                result={"mp": [2, 0], "lp": lp, "kind": kind},
            )
            for key, sides, kind in unplayed
        ]
    )  # a retried deal finds them there
    ActiveItem(ACTIVE, active_sk(event_id, round_no), event_id=event_id, round=round_no).save()
    if event.status == "dealing":
        event.status = "playing"
        event.save()
    rt.publisher.publish(
        event_topic(event_id), {"t": "round", "r": round_no, "commit": round_item.commitment, "boards": []}
    )
    board_progress.start_boards(rt, [firsts[batches.key_of(b)] for b in boards])
    return round_item  # only byes and forfeits (no seating): the caller finishes the round


def draw_numbers(event: EventItem, settings: MatchSettings) -> dict[str, int]:
    """Each side's draw number (抽签): its place in a bracket's draw, kept with round 1; otherwise its
    registration number."""
    seeds = frozen_draws(event, settings).seeds
    if seeds:
        return {team: n for n, team in enumerate(seeds, 1)}
    return {e.id: e.reg for e in _field(event)}


def head_to_head_rules(
    g: Game, settings: MatchSettings, pairs: list[str], numbers: dict[str, int]
) -> dict[str, Any]:
    """A board game's match (RULES.md §6.5): the games it may take before a lot decides a level
    match, and which side has the lower draw number (it moves first in game 1 where the rules say
    so); nothing for a card game."""
    if g.position is None:
        return {}
    a, b = (numbers.get(p, 0) for p in pairs)
    draws = {"draws": True} if settings.format is MatchFormat.SWISS else {}  # two games, a draw allowed
    return {"max_games": settings.max_games or DEFAULT_MAX_GAMES, "low": 0 if a <= b else 1, **draws}


def round_options(g: Game, options: dict[str, Any] | None, undrawn: bool) -> dict[str, Any] | None:
    """The rule set's options for a match's games: a bracket's games, and the extra-board option's
    matches, are never drawn (RULES.md §4.3 Draws: a game level at its end plays on)."""
    if undrawn and g.no_draws is not None and options is not None:
        return g.no_draws(options)
    return options


def forfeit_points(g: Game, options: Any) -> tuple[int, int]:
    """A forfeit win's level points under the event's options (RULES.md §4.3: a bye scores so)."""
    if g.forfeit_points is not None and options is not None:
        return g.forfeit_points(options)
    if g.position is not None:
        return (2 * MIN_GAMES, 0)  # a board game's match: its two games won, each 1 doubled
    return FORFEIT_POINTS


def _round_item(event: EventItem, round_no: int) -> RoundItem:
    event_id = event_id_of(event)
    stored = stored_round(event_id, round_no)
    if stored is not None:
        return stored
    salt = round_salt(event, round_no)
    drawn: PairingItem | None = None
    if drawn_at_start(MatchSettings.from_dict(event.match), round_no):
        # Drawn by this round's secret and stored with the round in one write: an attempt that
        # stored no round leaves no draw made with a secret that is never committed.
        drawn = computed_pairing_item(event, round_no, salt)
        pairing = {"stored": True, **stored_pairing(drawn)}
    else:
        pairing = get_pairing(event, round_no)  # an override stored before wins
        if not pairing["stored"]:
            save_computed_pairing(event, round_no)
            pairing = get_pairing(event, round_no)
    gone = {e.id for e in _field(event) if not e.active}
    seated = {t for p in pairing["pairs"] for t in p} | {pairing["bye"]} - {None}
    if seated & gone:
        raise Conflict(
            f"round {round_no}'s pairing seats {', '.join(sorted(seated & gone))}, withdrawn since: pair the round again"
        )
    g = game(event.ruleset)
    venue_tables = list_tables(event_id)
    pairs = pairing["pairs"]
    labels = pairing.get("labels") or []
    if event.venue and len(venue_tables) < len(pairs):
        raise Conflict(f"round {round_no} needs {len(pairs)} tables; {len(venue_tables)} are registered")
    taken = things_taken(event_id, venue_tables[: len(pairs)])
    if taken:
        raise Conflict(f"things {', '.join(taken)} are registered in another event since")
    members = {team_of(t.sk): seat_holders(t) for t in list_teams(event_id)}  # "": an AI seat
    sides = g.match_sides
    links = link_things(event_id)  # players' own devices get their seats' views
    rows: list[dict[str, Any]] = []
    for i, (a, b) in enumerate(pairs):
        venue = venue_tables[i] if i < len(venue_tables) else None
        seats: list[str] = [""] * g.seats
        for side, team in enumerate((a, b)):
            for member, seat in zip(members[team], sides[side], strict=True):
                seats[seat] = member
        rows.append(
            {
                "group": 1,
                "table": table_of(venue.sk) if venue else f"T{i + 1}",
                "number": i + 1,
                "pairs": [a, b],
                "seats": seats,
                "devices": devices_of(seats, list(venue.seats) if venue else [""] * g.seats, links),
                "dealer": venue.dealer if venue else "",
                "eboard": venue.eboard if venue else "",
                **({"label": labels[i]} if i < len(labels) else {}),
            }
        )
    bye = pairing.get("bye")
    item = RoundItem(
        event_pk(event_id),
        round_sk(round_no),
        status="playing",
        seating=rows,
        boards=[],
        commitment=round_commitment(salt),
        salt=salt,
        boards_total=len(rows),
        started_at=now_ms(),
        match=True,
        byes=[bye] if bye else [],
        forfeits=pairing.get("forfeits") or [],
    )
    return store_round(event_id, round_no, item, [drawn] if drawn is not None else [])
