"""Pytest setup for every group of tests.

Tests are grouped by kind: ``unit/`` (engines, competition core, CLI documents), ``contracts/``
(what every game, message and key must satisfy), ``integration/`` (services under moto, handlers,
firmware, publishers, the venue's parts), ``e2e/`` (the whole local venue) and ``infrastructure/``
(the template, the layer's boundary, platform regressions). Helpers shared between groups live in
``tests/*.py`` (on the path via pyproject's pythonpath); a fixture that several files of one group use
lives in that group's ``conftest.py``, one that several groups use here. No test file imports another.

``make test`` runs the tests on every core (pytest-xdist, ``--dist loadgroup``): a test that starts
something shares nothing fixed with a test beside it (free ports, its own state folder under
``tmp_path``), and the tests of a module that share a module-scoped fixture (a venue, a broker) are
kept on one worker, so each worker starts it once.
"""

import functools
import os
import threading

import moto_fast
import pytest
from helpers import fresh_board  # noqa: F401  (a fixture, registered by import)
from hypothesis import settings
from parallel_groups import group_by_shared_fixtures


def _moto_writes_atomic() -> None:
    """DynamoDB checks a write's condition and applies it as one step; moto checks and writes in
    Python, so two threads racing for one item under load may both pass the same condition (two
    handsets racing for one turn were both accepted on a busy machine). One lock around moto's writes
    gives the tests the service's guarantee, so a race test tests our code, not moto's."""
    from moto.dynamodb.models import DynamoDBBackend

    lock = threading.RLock()
    for name in ("put_item", "update_item", "delete_item", "transact_write_items"):
        original = getattr(DynamoDBBackend, name)

        def locked(*args, _original=original, **kwargs):  # type: ignore[no-untyped-def]
            with lock:
                return _original(*args, **kwargs)

        setattr(DynamoDBBackend, name, functools.wraps(original)(locked))


_moto_writes_atomic()
moto_fast.install()

# The DynamoDB Locals that tests start for themselves (a venue process's own, killed and started again)
# compile with the JVM's quick compiler only: they live seconds to a minute, too short for the optimising
# compiler to pay back its compiling (a start took 4.4 s of CPU, 1.8 s so; 6,000 requests 27 s, 16.5 s
# so). The run's shared server (dynamodb_local below) serves tens of thousands of requests: it optimises.
QUICK_JVM = "-XX:TieredStopAtLevel=1"
os.environ.setdefault("JAVA_TOOL_OPTIONS", QUICK_JVM)

# `make test` samples the same boards, hands and inputs on every run (hypothesis derandomized, no example
# database): a failure is reproduced by running it again. `make test-deep` (DECKHAND_TEST_DEPTH > 1)
# multiplies the samples (helpers.examples) and draws them afresh each run.
settings.register_profile("fixed", derandomize=True, database=None)
settings.register_profile("deep", derandomize=False)
settings.load_profile("fixed" if int(os.environ.get("DECKHAND_TEST_DEPTH", "1")) <= 1 else "deep")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Before xdist reads the groups (tests/parallel_groups.py says which tests share a worker)."""
    group_by_shared_fixtures(items)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):  # type: ignore[no-untyped-def]
    """The service's clock back on wall time once a module's tests and fixtures are done: a test that set a
    clock it moves by hand (tests/backend.py's Backend does, for its module's tests) must not leave it to
    the next module of the same worker — a venue there froze: its paced deal never gave out a card. (A hook,
    not an autouse fixture: a module-scoped fixture would tie every module's tests to one worker.)"""
    yield
    if nextitem is None or nextitem.module is not item.module:
        from deckhand.service.infra.clock import set_clock

        set_clock(None)


@pytest.fixture(scope="session")
def dynamodb_local(tmp_path_factory):
    """One DynamoDB Local (in memory) for the whole run: a JVM start is paid once; each venue on it
    has a table of its own."""
    from deckhand_local.venue.demo_event import free_port
    from deckhand_local.venue.dynamodb_local import DynamoDBLocal

    quick = os.environ.pop("JAVA_TOOL_OPTIONS") if os.environ.get("JAVA_TOOL_OPTIONS") == QUICK_JVM else None
    try:
        server = DynamoDBLocal(free_port(), data_dir=None).start()
    finally:
        if quick is not None:
            os.environ["JAVA_TOOL_OPTIONS"] = quick
    yield server.endpoint
    server.stop()


@pytest.fixture
def broker():
    """An embedded MQTT broker on a free port of 127.0.0.1, for one test; its ``credentials`` give the
    server's login and each thing's."""
    from deckhand_local.venue.broker import EmbeddedBroker
    from deckhand_local.venue.credentials import VenueCredentials
    from deckhand_local.venue.demo_event import free_port

    broker = EmbeddedBroker(free_port(), VenueCredentials.generate()).start()  # credentials only
    yield broker
    broker.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):  # type: ignore[no-untyped-def]
    """With DECKHAND_TEST_CPU set to a folder, each test's CPU seconds (this process's, and its finished
    child processes') are written there a line each: where `make test`'s time goes, measured not guessed."""
    folder = os.environ.get("DECKHAND_TEST_CPU")
    if not folder:
        yield
        return
    before = os.times()
    yield
    after = os.times()
    own = (after.user - before.user) + (after.system - before.system)
    children = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(os.path.join(folder, f"cpu-{worker}.tsv"), "a", encoding="utf-8") as out:
        out.write(f"{item.nodeid}\t{own:.2f}\t{children:.2f}\n")
