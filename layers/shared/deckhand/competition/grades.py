"""Event grades (RULES.md §1.5, seed 001 §5 and §9) as data, and a checker that lists violations.

⚖ RULES.md applies one grade scheme (seed 001's) to every game. Working days are Monday to Friday;
public holidays are not known to the checker (a director should allow for them).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import NamedTuple

CENTRE = "centre"  # the national centre hosts
CENTRE_GUIDED = "centre_guided"  # the centre hosts or guides
REGISTERED_UNIT = "registered_unit"
ORGANISERS = (CENTRE, CENTRE_GUIDED, REGISTERED_UNIT)
RESERVED_NAME_WORDS = ("中国", "全国", "国家", "中华")
CHANGE_DEADLINE_WORKING_DAYS = 3
EXPORT_DEADLINE_WORKING_DAYS = 15


class Grade(NamedTuple):
    name: str
    organisers: tuple[str, ...]
    venue_required: bool
    multi_round: bool  # True: at least two rounds; False: exactly one
    min_boards: int
    fee_cap: int | None  # ¥ per round; None: no cap
    fee_cap_non_venue_only: bool
    min_silver_points: int
    min_red_points: int


GRADES: dict[str, Grade] = {
    "national_championship": Grade("National Championship", (CENTRE,), True, True, 0, None, False, 0, 0),
    "national_open": Grade("National Open", (CENTRE, CENTRE_GUIDED), True, True, 240, None, False, 0, 0),
    "A": Grade("A", (REGISTERED_UNIT, CENTRE, CENTRE_GUIDED), True, True, 120, 50, True, 10, 0),
    "B1": Grade("B1", (REGISTERED_UNIT, CENTRE, CENTRE_GUIDED), False, True, 50, 30, False, 0, 300),
    "B2": Grade("B2", (REGISTERED_UNIT, CENTRE, CENTRE_GUIDED), False, True, 30, 30, False, 0, 300),
    "C1": Grade("C1", (REGISTERED_UNIT, CENTRE, CENTRE_GUIDED), False, False, 10, 20, False, 0, 0),
    "C2": Grade("C2", (REGISTERED_UNIT, CENTRE, CENTRE_GUIDED), False, False, 8, 20, False, 0, 0),
    "C3": Grade("C3", (REGISTERED_UNIT, CENTRE, CENTRE_GUIDED), False, False, 6, 20, False, 0, 0),
    "C4": Grade("C4", (REGISTERED_UNIT, CENTRE, CENTRE_GUIDED), False, False, 5, 20, False, 0, 0),
    "C5": Grade("C5", (REGISTERED_UNIT, CENTRE, CENTRE_GUIDED), False, False, 3, 20, False, 0, 0),
}
# Not a grade of the rules: a practice or club event that is not registered with the governing
# platform (and so is free of the grade rules). The name rule still applies.
UNRATED = "unrated"


class Entrant(NamedTuple):
    player: str
    silver_points: int = 0
    red_points: int = 0


class Change(NamedTuple):
    date: dt.date
    field: str


class EventPlan(NamedTuple):
    """What the checker needs to know about an event as registered."""

    name: str
    grade: str
    organiser: str
    venue: bool  # venue play (限定场地赛) for the whole event or its venue part
    rounds: int
    boards: int
    fee: int  # ¥ per round (for grade A: of the non-venue part)
    start: dt.date
    registration_opens: dt.date | None = None
    changes: tuple[Change, ...] = ()
    entrants: tuple[Entrant, ...] = ()
    ended: dt.date | None = None
    exported: dt.date | None = None


class Violation(NamedTuple):
    rule: str
    message: str


def add_working_days(day: dt.date, n: int) -> dt.date:
    """``n`` working days (Mon–Fri) after ``day`` (before it when n < 0)."""
    step = 1 if n >= 0 else -1
    remaining = abs(n)
    while remaining:
        day += dt.timedelta(days=step)
        if day.weekday() < 5:
            remaining -= 1
    return day


def check_event(plan: EventPlan) -> list[Violation]:
    """Every rule of the plan's grade that it breaks, each with a message a director can act on."""
    if plan.grade == UNRATED:
        grade = Grade("unrated", ORGANISERS, False, plan.rounds > 1, 0, None, False, 0, 0)
    else:
        grade = GRADES.get(plan.grade)  # type: ignore[assignment]
    if grade is None:
        return [
            Violation("grade", f"unknown grade {plan.grade!r}; grades are {', '.join(GRADES)}, {UNRATED}")
        ]
    out: list[Violation] = []
    if plan.organiser not in ORGANISERS:
        out.append(
            Violation(
                "organiser", f"organiser must be one of {', '.join(ORGANISERS)}, got {plan.organiser!r}"
            )
        )
    elif plan.organiser not in grade.organisers:
        out.append(
            Violation(
                "organiser", f"a {grade.name} event must be organised by {' or '.join(grade.organisers)}"
            )
        )
    if grade.venue_required and not plan.venue:
        out.append(Violation("venue", f"a {grade.name} event requires venue play"))
    if grade.multi_round and plan.rounds < 2:
        out.append(Violation("rounds", f"a {grade.name} event has several rounds, not {plan.rounds}"))
    if not grade.multi_round and plan.rounds != 1:
        out.append(
            Violation("rounds", f"a {grade.name} event is played in a single round, not {plan.rounds}")
        )
    if plan.boards < grade.min_boards:
        out.append(
            Violation(
                "min_boards",
                f"a {grade.name} event needs at least {grade.min_boards} boards, has {plan.boards}",
            )
        )
    if grade.fee_cap is not None and plan.fee > grade.fee_cap:
        part = " for the non-venue part" if grade.fee_cap_non_venue_only else ""
        out.append(
            Violation("fee_cap", f"the fee{part} is capped at ¥{grade.fee_cap} per round, got ¥{plan.fee}")
        )
    if plan.organiser not in (CENTRE, CENTRE_GUIDED):
        used = [w for w in RESERVED_NAME_WORDS if w in plan.name]
        if used:
            out.append(
                Violation(
                    "name", f"the name may use {'/'.join(used)} only when the national centre hosts or guides"
                )
            )
    out.extend(_check_entrants(grade, plan.entrants))
    out.extend(_check_changes(plan))
    if plan.ended is not None and plan.exported is None:
        due = add_working_days(plan.ended, EXPORT_DEADLINE_WORKING_DAYS)
        out.append(Violation("export", f"results are not exported yet; they are due by {due.isoformat()}"))
    elif plan.ended is not None and plan.exported is not None:
        due = add_working_days(plan.ended, EXPORT_DEADLINE_WORKING_DAYS)
        if plan.exported > due:
            out.append(
                Violation(
                    "export",
                    f"results exported {plan.exported.isoformat()}, after the deadline {due.isoformat()}",
                )
            )
    return out


