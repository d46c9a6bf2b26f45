"""RULES.md §1.5: event grades and management rules."""

import datetime as dt

import pytest
from deckhand.competition.grades import GRADES, Change, Entrant, EventPlan, add_working_days, check_event

START = dt.date(2026, 12, 14)  # a Monday


def plan(**changes):
    base = EventPlan(
        name="Harbour City Big Two Open",
        grade="C3",
        organiser="registered_unit",
        venue=False,
        rounds=1,
        boards=6,
        fee=20,
        start=START,
    )
    return base._replace(**changes)


def rules(p):
    return [v.rule for v in check_event(p)]


def test_grade_table_matches_rules_md():
    assert [
        (g, GRADES[g].min_boards) for g in ("national_open", "A", "B1", "B2", "C1", "C2", "C3", "C4", "C5")
    ] == [
        ("national_open", 240),
        ("A", 120),
        ("B1", 50),
        ("B2", 30),
        ("C1", 10),
        ("C2", 8),
        ("C3", 6),
        ("C4", 5),
        ("C5", 3),
    ]
    assert (GRADES["A"].fee_cap, GRADES["B1"].fee_cap, GRADES["C5"].fee_cap) == (50, 30, 20)
    assert GRADES["national_championship"].fee_cap is None


def test_a_valid_event_has_no_violations():
    assert check_event(plan()) == []
    assert (
        check_event(
            plan(
                grade="A",
                venue=True,
                rounds=3,
                boards=120,
                fee=50,
                entrants=(Entrant("P1", silver_points=10),),
            )
        )
        == []
    )


@pytest.mark.parametrize(
    ("changes", "rule"),
    [
        ({"grade": "Z"}, "grade"),
        ({"boards": 5}, "min_boards"),
        ({"fee": 21}, "fee_cap"),
        ({"rounds": 2}, "rounds"),
        ({"grade": "B1", "rounds": 1, "boards": 50, "fee": 30}, "rounds"),
        ({"grade": "A", "venue": False, "rounds": 2, "boards": 120}, "venue"),
        ({"grade": "national_open", "venue": True, "rounds": 2, "boards": 240, "fee": 0}, "organiser"),
        ({"organiser": "someone"}, "organiser"),
        ({"name": "全国锄大地公开赛"}, "name"),
        ({"entrants": (Entrant("P1"), Entrant("P1"))}, "entry_once"),
        (
            {"grade": "B2", "rounds": 2, "boards": 30, "entrants": (Entrant("P1", red_points=299),)},
            "entry_requirement",
        ),
        (
            {
                "grade": "A",
                "venue": True,
                "rounds": 2,
                "boards": 120,
                "entrants": (Entrant("P1", silver_points=9),),
            },
            "entry_requirement",
        ),
        ({"changes": (Change(dt.date(2026, 12, 10), "venue"),)}, "change_deadline"),
        (
            {"registration_opens": dt.date(2026, 11, 20), "changes": (Change(dt.date(2026, 11, 25), "fee"),)},
            "change_deadline",
        ),
        ({"ended": dt.date(2026, 12, 14)}, "export"),
        ({"ended": dt.date(2026, 12, 14), "exported": dt.date(2027, 1, 5)}, "export"),
    ],
)
def test_each_rule_is_checked(changes, rule):
    assert rules(plan(**changes)) == [rule]


def test_name_words_allowed_when_the_centre_hosts_or_guides():
    assert rules(plan(name="全国锄大地公开赛", organiser="centre_guided")) == []


def test_change_deadline_is_three_working_days_before_the_start():
    last = add_working_days(START, -3)
    assert last == dt.date(2026, 12, 9)  # Mon 14 → Fri 11, Thu 10, Wed 9
    assert rules(plan(changes=(Change(last, "fee"),))) == []
    assert rules(plan(changes=(Change(last + dt.timedelta(days=1), "fee"),))) == ["change_deadline"]


def test_export_within_fifteen_working_days():
    ended = dt.date(2026, 12, 14)
    due = add_working_days(ended, 15)
    assert due == dt.date(2027, 1, 4)
    assert rules(plan(ended=ended, exported=due)) == []
