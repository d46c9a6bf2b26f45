"""Bodies the API must refuse — in the same {"error": …} shape as every other refusal, naming the
field, writing nothing: look-alike integers, numbers DynamoDB cannot hold, text that could make an
export or a screen say something else than what is stored."""

import pytest
from api_calls import EVENT, PLAYERS, api_under_moto, call
from deckhand.service.organiser import events

BIG = 10**38  # one more than DynamoDB's 38 digits hold


@pytest.fixture
def api():
    with api_under_moto() as handler:
        assert call(handler, "POST", "/events", EVENT)[0] == 201
        yield handler


def refused(answer):
    """The shape of every refusal: an error, and the field when there is one; no pydantic internals."""
    assert set(answer) <= {"error", "field", "code", "violations"}, answer
    assert isinstance(answer["error"], str) and answer["error"]
    return answer.get("field")


@pytest.mark.parametrize("value", ["5", 5.0, True, None, [5]])
def test_look_alike_integers_are_refused(api, value):
    code, answer = call(api, "POST", "/events", dict(EVENT, event_id="x", rounds=value))
    assert code == 422 and refused(answer) == "rounds"
    assert call(api, "GET", "/events/x")[0] == 404


@pytest.mark.parametrize(
    ("player", "field"),
    [
        ({"id": "P1", "silver_points": BIG}, "players.0.silver_points"),
        ({"id": "P1", "red_points": "7"}, "players.0.red_points"),
        ({"id": "P1", "name": "Alice\u202eecilA"}, "players.0.name"),
        ({"id": "P1", "name": "Bob\u2066x\u2069"}, "players.0.name"),
        ({"id": "P1", "name": "Carol\x07"}, "players.0.name"),
        ({"id": "P1", "name": "Dan\x85"}, "players.0.name"),
        ({"id": "P1", "name": "Eve\n"}, "players.0.name"),
        ({"id": "P1", "number": 1}, "players.0.number"),
    ],
)
def test_bad_players_are_refused_and_none_is_registered(api, player, field):
    code, answer = call(api, "POST", "/events/cup/players", {"players": [player]})
    assert code == 422 and refused(answer) == field
    assert events.list_players("cup") == []


def test_the_largest_number_dynamodb_holds_is_taken(api):
    body = {"players": [{"id": "P1", "name": "Zoë 张", "silver_points": BIG - 1}]}
    assert call(api, "POST", "/events/cup/players", body)[0] == 201
    assert events.list_players("cup")[0].silver_points == BIG - 1


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "warning", "player": "P1", "reason": "slow\u202e"},
        {
            "kind": "adjust",
            "round": 1,
            "table": "A",
            "board": "1",
            "scores": [BIG, -BIG, 0, 0],
            "reason": "x",
        },
        {"kind": "adjust", "round": "1", "table": "A", "board": "1", "scores": [1, -1, 0, 0], "reason": "x"},
        {"kind": "adjust", "round": 1, "table": "A", "board": "1", "scores": [1.0, -1, 0, 0], "reason": "x"},
    ],
)
def test_bad_referee_bodies_are_refused(api, body):
    assert call(api, "POST", "/events/cup/players", PLAYERS)[0] == 201
    code, answer = call(api, "POST", "/events/cup/referee", body)
    assert code == 422 and refused(answer)


@pytest.mark.parametrize("body", ["{not json", "[]", '"x"'])
def test_a_body_that_is_not_an_object_is_refused_in_the_same_shape(api, body):
    code, answer = call(api, "POST", "/events", body)
    assert code == 422
    refused(answer)


def test_other_refusals_have_the_same_shape(api):
    for method, path, body, status in [
        ("GET", "/events/cup/rounds/one", None, 422),
        ("GET", "/events/cup/export?format=xml", None, 422),
        ("GET", "/events/nope", None, 404),
        ("POST", "/events", EVENT, 409),
        ("POST", "/events/cup/players", {"players": [{"id": "P1"}, {"id": "P1"}]}, 409),
    ]:
        code, answer = call(api, method, path, body)
        assert code == status
        refused(answer)


@pytest.mark.parametrize("name", ["deckhand-server", "events"])
@pytest.mark.parametrize("where", ["seats", "dealer"])
def test_reserved_names_are_not_things(api, where, name):
    """A thing named like the venue's server would get the server's broker rights with its password;
    one named ``events`` would share the events' topic (dh/events/<id>)."""
    table = {"id": "T1", "seats": ["hs-1", "hs-2", "hs-3", "hs-4"], "dealer": "dealer-1"}
    if where == "seats":
        table["seats"] = [name, "hs-2", "hs-3", "hs-4"]
    else:
        table["dealer"] = name
    code, answer = call(api, "POST", "/events/cup/tables", {"tables": [table]})
    assert code == 422 and refused(answer).startswith(f"tables.0.{where}")
    assert call(api, "GET", "/events/cup")[1].get("tables") in (None, 0, [])
