"""The organiser and referee REST API (Powertools resolver); the OpenAPI document is generated from it.

Every route is behind IAM authorization in API Gateway (template.yaml); the caller's verified
identity then decides what it may do to an event (service/organiser/access.py: owner, organisers, referees).
Bodies are validated by their strict pydantic models (service/bodies.py); a bad body is a 422 in the
same ``{"error": …}`` shape as every other refusal, naming the field, and nothing is written. Every
POST takes an ``Idempotency-Key`` header: a retry with the same key gets the first answer and changes
nothing (service/storage/idempotency.py).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response, content_types
from aws_lambda_powertools.event_handler.middlewares import NextMiddleware
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError
from aws_lambda_powertools.event_handler.openapi.params import Query

from ..competition import match_render
from ..competition.csv_cells import SafeWriter
from ..competition.render import results_html, standings_csv
from ..engines.contract import Rejected
from ..errors import DeckhandError
from .boards.round_items import revealed_rounds
from .bodies import (
    CallHandled,
    EventSpec,
    LinksBody,
    PairingBody,
    PairsBody,
    PlayersBody,
    RefereeAction,
    RolesBody,
    TablesBody,
    validation_error,
)
from .device_io import player_devices
from .duplicate import rounds, scoring
from .infra.runtime import Runtime
from .matches import round_of_matches as match_rounds
from .organiser import access, events, pairs, player_links
from .organiser.disclosure import deals_from, last_round_shown
from .refereeing import actions as referee
from .refereeing import calls as referee_calls
from .storage import idempotency
from .storage.keys import player_of, table_of, team_of
from .storage.models import EventItem


def build_app(runtime: Callable[[], Runtime]) -> APIGatewayRestResolver:
    app = APIGatewayRestResolver(enable_validation=True)

    def caller() -> str:
        """The identity API Gateway verified (IAM: the signing principal's ARN; the local venue: the
        token's organiser). A request without one is refused, never served as "unknown"."""
        identity = app.current_event.request_context.identity
        verified = identity.user_arn or identity.caller
        if not verified:
            raise access.NoIdentity("the request carries no verified identity")
        return verified

    def event_for(event_id: str, action: access.Action) -> EventItem:
        """The event, if the caller may take ``action`` on it (403 otherwise; 404 if there is none)."""
        event = events.get_event(event_id)
        access.require(event, caller(), action)
        return event

    @app.exception_handler(DeckhandError)  # type: ignore[untyped-decorator]
    def deckhand_error(exc: DeckhandError) -> Response[Any]:
        body: dict[str, Any] = {"error": str(exc)}
        if isinstance(exc, events.GradeViolations):
            body["violations"] = exc.violations
        if isinstance(exc, Rejected):
            body["code"] = exc.code
        if isinstance(exc, events.SeedNotAllowed):
            body["field"] = "deal_seed"
        # A request still in progress is worth retrying; the client's retry loop reads Retry-After.
        headers = {"Retry-After": "1"} if isinstance(exc, idempotency.KeyInProgress) else None
        return Response(_status_of(exc), content_types.APPLICATION_JSON, body, headers)

    @app.exception_handler(RequestValidationError)  # type: ignore[untyped-decorator]
    def bad_body(exc: RequestValidationError) -> Response[Any]:
        return Response(422, content_types.APPLICATION_JSON, validation_error(exc.errors()))

    def run_once(app: APIGatewayRestResolver, next_middleware: NextMiddleware) -> Response[Any]:
        """Every POST with an Idempotency-Key runs once per (caller, path, key); a retry is answered
        from the record. After body validation, so a request refused for its body leaves no record."""
        event = app.current_event
        if event.http_method != "POST":
            return next_middleware(app)
        key = idempotency.parse_key(event.headers, event.multi_value_headers)
        if key is None:
            return next_middleware(app)
        request = idempotency.request_scope(
            caller(), "POST", event.path, key, idempotency.body_of(event.body)
        )
        answer = idempotency.store().answer(
            request, lambda: idempotency.to_answer(next_middleware(app)), app.lambda_context
        )
        return idempotency.to_response(answer)

    app.use(middlewares=[run_once])

    @app.post("/events")
    def create_event(spec: EventSpec) -> Response[dict[str, Any]]:
        """Create an event; the caller (its verified identity) becomes its owner."""
        data = spec.model_dump()
        item = events.create_event(data, owner=caller())
        return Response(201, content_types.APPLICATION_JSON, _event_doc(item))

    @app.get("/events")
    def list_events() -> dict[str, Any]:
        """The caller's events: those it owns or holds a role in (organiser, referee), newest first."""
        mine = events.events_of(caller())
        return {"events": [{**_event_doc(item), "role": role} for item, role in mine]}

    @app.get("/events/<event_id>")
    def get_event(event_id: str) -> dict[str, Any]:
        return _event_doc(events.get_event(event_id))

    @app.get("/events/<event_id>/roles")
    def get_roles(event_id: str) -> dict[str, Any]:
        """The event's owner and the roles granted (its staff only)."""
        event = event_for(event_id, "referee")
        return {"owner": event.owner, "roles": event.roles or {}}

    @app.put("/events/<event_id>/roles")
    def set_roles(event_id: str, body: RolesBody) -> dict[str, Any]:
        """Replace the roles of the event (owner only): identity → ``organiser`` or ``referee``."""
        event = access.set_roles(events.get_event(event_id), caller(), dict(body.roles))
        return {"owner": event.owner, "roles": event.roles or {}}

    @app.post("/events/<event_id>/players")
    def register_players(event_id: str, body: PlayersBody) -> Response[dict[str, Any]]:
        event_for(event_id, "organise")
        items = events.register_players(event_id, [p.model_dump() for p in body.players])
        return Response(
            201,
            content_types.APPLICATION_JSON,
            {"registered": [{"id": player_of(p.sk), "number": p.number} for p in items]},
        )

    @app.post("/events/<event_id>/pairs")
    def register_pairs(event_id: str, body: PairsBody) -> Response[dict[str, Any]]:
        """A match event's pairs, two players each (before the first round)."""
        event_for(event_id, "organise")
        items = pairs.register_pairs(event_id, [p.model_dump() for p in body.pairs])
        return Response(
            201,
            content_types.APPLICATION_JSON,
            {"registered": [{"id": team_of(t.sk), "number": t.number} for t in items]},
        )

    @app.get("/events/<event_id>/pairs")
    def list_pairs(event_id: str) -> dict[str, Any]:
        """A match event's pairs, by registration number."""
        events.get_event(event_id)
        return {
            "pairs": [
                {
                    "id": team_of(t.sk),
                    "number": t.number,
                    "name": t.name,
                    "players": t.players,
                    "seed": t.seed,
                    "region": t.region,
                    "club": t.club,
                    "active": t.active,
                }
                for t in pairs.list_teams(event_id)
            ]
        }

    @app.get("/events/<event_id>/rounds/<number>/pairing")
    def get_pairing(event_id: str, number: int) -> dict[str, Any]:
        """A round's pairing before it starts: stored (Swiss: when the round before ended; an
        override), or what the format gives now (organisers and referees)."""
        event = event_for(event_id, "referee")
        if event.match is None:
            raise events.Conflict("a duplicate event is seated by its Swiss movement, not paired")
        return match_rounds.get_pairing(event, number)

    @app.put("/events/<event_id>/rounds/<number>/pairing")
    def override_pairing(event_id: str, number: int, body: PairingBody) -> dict[str, Any]:
        """The organiser's own pairing of the next round: stored with its warnings, logged."""
        identity = caller()
        event = event_for(event_id, "organise")
        if event.match is None:
            raise events.Conflict("a duplicate event is seated by its Swiss movement, not paired")
        return match_rounds.override_pairing(
            event, number, [list(p) for p in body.pairs], body.bye, body.reason, identity
        )

    @app.post("/events/<event_id>/tables")
    def register_tables(event_id: str, body: TablesBody) -> Response[dict[str, Any]]:
        event_for(event_id, "organise")
        items = events.register_tables(event_id, [t.model_dump() for t in body.tables], by=caller())
        return Response(201, content_types.APPLICATION_JSON, {"registered": [table_of(t.sk) for t in items]})

    @app.post("/events/<event_id>/links")
    def issue_links(event_id: str, body: LinksBody | None = None) -> Response[dict[str, Any]]:
        """Join links for the players' own devices (organisers): a token per player, shown only in this
        answer (send an Idempotency-Key: a retry then gets the same links). Each replaces the player's
        link before; the URL carries the token in its fragment, never sent to a server."""
        event_for(event_id, "organise")
        wanted = None if body is None else body.players
        issued = player_links.issue_links(event_id, wanted)
        player_devices.hand_over(runtime(), event_id, {link.player: link.thing for link in issued})
        links = [
            {
                "player": link.player,
                "url": player_links.url_path(link.token),
                "thing": link.thing,
                "replaced": link.replaced,
            }
            for link in issued
        ]
        return Response(201, content_types.APPLICATION_JSON, {"links": links})

    @app.delete("/events/<event_id>/links/<player>")
    def revoke_link(event_id: str, player: str) -> dict[str, Any]:
        """Revoke a player's join link (organisers; idempotent): its device is refused from now on."""
        event_for(event_id, "organise")
        thing = player_links.revoke_link(event_id, player)
        player_devices.hand_over(runtime(), event_id, {player: None})  # the table's handset again
        return {"player": player, "thing": thing, "revoked": True}

    @app.post("/events/<event_id>/rounds")
    def start_round(event_id: str) -> Response[dict[str, Any]]:
        event_for(event_id, "organise")
        number = rounds.request_next_round(runtime(), event_id)
        return Response(202, content_types.APPLICATION_JSON, {"round": number, "status": "dealing"})

    @app.post("/events/<event_id>/rounds/<number>/deal")
    def retry_deal(event_id: str, number: int) -> Response[dict[str, Any]]:
        """Deal the current round again after its deal failed for good (retry-safe: the same boards)."""
        event_for(event_id, "organise")
        rounds.retry_deal(runtime(), event_id, number)
        return Response(202, content_types.APPLICATION_JSON, {"round": number, "status": "dealing"})

    @app.get("/events/<event_id>/rounds/<number>")
    def round_status(event_id: str, number: int) -> dict[str, Any]:
        """A round's progress; why a board stopped is shown to the event's staff only."""
        staff = access.role_of(events.get_event(event_id), caller()) is not None
        status = rounds.round_status(event_id, number, staff=staff)
        return referee_calls.mark_handled(event_id, status) if staff else status

    @app.get("/events/<event_id>/results")
    def results(event_id: str) -> dict[str, Any]:
        """Board results of the rounds that are done (service/organiser/disclosure.py)."""
        event = events.get_event(event_id)
        return scoring.results_export(event, last_round_shown(event))

    @app.get("/events/<event_id>/standings")
    def standings(event_id: str) -> dict[str, Any]:
        """Standings after the last round that is done."""
        event = events.get_event(event_id)
        return scoring.compute_standings(event, last_round_shown(event))

    @app.post("/events/<event_id>/referee")
    def referee_action(event_id: str, body: RefereeAction) -> Response[dict[str, Any]]:
        identity = caller()
        event = event_for(event_id, "referee")
        request = idempotency.parse_key(app.current_event.headers, app.current_event.multi_value_headers)
        record = referee.record(event, body.model_dump(), by=identity, rt=runtime(), request=request)
        return Response(201, content_types.APPLICATION_JSON, record)

    @app.post("/events/<event_id>/calls/handled")
    def call_handled(event_id: str, body: CallHandled) -> Response[dict[str, Any]]:
        """A referee answered a handset's call: the call shows ``handled`` in the round's status from
        now on, and the audit says who and when (the second time, the first answer's entry)."""
        identity = caller()
        event_for(event_id, "referee")
        entry = referee_calls.handle(event_id, body.model_dump(), by=identity)
        return Response(201, content_types.APPLICATION_JSON, entry)

    @app.get("/events/<event_id>/audit")
    def audit(event_id: str) -> dict[str, Any]:
        event_for(event_id, "referee")
        return {"audit": referee.audit_log(event_id)}

    @app.get("/events/<event_id>/export")
    def export(
        event_id: str,
        format: Annotated[Literal["json", "csv", "boards-csv", "standings-csv", "html"], Query()] = "json",
    ) -> Response[Any]:
        """Everything shown so far: the event, who entered (``players``; a match event's ``pairs``),
        each round done's commitment and salt, results and standings up to the last round done. The
        JSON is the input of ``deckhand standings`` as it is. A match event's ``csv`` has a row per
        match, ``boards-csv`` a row per board (docs/competition.md)."""
        event = events.get_event(event_id)
        shown = last_round_shown(event)
        doc: dict[str, Any] = {
            "event": _event_doc(event),
            "pairs" if event.match is not None else "players": scoring.registrations(event),
            "rounds": revealed_rounds(events.event_id_of(event), shown),
            "results": scoring.results_export(event, shown),
            "standings": scoring.compute_standings(event, shown),
        }
        if format == "json":
            return Response(200, content_types.APPLICATION_JSON, doc)
        if format == "html":
            return Response(200, "text/html; charset=utf-8", _html(event, doc))
        if event.match is not None:
            render = {
                "csv": match_render.match_results_csv,
                "boards-csv": match_render.match_boards_csv,
                "standings-csv": match_render.match_standings_csv,
            }[format]
            return Response(200, "text/csv", render(doc["results"]))
        if format == "boards-csv":
            raise events.Conflict(
                "boards-csv is a match event's export; a duplicate event's csv has every board"
            )
        if format == "standings-csv":
            return Response(200, "text/csv", standings_csv(doc["standings"]))
        return Response(200, "text/csv", _csv(doc))

    return app


def _html(event: EventItem, doc: dict[str, Any]) -> str:
    """The results page players read: a match event's board by board, a duplicate event's by board."""
    if event.match is not None:
        # A board game's page gives each round's commitment and secret: its lots were drawn from them.
        return match_render.match_results_html({**doc["results"], "rounds": doc["rounds"]}, event.name)
    return results_html(doc["standings"], title=event.name)


def _status_of(exc: DeckhandError) -> int:
    if isinstance(exc, access.Forbidden):
        return 403
    if isinstance(exc, events.NotFound):
        return 404
    if isinstance(exc, events.Conflict | idempotency.KeyInProgress):
        return 409
    if isinstance(exc, idempotency.KeyReused):
        return 422
    return 400


def _event_doc(item: Any) -> dict[str, Any]:
    doc = {
        "event_id": events.event_id_of(item),
        "name": item.name,
        "start": item.start,
        "ruleset": item.ruleset,
        "grade": item.grade,
        "format": item.format,
        "rounds": item.rounds,
        "boards_per_round": item.boards_per_round,
        "groups": item.groups,
        "venue": item.venue,
        "status": item.status,
        "current_round": item.current_round,
        "seed": item.seed,
        "owner": item.owner,
        "deals": deals_from(item),
    }
    if item.match is not None:
        doc["match"] = item.match
        doc["options"] = item.options
    if item.deal_error:
        doc["deal_error"] = item.deal_error  # why the last deal failed: fix it and start the round again
    return doc


CSV_COLUMNS = [
    "round",
    "board",
    "group",
    "table",
    "seat",
    "player",
    "score",
    "play_time",
    "adjusted_from",
    "adjustment_reason",
    "adjusted_by",
    "artificial",
    "not_played",
    "deals",
]


def _csv(doc: dict[str, Any]) -> str:
    """Board results for the governing platform: one row per player per board. ``score`` is the one
    counted; a referee's adjustment shows the score played (``adjusted_from``) and why, an artificial
    score its kind (``artificial``: the score is then not compared), a board the table could not
    play ``not_played``; ``deals`` on every row says whether the boards came from an organiser's seed."""
    out = io.StringIO()
    writer = SafeWriter(out)
    writer.writerow(CSV_COLUMNS)
    deals = doc["results"]["deals"]
    for b in doc["results"]["boards"]:
        for r in b["results"]:
            writer.writerow(
                [
                    b["round"],
                    b["board"],
                    b["group"],
                    r["table"],
                    r["seat"],
                    r["player"],
                    r["score"],
                    r["play_time"],
                    r.get("adjusted_from", ""),
                    r.get("adjustment_reason", ""),
                    r.get("adjusted_by") or "",
                    r.get("artificial", ""),
                    "true" if r.get("not_played") else "",
                    deals,
                ]
            )
    return out.getvalue()
