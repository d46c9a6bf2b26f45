"""Fixtures that several security tests share (tests/conftest.py says where fixtures live)."""

from typing import Any

import pytest
from api_calls import BOB, api_under_moto, call, cup_dealt
from backend import Backend, restore_items, run_round, table_items


@pytest.fixture(scope="session")
def played_cup() -> list[dict[str, Any]]:
    """Round 1 of Alice's cup played through once for the run (4 boards by the bots): its items."""
    with cup_dealt() as (_, table_a, table_b):
        run_round(table_a[0].backend, table_a + table_b)
        return table_items()


@pytest.fixture
def cup(played_cup):
    """Alice's cup with round 1 played through (tables A and B, boards 1 and 2), Bob its referee: the
    run's one play (played_cup) written into this test's own empty table."""
    with api_under_moto(Backend().rt) as api:
        restore_items(played_cup)
        assert call(api, "PUT", "/events/cup/roles", {"roles": {BOB: "referee"}})[0] == 200
        yield api
