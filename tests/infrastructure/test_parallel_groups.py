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


PROBE = """
import os

import pytest


@pytest.fixture(scope="module")
def venue():
    return os.environ["PYTEST_XDIST_WORKER"]


def record(name):
    with open(os.environ["PROBE_LOG"], "a") as log:
        log.write(f"{name} {os.environ['PYTEST_XDIST_WORKER']}\\n")


def test_one(venue):
    record("one")


def test_two(venue):
    record("two")


def test_three():
    record("three")


def test_four():
    record("four")
"""


def test_tests_sharing_a_module_fixture_really_run_on_one_worker(tmp_path):
    """The whole path, not just the mark: two workers, `--dist loadgroup`, and the module's two tests
    that share its fixture on the same worker (pytest 9.2 with xdist 3.8 dropped the group silently:
    xdist writes the group into a node id field pytest 9.2 no longer reads)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    tests = Path(__file__).resolve().parents[1]
    (tmp_path / "conftest.py").write_text(
        "import pytest\nfrom parallel_groups import group_by_shared_fixtures\n\n\n"
        "@pytest.hookimpl(tryfirst=True)\ndef pytest_collection_modifyitems(items):\n"
        "    group_by_shared_fixtures(items)\n"
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_probe.py").write_text(PROBE)
    log = tmp_path / "probe.log"
    env = {**os.environ, "PYTHONPATH": str(tests), "PROBE_LOG": str(log)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadgroup", "-p", "no:cacheprovider"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    ran = dict(line.split() for line in log.read_text().splitlines())
    assert sorted(ran) == ["four", "one", "three", "two"]
    assert ran["one"] == ran["two"], ran
