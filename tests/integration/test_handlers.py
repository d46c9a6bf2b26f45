"""The Lambda handlers, driven only by sample-shaped events (events/), end to end under moto."""

import io
import json

import pytest
from backend import FakeClock, create_table, setup_moto_env
from deckhand.competition.documents import parse_results, standings_document
from deckhand.competition.standings import standings
from deckhand.engines.bigtwo.board import SeatView
from deckhand.engines.bigtwo.bot import BigTwoBot
from deckhand.engines.common.cards import format_cards
from deckhand.service.infra import clock, lambda_runtime
from deckhand.service.infra.messaging import RecordingPublisher
from deckhand.service.infra.runtime import Runtime
from deckhand_local.cli.competition import run_standings
from handlers import FakeContext, api_event, load_handler, sample
from moto import mock_aws

setup_moto_env()


@pytest.fixture
def lambdas():
    with mock_aws():
        create_table()
        clock.set_clock(FakeClock())
        fns = {name: load_handler(name) for name in ("api", "deal", "play", "score", "timers")}
        publisher = RecordingPublisher()

        def invoke(name, payload):
            # Asynchronous invocation, made synchronous: the payload goes through JSON like Lambda's.
            fns[name].handler(json.loads(json.dumps(payload)), FakeContext())

        lambda_runtime.set_runtime(Runtime(publisher, invoke))
        yield fns, publisher
        lambda_runtime.set_runtime(None)
        clock.set_clock(None)


def call_api(fns, name, **kw):
    response = fns["api"].handler(api_event(name, **kw), FakeContext())
    headers = {
        **response.get("headers", {}),
        **{k: v[0] for k, v in response.get("multiValueHeaders", {}).items()},
    }
    body = response["body"]
    if body and headers.get("Content-Type", "").startswith("application/json"):
        body = json.loads(body)
    return response["statusCode"], body


def device(fns, thing, payload):
    return fns["play"].handler(dict(payload, thing=thing), FakeContext())


def setup(fns):
    assert call_api(fns, "api-create-event.json")[0] == 201
    assert call_api(fns, "api-register-players.json")[0] == 201
    assert call_api(fns, "api-register-tables.json")[0] == 201


THINGS = [f"hs-T{t}-{s}" for t in (1, 2) for s in range(4)]


def play_round(fns, publisher):
    bots = {t: BigTwoBot("steady") for t in THINGS}
    counters = dict.fromkeys(THINGS, 0)
    for _ in range(5000):
        moved = False
        for thing in THINGS:
            views = [p for p in publisher.to(thing) if p["t"] == "view"]
            if not views or views[-1]["st"] != "playing":
                continue
            seat_view = publisher.seat_view(thing, views[-1])  # the engine's, noted next to the message
            action = bots[thing].decide(SeatView.from_dict(seat_view))
            if action is None:
                assert "ask" not in views[-1]
                continue
            counters[thing] += 1
            a = {"k": action.kind}
            if action.cards:
                a["c"] = format_cards(action.cards)
            if action.kind in ("show", "double"):
                a["v"] = action.value
            payload = {"t": "act", "msg": f"{thing}-{counters[thing]}", "board": views[-1]["b"], "a": a}
            assert device(fns, thing, payload)["status"] == "accepted"
            moved = True
        if not moved:
            return
    raise AssertionError("round did not finish")


def test_whole_event_through_the_handlers(lambdas):
    fns, publisher = lambdas
    setup(fns)
    revealed = []
    for number in (1, 2):
        code, body = call_api(fns, "api-start-round.json")
        assert (code, body) == (202, {"round": number, "status": "dealing"})
        code, status = call_api(fns, "api-round-status.json", path=f"/events/harbour-cup/rounds/{number}")
        assert code == 200 and status["status"] == "playing" and "salt" not in status
        play_round(fns, publisher)
        code, status = call_api(fns, "api-round-status.json", path=f"/events/harbour-cup/rounds/{number}")
        assert status["status"] == "done" and status["salt"]
        revealed.append({"round": number, "commitment": status["commitment"], "salt": status["salt"]})
    code, standings_doc = call_api(fns, "api-standings.json")
    assert code == 200
    code, export = call_api(fns, "api-export-csv.json", method="GET")
    assert export.splitlines()[0] == (
        "round,board,group,table,seat,player,score,play_time,adjusted_from,adjustment_reason,adjusted_by,artificial,not_played,deals"
    )
    assert code == 200 and all(line.endswith(",,secret") for line in export.splitlines()[1:])
    assert len(export.splitlines()) == 1 + 2 * 2 * 8
    # The standings equal the competition core's on the logged results.
    event = fns["api"].handler(api_event("api-export-csv.json", body=None), FakeContext())
    export_json = json.loads(
        fns["api"].handler(
            dict(
                api_event("api-export-csv.json"),
                queryStringParameters={"format": "json"},
                multiValueQueryStringParameters={"format": ["json"]},
            ),
            FakeContext(),
        )["body"]
    )
    ruleset, boards = parse_results(export_json["results"])
    names = {p["id"]: p["name"] for p in export_json["players"]}
    assert standings_document(*standings(boards, ruleset), names) == standings_doc == export_json["standings"]
    # The export carries the registrations, each round's commitment and salt, and the names.
    assert export_json["players"][0] == {"id": "P1", "name": "Player 1", "number": 1}
    assert len(export_json["players"]) == 8 and export_json["rounds"] == revealed
    assert {s["name"] for s in standings_doc["standings"]} == {f"Player {i}" for i in range(1, 9)}
    # Piped as it is into `deckhand standings`: the same standings, and the results page with names.
    out = io.StringIO()
    assert run_standings(io.StringIO(json.dumps(export_json)), out, ranking="competition", fmt="json") == 0
    assert json.loads(out.getvalue()) == export_json["standings"]
    out = io.StringIO()
    assert run_standings(io.StringIO(json.dumps(export_json)), out, ranking="competition", fmt="html") == 0
    assert "<title>Harbour Cup — standings</title>" in out.getvalue() and "Player 1 (P1)" in out.getvalue()
    assert event["statusCode"] == 200
    code, body = call_api(fns, "api-start-round.json")
    assert code == 409 and "finished" in body["error"]


