"""Pytest setup: helpers live in tests/helpers.py (on the path via pyproject's pythonpath)."""

from helpers import fresh_board  # noqa: F401  (a fixture, registered by import)
