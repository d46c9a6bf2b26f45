"""The organiser and referee REST API (Powertools resolver); the OpenAPI document is generated from it.

Every route is behind IAM authorization in API Gateway (template.yaml). Bodies are validated by
their pydantic models; a bad body is a 422 with the offending field, and nothing is written. Every
POST takes an ``Idempotency-Key`` header: a retry with the same key gets the first answer and changes
nothing (service/idempotency.py).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable
from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response, content_types
from aws_lambda_powertools.event_handler.middlewares import NextMiddleware
from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import BaseModel, Field

from ..engines.registry import DUPLICATE_RULESETS
from ..errors import DeckhandError
from . import events, idempotency, referee, rounds, scoring
from .keys import player_of, table_of
from .runtime import Runtime

ID = r"^[A-Za-z0-9_.-]{1,64}$"
THING = r"^[A-Za-z0-9_:-]{0,128}$"


class EventSpec(BaseModel):
    event_id: Annotated[str | None, Field(pattern=ID)] = None
    name: Annotated[str, Field(min_length=1, max_length=200)]
    ruleset: Literal[DUPLICATE_RULESETS]  # type: ignore[valid-type]  # the registry's, as an enum
    grade: Literal[
        "national_championship", "national_open", "A", "B1", "B2", "C1", "C2", "C3", "C4", "C5", "unrated"
    ]
    organiser: Literal["centre", "centre_guided", "registered_unit"] = "registered_unit"
    format: Literal["pvp", "pva"] = "pvp"
    rounds: Annotated[int, Field(ge=1, le=50)]
    boards_per_round: Annotated[int, Field(ge=1, le=100)]
    groups: Annotated[int, Field(ge=1, le=100)] = 1
    venue: bool = True
    fee: Annotated[int, Field(ge=0)] = 0
    start: dt.date
    ranking: Literal["competition", "dense"] = "competition"
    seed: Annotated[str | None, Field(max_length=128)] = None
    deal_seed: Annotated[
        str | None,
        Field(
            max_length=128,
            description="Demonstrations and replays only: boards derived from this seed are not secret.",
        ),
    ] = None


class PlayerSpec(BaseModel):
    id: Annotated[str, Field(pattern=ID)]
    name: Annotated[str | None, Field(max_length=200)] = None
    silver_points: Annotated[int, Field(ge=0)] = 0
    red_points: Annotated[int, Field(ge=0)] = 0


class PlayersBody(BaseModel):
    players: Annotated[list[PlayerSpec], Field(min_length=1, max_length=10000)]


class TableSpec(BaseModel):
    id: Annotated[str, Field(pattern=ID)]
    seats: Annotated[list[Annotated[str, Field(pattern=THING)]], Field(min_length=3, max_length=4)]
    dealer: Annotated[str | None, Field(pattern=THING)] = None


class TablesBody(BaseModel):
    tables: Annotated[list[TableSpec], Field(min_length=1, max_length=1000)]


class RefereeAction(BaseModel):
    kind: Literal["warning", "violation", "adjust"]
    player: Annotated[str | None, Field(pattern=ID)] = None
    round: Annotated[int | None, Field(ge=1)] = None
    table: Annotated[str | None, Field(pattern=ID)] = None
    board: Annotated[str | None, Field(pattern=ID)] = None
    scores: list[int] | None = None
    reason: Annotated[str, Field(min_length=1, max_length=500)]


def build_app(runtime: Callable[[], Runtime]) -> APIGatewayRestResolver:
    app = APIGatewayRestResolver(enable_validation=True)

    def caller() -> str:
        ctx = app.current_event.request_context
        identity = ctx.identity
        return identity.user_arn or identity.caller or "unknown"

    @app.exception_handler(DeckhandError)  # type: ignore[untyped-decorator]
    def deckhand_error(exc: DeckhandError) -> Response[Any]:
        body: dict[str, Any] = {"error": str(exc)}
        if isinstance(exc, events.GradeViolations):
            body["violations"] = exc.violations
        # A request still in progress is worth retrying; the client's retry loop reads Retry-After.
        headers = {"Retry-After": "1"} if isinstance(exc, idempotency.KeyInProgress) else None
        return Response(_status_of(exc), content_types.APPLICATION_JSON, body, headers)

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
        data = spec.model_dump()
        item = events.create_event(data)
        return Response(201, content_types.APPLICATION_JSON, _event_doc(item))

    @app.get("/events/<event_id>")
    def get_event(event_id: str) -> dict[str, Any]:
        return _event_doc(events.get_event(event_id))

    @app.post("/events/<event_id>/players")
    def register_players(event_id: str, body: PlayersBody) -> Response[dict[str, Any]]:
        items = events.register_players(event_id, [p.model_dump() for p in body.players])
        return Response(
            201,
            content_types.APPLICATION_JSON,
            {"registered": [{"id": player_of(p.sk), "number": p.number} for p in items]},
        )

    @app.post("/events/<event_id>/tables")
    def register_tables(event_id: str, body: TablesBody) -> Response[dict[str, Any]]:
        items = events.register_tables(event_id, [t.model_dump() for t in body.tables])
        return Response(201, content_types.APPLICATION_JSON, {"registered": [table_of(t.sk) for t in items]})

    @app.post("/events/<event_id>/rounds")
    def start_round(event_id: str) -> Response[dict[str, Any]]:
        number = rounds.request_next_round(runtime(), event_id)
        return Response(202, content_types.APPLICATION_JSON, {"round": number, "status": "dealing"})

    @app.post("/events/<event_id>/rounds/<number>/deal")
    def retry_deal(event_id: str, number: int) -> Response[dict[str, Any]]:
        """Deal the current round again after its deal failed for good (retry-safe: the same boards)."""
        rounds.retry_deal(runtime(), event_id, number)
        return Response(202, content_types.APPLICATION_JSON, {"round": number, "status": "dealing"})

    @app.get("/events/<event_id>/rounds/<number>")
    def round_status(event_id: str, number: int) -> dict[str, Any]:
        return rounds.round_status(event_id, number)

    @app.get("/events/<event_id>/results")
    def results(event_id: str) -> dict[str, Any]:
        return scoring.results_export(events.get_event(event_id))

    @app.get("/events/<event_id>/standings")
    def standings(event_id: str) -> dict[str, Any]:
        event = events.get_event(event_id)
        return scoring.compute_standings(event, event.current_round)

    @app.post("/events/<event_id>/referee")
    def referee_action(event_id: str, body: RefereeAction) -> Response[dict[str, Any]]:
        record = referee.record(event_id, body.model_dump(), by=caller())
        return Response(201, content_types.APPLICATION_JSON, record)

    @app.get("/events/<event_id>/audit")
    def audit(event_id: str) -> dict[str, Any]:
        return {"audit": referee.audit_log(event_id)}

    @app.get("/events/<event_id>/export")
    def export(event_id: str, format: Annotated[Literal["json", "csv"], Query()] = "json") -> Response[Any]:
        event = events.get_event(event_id)
        doc = {
            "event": _event_doc(event),
            "results": scoring.results_export(event),
            "standings": scoring.compute_standings(event, event.current_round),
        }
        if format == "json":
            return Response(200, content_types.APPLICATION_JSON, doc)
        return Response(200, "text/csv", _csv(doc))

    return app


def _status_of(exc: DeckhandError) -> int:
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
    }
    if item.deal_error:
        doc["deal_error"] = item.deal_error  # why the last deal failed: fix it and start the round again
    return doc


def _csv(doc: dict[str, Any]) -> str:
    """Board results for the governing platform: one row per player per board."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["round", "board", "group", "table", "seat", "player", "score", "play_time"])
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
                ]
            )
    return out.getvalue()
