"""A round's standings stored whatever the field's size: 10,000 players' document passes DynamoDB's
400 KB item limit (the round's end failed there), so it is kept in parts and read back whole."""

from __future__ import annotations

from typing import Any

import pytest
from backend import setup_moto_env
from deckhand.service.duplicate.standings_store import load_standings, save_standings
from deckhand.service.storage.keys import event_pk, standings_sk
from deckhand.service.storage.models import StandingsItem
from pynamodb.exceptions import PutError

setup_moto_env()


def document(players: int, name: str = "名字") -> dict[str, Any]:
    return {
        "boards": [],
        "standings": [
            {"player": f"P{i:05d}", "name": f"{name}{i}", "place": i + 1, "mp": i / 3} for i in range(players)
        ],
    }


def test_a_national_fields_standings_are_stored_in_parts_and_read_back_whole(backend):
    big = document(10_000)
    with pytest.raises(PutError):  # what the round's end did: one item over the limit
        StandingsItem(event_pk("big"), standings_sk(1), document=big).save()
    save_standings("big", 1, big)
    assert load_standings("big", 1) == big
    assert (StandingsItem.get(event_pk("big"), standings_sk(1)).parts or 0) > 1
    recomputed = document(9_000, name="另一个")  # a referee's recompute: another version, fewer parts
    save_standings("big", 1, recomputed)
    assert load_standings("big", 1) == recomputed


def test_a_small_fields_standings_stay_one_item(backend):
    small = document(100)
    save_standings("cup", 2, small)
    item = StandingsItem.get(event_pk("cup"), standings_sk(2))
    assert item.parts is None and item.document == small
    assert load_standings("cup", 2) == small
