"""Fixtures of the browser tests: Debian's Chromium driven by Playwright (it downloads no browser), a
local venue serving the player's page with a Big Two event of four players at one table, and each
page's screenshot kept when a test fails."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path("out") / "screenshots" / "player-page"  # pytest-playwright empties test-results/ at each start


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not CHROMIUM.exists():
        pytest.skip("no Chromium at /usr/bin/chromium (.ci/run installs Debian's chromium)")
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": ["--no-sandbox"]}


@contextlib.contextmanager
def started_venue(state: Path, dynamodb_local: str, table: str) -> Iterator[Any]:
    """A local venue with its WebSocket listener (the page's broker), its state in ``state``."""
    from deckhand_local.venue.local import Venue, free_port
    from deckhand_local.venue.player_site import page_folder
    from deckhand_local.venue.tables import unique_table_name

    if not (page_folder() / "vendor" / "mqtt.esm.js").exists():
        pytest.fail("web/player/vendor/mqtt.esm.js is missing: run make (its web/player/vendor target)")
    venue = Venue(
        mqtt_port=free_port(),
        http_port=0,
        ws_port=0,
        state_dir=state,
        dynamodb_endpoint=dynamodb_local,
        table=unique_table_name(table),
    ).start()
    try:
        yield venue
    finally:
        venue.stop()


@pytest.fixture(scope="module")
def player_venue(tmp_path_factory: pytest.TempPathFactory, dynamodb_local: str) -> Iterator[Any]:
    """A venue with its WebSocket listener and a one-table Big Two event, round 1 not started."""
    from deckhand_local.venue.api_client import ApiClient
    from deckhand_local.venue.event_setup import EventShape, register

    state = tmp_path_factory.mktemp("player-venue")
    with started_venue(state, dynamodb_local, "web") as venue:
        api = ApiClient(state_dir=state)
        shape = EventShape("web", "Browser event", "bigtwo-2017", "ci-web", 4, 4, 1, 1, 1, 1, 0)
        venue.tables = register(api, shape)
        venue.api_client = api
        yield venue


@contextlib.contextmanager
def online_match_venue(
    tmp: Path, dynamodb_local: str, event: str, name: str, alias: str, boards: int, seed: str, **match: Any
) -> Iterator[Any]:
    """A venue with its WebSocket listener and an online match event (非限定场地赛: no venue tables) of
    two pairs in ``alias``'s game, ``boards`` boards a match, its deals from ``seed`` (``match``: more
    of the event's match settings), each player's join link issued (``venue.links``), round 1 not started."""
    import datetime as dt

    from deckhand.engines.registry import by_alias
    from deckhand_local.venue.api_client import ApiClient

    with started_venue(tmp, dynamodb_local, alias[:2] + "web") as venue:
        api = ApiClient(state_dir=tmp)
        spec = by_alias(alias)
        assert spec.short_match is not None
        api.request(
            "POST",
            "/events",
            {
                "event_id": event,
                "name": name,
                "ruleset": spec.ruleset,
                "grade": "unrated",
                "rounds": 1,
                "venue": False,
                "start": dt.date.today().isoformat(),
                "seed": seed,
                "deal_seed": seed,
                "match": {"format": "swiss", "swiss": {"lot_seed": 7}, **match},
                "options": spec.short_match(boards, 30),
            },
        )
        pairs = [
            {
                "id": f"P{i}",
                "name": f"Pair {i}",
                "players": [{"id": f"P{i}{m}", "name": f"Player {i}{m}"} for m in "ab"],
            }
            for i in (1, 2)
        ]
        api.request("POST", f"/events/{event}/pairs", {"pairs": pairs})
        venue.api_client = api
        venue.links = api.request("POST", f"/events/{event}/links", {})["links"]
        venue.state = tmp
        yield venue


@pytest.fixture(scope="session")
def online_match() -> Any:
    """:func:`online_match_venue`, for a test module's own venue fixture."""
    return online_match_venue


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call":
        item.stash[FAILED] = report.failed
    return report


FAILED = pytest.StashKey[bool]()


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Iterator[list[Any]]:
    """Pages to photograph if the test fails (kept in out/screenshots/player-page/)."""
    pages: list[Any] = []
    yield pages
    if request.node.stash.get(FAILED, False):
        SHOTS.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", request.node.name)
        for i, page in enumerate(pages):
            with contextlib.suppress(Exception):  # a closed page has no picture; the failure is reported
                page.screenshot(path=str(SHOTS / f"{name}-{i}.png"), full_page=True)


@pytest.fixture(scope="module")
def console_venue(tmp_path_factory: pytest.TempPathFactory, dynamodb_local: str) -> Iterator[Any]:
    """A venue with an organiser ``td`` added (no event yet)."""
    from deckhand_local.venue import organisers
    from deckhand_local.venue.local import Venue, free_port
    from deckhand_local.venue.tables import unique_table_name

    root = Path(__file__).resolve().parents[2]
    if not (root / "web/console/vendor/htmx.min.js").exists():
        pytest.fail("web/console/vendor/htmx.min.js is missing: run make (its web/player/vendor target)")
    state = tmp_path_factory.mktemp("console-venue")
    organisers.add(state, "td")
    venue = Venue(
        mqtt_port=free_port(),
        http_port=0,
        state_dir=state,
        dynamodb_endpoint=dynamodb_local,
        table=unique_table_name("console"),
    ).start()
    try:
        yield venue
    finally:
        venue.stop()