def _check_entrants(grade: Grade, entrants: Sequence[Entrant]) -> list[Violation]:
    out = []
    seen: set[str] = set()
    for e in entrants:
        if e.player in seen:
            out.append(
                Violation("entry_once", f"player {e.player!r} is entered twice; a player enters a round once")
            )
        seen.add(e.player)
        if e.silver_points < grade.min_silver_points:
            out.append(
                Violation(
                    "entry_requirement",
                    f"player {e.player!r} has {e.silver_points} silver points; {grade.name} requires {grade.min_silver_points}",
                )
            )
        if e.red_points < grade.min_red_points:
            out.append(
                Violation(
                    "entry_requirement",
                    f"player {e.player!r} has {e.red_points} red points; {grade.name} requires {grade.min_red_points}",
                )
            )
    return out


def _check_changes(plan: EventPlan) -> list[Violation]:
    out = []
    last_day = add_working_days(plan.start, -CHANGE_DEADLINE_WORKING_DAYS)
    for change in plan.changes:
        if plan.registration_opens is not None and change.date >= plan.registration_opens:
            out.append(
                Violation(
                    "change_deadline",
                    f"{change.field} changed on {change.date.isoformat()}, after player registration opened "
                    f"({plan.registration_opens.isoformat()})",
                )
            )
        elif change.date > last_day:
            out.append(
                Violation(
                    "change_deadline",
                    f"{change.field} changed on {change.date.isoformat()}; changes close 3 working days before the "
                    f"start ({last_day.isoformat()})",
                )
            )
    return out
