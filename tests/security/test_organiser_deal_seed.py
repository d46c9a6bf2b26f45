"""An organiser-chosen deal seed makes every board predictable: only unrated events take one, and
every export says when an event's deals came from it."""

import csv
import io

import pytest
from api_calls import BOB, EVENT, PLAYERS, api_under_moto, call

RATED = dict(EVENT, event_id="open", name="Harbour Open", grade="A", rounds=4, boards_per_round=30)


@pytest.fixture
def api():
    with api_under_moto() as handler:
        yield handler


@pytest.mark.parametrize("grade", ["A", "B1", "C1", "national_open"])
def test_a_rated_event_refuses_a_deal_seed_and_is_not_created(api, grade):
    spec = dict(RATED, grade=grade, deal_seed="predict-me")
    code, answer = call(api, "POST", "/events", spec)
    assert code == 400 and answer["field"] == "deal_seed" and "unrated" in answer["error"]
    assert call(api, "GET", "/events/open")[0] == 404


def test_the_same_rated_event_without_a_seed_is_created_with_secret_deals(api):
    code, event = call(api, "POST", "/events", RATED)
    assert code == 201 and event["deals"] == "secret"


def test_every_export_of_a_seeded_unrated_event_says_its_deals_came_from_the_seed(api):
    assert call(api, "POST", "/events", dict(EVENT, deal_seed="demo"))[0] == 201
    assert call(api, "POST", "/events/cup/players", PLAYERS)[0] == 201
    assert call(api, "GET", "/events/cup", caller=BOB)[1]["deals"] == "organiser_seed"
    assert call(api, "GET", "/events/cup/results", caller=BOB)[1]["deals"] == "organiser_seed"
    export = call(api, "GET", "/events/cup/export", caller=BOB)[1]
    assert export["event"]["deals"] == export["results"]["deals"] == "organiser_seed"
    text = call(api, "GET", "/events/cup/export?format=csv", caller=BOB)[1]
    assert "deals" in next(csv.reader(io.StringIO(text)))
