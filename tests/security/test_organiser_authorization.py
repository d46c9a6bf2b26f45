"""Organiser B against organiser A's event, through the api handler as API Gateway calls it: every
route that changes an event, or shows its staff's records, checks the caller's role."""

import json

import pytest
from api_calls import ALICE, BOB, CAROL, EVENT, PLAYERS, TABLES, api_under_moto, call
from deckhand.service.organiser import events
from deckhand.service.storage import keys, models


@pytest.fixture
def api():
    """Alice's event "cup", just created."""
    with api_under_moto() as handler:
        assert call(handler, "POST", "/events", EVENT, caller=ALICE)[0] == 201
        yield handler


def audit_count():
    return len(
        list(models.AuditItem.query(keys.event_pk("cup"), models.AuditItem.sk.startswith(keys.AUDIT_PREFIX)))
    )


WRITES = [
    ("POST", "/events/cup/players", PLAYERS),
    ("POST", "/events/cup/tables", TABLES),
    ("POST", "/events/cup/rounds", None),
    ("POST", "/events/cup/rounds/1/deal", None),
    ("POST", "/events/cup/referee", {"kind": "warning", "player": "P1", "reason": "slow play"}),
    (
        "POST",
        "/events/cup/referee",
        {"kind": "adjust", "round": 1, "table": "T1", "board": "1", "scores": [9, -9, 0, 0], "reason": "x"},
    ),
    ("PUT", "/events/cup/roles", {"roles": {BOB: "organiser"}}),
    ("GET", "/events/cup/audit", None),
    ("GET", "/events/cup/roles", None),
]


@pytest.mark.parametrize(("method", "path", "body"), WRITES)
def test_another_organiser_is_refused_everywhere_and_nothing_changes(api, method, path, body):
    before = events.get_event("cup")
    code, answer = call(api, method, path, body, caller=BOB)
    assert code == 403 and set(answer) == {"error"} and BOB in answer["error"]
    after = events.get_event("cup")
    assert (after.status, after.current_round, after.roles, after.version) == (
        before.status,
        before.current_round,
        before.roles,
        before.version,
    )
    assert events.list_players("cup") == [] and events.list_tables("cup") == [] and audit_count() == 0


def test_the_owner_is_the_verified_caller_never_the_body(api):
    assert events.get_event("cup").owner == ALICE
    code, answer = call(api, "POST", "/events", dict(EVENT, event_id="cup2", owner=BOB), caller=BOB)
    assert code == 422 and answer["field"] == "owner"
    for headers in ({}, {"Idempotency-Key": "k-1"}):  # the key's scope is the caller: refused there too
        code, answer = call(
            api, "POST", "/events", dict(EVENT, event_id="cup3"), caller=None, headers=headers
        )
        assert code == 403 and "identity" in answer["error"]
    assert call(api, "GET", "/events/cup3")[0] == 404


def test_roles_granted_by_the_owner(api):
    assert call(api, "POST", "/events/cup/players", PLAYERS)[0] == 201
    code, roles = call(api, "PUT", "/events/cup/roles", {"roles": {BOB: "organiser", CAROL: "referee"}})
    assert code == 200 and roles == {"owner": ALICE, "roles": {BOB: "organiser", CAROL: "referee"}}
    # An organiser runs the event; it may not grant roles.
    assert call(api, "POST", "/events/cup/tables", TABLES, caller=BOB)[0] == 201
    assert call(api, "PUT", "/events/cup/roles", {"roles": {BOB: "referee"}}, caller=BOB)[0] == 403
    # A referee referees, and the audit names who did it as verified — a body's "by" is refused.
    code, record = call(
        api,
        "POST",
        "/events/cup/referee",
        {"kind": "warning", "player": "P2", "reason": "slow"},
        caller=CAROL,
    )
    assert code == 201 and record["by"] == CAROL
    code, answer = call(
        api,
        "POST",
        "/events/cup/referee",
        {"kind": "warning", "player": "P2", "reason": "slow", "by": ALICE},
        caller=CAROL,
    )
    assert code == 422 and answer["field"] == "by"
    code, audit = call(api, "GET", "/events/cup/audit", caller=CAROL)
    assert code == 200 and sorted((a["kind"], a["by"]) for a in audit["audit"]) == [
        ("roles", ALICE),
        ("warning", CAROL),
    ]
    # A referee does referee actions only.
    for method, path, body in WRITES[:4]:
        assert call(api, method, path, body, caller=CAROL)[0] == 403, path
    # Roles taken back: refused again.
    assert call(api, "PUT", "/events/cup/roles", {"roles": {}})[0] == 200
    assert call(api, "POST", "/events/cup/rounds", caller=BOB)[0] == 403


def test_every_change_of_staff_is_audited_once_with_who_and_what(api):
    grants = [
        {BOB: "organiser", CAROL: "referee"},
        {BOB: "organiser", CAROL: "referee"},  # a retry: nothing changes, no second entry
        {BOB: "referee"},
        {},
    ]
    for roles in grants:
        assert call(api, "PUT", "/events/cup/roles", {"roles": roles})[0] == 200
    code, audit = call(api, "GET", "/events/cup/audit")
    # The harness's clock stands still: entries of the same millisecond come in any order.
    entries = sorted(json.dumps({k: v for k, v in a.items() if k != "at"}) for a in audit["audit"])
    assert code == 200 and entries == sorted(
        json.dumps(e)
        for e in [
            {"kind": "roles", "by": ALICE, "granted": {BOB: "organiser", CAROL: "referee"}},
            {"kind": "roles", "by": ALICE, "changed": {BOB: "referee"}, "removed": {CAROL: "referee"}},
            {"kind": "roles", "by": ALICE, "removed": {BOB: "referee"}},
        ]
    )


def test_a_change_of_staff_on_a_stale_event_is_refused_and_audits_nothing(api):
    from deckhand.errors import Conflict
    from deckhand.service.organiser import access

    stale = events.get_event("cup")
    assert call(api, "PUT", "/events/cup/roles", {"roles": {BOB: "organiser"}})[0] == 200
    with pytest.raises(Conflict):
        access.set_roles(stale, ALICE, {CAROL: "referee"})
    assert events.get_event("cup").roles == {BOB: "organiser"} and audit_count() == 1


def test_roles_name_identities_and_known_roles_only(api):
    for roles in ({BOB: "owner"}, {"bob smith": "referee"}, {ALICE: "referee"}, {"x\u202e": "referee"}):
        code, answer = call(api, "PUT", "/events/cup/roles", {"roles": roles})
        assert code in (400, 422) and set(answer) <= {"error", "field"}, roles
    assert events.get_event("cup").roles == {}


def test_an_event_made_in_process_has_no_owner_and_no_one_changes_it_through_the_api(api):
    events.create_event(
        {
            **EVENT,
            "event_id": "local",
            "format": "pvp",
            "groups": 1,
            "start": __import__("datetime").date(2026, 12, 14),
        }
    )
    assert call(api, "POST", "/events/local/players", PLAYERS)[0] == 403
