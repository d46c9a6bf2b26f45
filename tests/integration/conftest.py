"""Fixtures of the integration tests: the backend under moto."""

import pytest
from backend import SEEDED, Backend, create_table, event_outcome, play_event, prepare, setup_moto_env
from moto import mock_aws

setup_moto_env()


@pytest.fixture
def backend():
    """One empty table under moto, a recording publisher and in-process invocation."""
    with mock_aws():
        create_table()
        yield Backend()


@pytest.fixture(scope="session")
def reference():
    """The seeded cup played through without a fault: what a run with one must end as (plain data,
    computed once)."""
    with mock_aws():
        create_table()
        b = Backend()
        play_event(b, prepare(b, **SEEDED))
        return event_outcome("cup"), [p for t, p in b.publisher.sent if t.startswith("dh/events/")]
