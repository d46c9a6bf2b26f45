"""Issue 33, finding 3: a body nested 3,000 deep raised ``RecursionError`` and an event id of 2,100
characters reached DynamoDB (a key-length ``ValidationException``): neither had an answer. Both are
now a 400 in the one ``{"error": …}`` shape, refused before routing."""

from __future__ import annotations

import json

import pytest
from api_calls import EVENT, api_under_moto, call
from test_api_input import refused


@pytest.fixture
def api():
    with api_under_moto() as handler:
        assert call(handler, "POST", "/events", EVENT)[0] == 201
        yield handler


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("path", ["/events", "/events/cup/players", "/events/cup/referee"])
def test_a_body_nested_thousands_deep_is_a_400(api, path):
    body = json.loads(json.dumps({"players": None}))
    body["players"] = json.loads("[" * 900 + "]" * 900)  # under the parser's limit: a 400, not a 422
    for text in (nested(3000), '{"players": ' + nested(3000) + "}", json.dumps(body)):
        code, answer = call(api, "POST", path, text)
        assert code == 400 and refused(answer) is None, answer


@pytest.mark.parametrize(
    "path", ["/events/" + "x" * 2100, "/events/" + "x" * 65 + "/rounds/1", "/events/cup/rounds/" + "1" * 2100]
)
def test_an_over_long_path_parameter_is_a_400(api, path):
    code, answer = call(api, "GET", path)
    assert code == 400 and refused(answer) is None, answer


@pytest.mark.parametrize(("text", "position"), [('{"event_id": ', 13), ("{]", 1), ('{"a" 1}', 5)])
def test_invalid_json_names_the_position_and_what_was_expected(api, text, position):
    code, answer = call(api, "POST", "/events", text)
    assert code == 422 and refused(answer) is None, answer
    assert f"at character {position}" in answer["error"] and "Expecting" in answer["error"], answer


@pytest.mark.parametrize(
    ("method", "path"),
    [("POST", "/events/cup/rounds"), ("POST", "/events/cup/rounds/1/deal"), ("GET", "/events/cup")],
)
def test_a_route_that_takes_no_body_refuses_one(api, method, path):
    code, answer = call(api, method, path, {"owner": "mallory", "seed": 7})
    assert code == 400 and "takes no body" in answer["error"], answer
    assert call(api, "GET", "/events/cup")[1]["status"] == "registering"
