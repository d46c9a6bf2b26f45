"""Under pytest-xdist's loadgroup, tests that share a module-scoped fixture stay on one worker
(tests/conftest.py marks them); the others run wherever a worker is free."""

import pytest


@pytest.fixture(scope="module")
def shared():
    """Stands for a venue or broker started once for a module."""
    return object()


def test_a_test_sharing_a_module_fixture_goes_with_its_module(request, shared):
    mark = request.node.get_closest_marker("xdist_group")
    assert mark is not None and mark.args[0] == "tests/infrastructure/test_parallel_groups.py"


def test_a_test_with_nothing_shared_may_run_on_any_worker(request):
    assert request.node.get_closest_marker("xdist_group") is None