def test_sample_iot_and_scheduled_events(lambdas):
    fns, publisher = lambdas
    setup(fns)
    call_api(fns, "api-start-round.json")
    hello = fns["play"].handler(sample("iot-hello.json"), FakeContext())
    assert hello == {"status": "accepted"}
    assert publisher.to("hs-T1-2")[-1]["t"] == "view"
    play = fns["play"].handler(sample("iot-play.json"), FakeContext())
    assert play["status"] == "rejected" and play["code"] == "phase_closed"
    assert fns["timers"].handler(sample("timers.json"), FakeContext())["timeouts"] == 0
    assert fns["score"].handler(sample("score.json"), FakeContext()) == {"recorded": False}
    # A retried deal changes nothing.
    before = [p for t, p in publisher.sent if t.startswith("dh/events/")]
    fns["deal"].handler(sample("deal.json"), FakeContext())
    after = [p for t, p in publisher.sent if t.startswith("dh/events/")]
    assert after[-1]["commit"] == before[-1]["commit"]


@pytest.mark.parametrize(
    ("name", "body", "status", "fragment"),
    [
        ("api-create-event.json", "{not json", 422, ""),
        ("api-create-event.json", {"name": "x"}, 422, "ruleset"),
        (
            "api-create-event.json",
            {
                "name": "x",
                "ruleset": "bigtwo-2017",
                "grade": "C1",
                "rounds": 2,
                "boards_per_round": 2,
                "start": "2026-12-14",
            },
            400,
            "single round",
        ),
        (
            "api-create-event.json",
            {
                "name": "x",
                "ruleset": "bigtwo-2017",
                "grade": "unrated",
                "rounds": 1,
                "boards_per_round": 2,
                "start": "2026-12-14",
                "format": "pva",
                "groups": 2,
            },
            400,
            "one group",
        ),
        ("api-register-players.json", {"players": []}, 422, "players"),
        ("api-register-players.json", {"players": [{"id": "bad id!"}]}, 422, "id"),
    ],
)
def test_bad_api_bodies_are_clear_errors_and_write_nothing(lambdas, name, body, status, fragment):
    fns, _ = lambdas
    if name != "api-create-event.json":
        setup(fns)
    response = fns["api"].handler(api_event(name, body=body), FakeContext())
    assert response["statusCode"] == status, response["body"]
    assert fragment in response["body"]
    if name == "api-create-event.json":
        code, _ = call_api(fns, "api-round-status.json", path="/events/x/rounds/1")
        assert code == 404


def test_conflicts_and_unknowns(lambdas):
    fns, _ = lambdas
    setup(fns)
    code, body = call_api(fns, "api-create-event.json")
    assert code == 409 and "exists already" in body["error"]
    code, body = call_api(fns, "api-register-players.json")
    assert code == 409 and "registered" in body["error"]
    code, body = call_api(fns, "api-register-tables.json")
    assert code == 409
    code, body = call_api(fns, "api-standings.json", path="/events/nope/standings")
    assert code == 404


def test_referee_actions_are_audited(lambdas):
    fns, _ = lambdas
    setup(fns)
    code, body = call_api(fns, "api-referee-warning.json")
    assert (
        code == 201
        and body["by"] == "arn:aws:iam::123456789012:user/organiser"
        and body["reason"] == "slow play"
    )
    code, audit = call_api(
        fns, "api-referee-warning.json", method="GET", path="/events/harbour-cup/audit", body=None
    )
    assert code == 200 and [a["kind"] for a in audit["audit"]] == ["warning"]
    code, body = call_api(
        fns,
        "api-referee-warning.json",
        body={
            "kind": "adjust",
            "round": 1,
            "table": "T1",
            "board": "1",
            "scores": [1, -1, 0, 0],
            "reason": "x",
        },
    )
    assert code == 404  # no such result yet
