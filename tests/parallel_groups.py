"""Which tests must share a worker under pytest-xdist's ``loadgroup`` (tests/conftest.py applies it)."""

from __future__ import annotations

import pytest

SHARED_SCOPES = {"module", "class", "package"}


def group_by_shared_fixtures(items: list[pytest.Item]) -> None:
    """A test that uses a module- or class-scoped fixture goes to its module's group: otherwise each
    worker that got one of the module's tests would start its own venue. Tests without such a fixture
    stay free to run on any worker."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None or item.get_closest_marker("xdist_group"):
            continue
        if any(defs[-1].scope in SHARED_SCOPES for defs in info.name2fixturedefs.values()):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
