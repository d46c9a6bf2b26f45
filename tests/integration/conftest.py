"""Fixtures of the integration tests: the backend under moto."""

import pytest
from backend import Backend, create_table, setup_moto_env
from moto import mock_aws

setup_moto_env()


@pytest.fixture
def backend():
    """One empty table under moto, a recording publisher and in-process invocation."""
    with mock_aws():
        create_table()
        yield Backend()
