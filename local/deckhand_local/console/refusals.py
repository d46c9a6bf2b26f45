"""A request the console refuses: answered with a page saying why, having changed nothing."""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    """A request the console answers with a page saying why, having changed nothing."""

    def __init__(self, status: int, key: str, **values: Any) -> None:
        super().__init__(key)
        self.status = status
        self.key = key
        self.values = values
