"""Fixtures that several security tests share (tests/conftest.py says where fixtures live)."""

import pytest
from api_calls import BOB, call, cup_dealt
from backend import run_round


@pytest.fixture
def cup():
    """Alice's cup with round 1 played through (tables A and B, boards 1 and 2), Bob its referee."""
    with cup_dealt() as (api, table_a, table_b):
        run_round(table_a[0].backend, table_a + table_b)
        assert call(api, "PUT", "/events/cup/roles", {"roles": {BOB: "referee"}})[0] == 200
        yield api
