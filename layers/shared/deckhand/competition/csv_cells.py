"""CSV that a spreadsheet opens without running anything in it (OWASP's CSV injection rule).

A cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is taken for a formula
by spreadsheets: a player named ``=HYPERLINK(…)`` would run in the organiser's. Such a cell is written
with a leading ``'`` (shown as text, not run). A plain number (``-3``, ``+1.50``) is no formula and
stays as it is, so scores still read as numbers.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import IO, Any

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"[-+]?\d+(\.\d+)?")


def safe_cell(value: Any) -> Any:
    """The cell as a spreadsheet shows it and never runs."""
    if isinstance(value, str) and value.startswith(FORMULA_START) and not NUMBER.fullmatch(value):
        return "'" + value
    return value


class SafeWriter:
    """``csv.writer`` whose every cell is ``safe_cell``."""

    def __init__(self, out: IO[str]) -> None:
        self._writer = csv.writer(out, lineterminator="\n")

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([safe_cell(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)
