"""The console's referee pages without a browser, over the real organiser API handler (under moto) with a
round dealt and its handsets: the forms' choices, a preview that writes nothing, a confirm that
writes once and its replay refused, a refusal shown as the API gives it, the calls answered (and the
API's route for it), the audit log newest first, who may do what, and every word in both languages."""

from __future__ import annotations

import html
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_calls import ALICE, BOB, CAROL, cup_dealt
from api_calls import audit as stored_audit
from api_calls import call as api_call
from backend import DeviceBot, FakeClock, act
from deckhand.service.infra import clock
from deckhand_local.console import referee
from deckhand_local.console.app import SESSION_COOKIE, Console
from deckhand_local.console.words import _REFEREE_EN, _REFEREE_ZH, CATALOGUE, EN, ZH
from test_console import Browser, in_process

ROOT = Path(__file__).resolve().parents[2]
TOKENS = {ALICE: "alice-token-" + "a" * 20, CAROL: "carol-token-" + "c" * 20, BOB: "bob-token-" + "b" * 20}
CUP = "/console/events/cup"


class Staff(Browser):
    def sign_in(self, identity: str) -> None:
        status, _, _ = self.request("POST", "/console/sign-in", {"token": TOKENS[identity]})
        assert status == 303 and SESSION_COOKIE in self.cookies

    def fields(self, path: str, form_id: str) -> dict[str, str]:
        """The fields a page's form would send as drawn (hidden ones and the selects' first options)."""
        _, text = self.get(path)
        form = re.search(rf'<form[^>]*id="{form_id}".*?</form>', text, re.S)
        assert form is not None, f"no form {form_id} on {path}"
        out = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(0)))
        for name, options in re.findall(
            r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', form.group(0), re.S
        ):
            out[name] = re.findall(r'value="([^"]*)"', options)[0]
        return out


@pytest.fixture
def cup() -> Iterator[tuple[Console, Any, list[DeviceBot]]]:
    """Alice's cup, round 1 dealt at tables A and B; Carol its referee; Bob an organiser of his own."""
    with cup_dealt() as (api, table_a, table_b):
        assert api_call(api, "PUT", "/events/cup/roles", {"roles": {CAROL: "referee"}})[0] == 200
        yield (
            Console(in_process(api), lambda: dict(TOKENS), ROOT / "web" / "console"),
            api,
            [*table_a, *table_b],
        )


def signed_in(console: Console, identity: str) -> Staff:
    staff = Staff(console)
    staff.sign_in(identity)
    return staff


def preview(staff: Staff, slug: str, **chosen: str) -> tuple[int, str, dict[str, str]]:
    """The preview of a referee form with ``chosen`` over what it offers first: (status, page, the
    confirm form's fields)."""
    fields = {**staff.fields(f"{CUP}/referee/{slug}", "referee-form"), **chosen}
    status, _, text = staff.request("POST", f"{CUP}/referee/preview", fields)
    confirm = re.search(r'<form[^>]*id="referee-confirm".*?</form>', text, re.S)
    sent = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', confirm.group(0))) if confirm else {}
    return status, text, sent


def test_the_forms_offer_the_rounds_choices_and_only_the_kinds_the_rules_allow(cup):
    console, _, _ = cup
    carol = signed_in(console, CAROL)
    status, text = carol.get(f"{CUP}/referee")
    offered = re.findall(r'data-kind="([a-z-]+)"', text)
    assert status == 200 and offered == ["warning", "violation", "withdraw", "adjust", "artificial", "reseat"]
    for match_only in ("foul", "forfeit", "disqualify", "takeover"):
        assert carol.get(f"{CUP}/referee/{match_only}")[0] == 404
    # No re-seat in a match: its pairs keep their seats (the API refuses it).
    assert referee.kinds_of({"match": {"format": "swiss"}}) == [
        "warning", "violation", "foul", "forfeit", "disqualify", "withdraw", "serve_deal",
    ]  # fmt: skip
    _, form = carol.get(f"{CUP}/referee/artificial")
    assert re.findall(r'<select id="table".*?</select>', form, re.S)[0].count("<option") == 2
    assert re.findall(r'<select id="board".*?</select>', form, re.S)[0].count("<option") == 2
    for seat in range(4):  # one kind a seat, and the AI's "none"
        kinds = re.findall(rf'<select id="artificial{seat}".*?</select>', form, re.S)[0]
        assert re.findall(r'value="([a-z_]+)"', kinds) == [*referee.ARTIFICIAL_KINDS, referee.AI_SEAT]
    _, reseat = carol.get(f"{CUP}/referee/reseat")
    players = re.findall(r'<select id="player".*?</select>', reseat, re.S)[0]
    assert sorted(re.findall(r'value="(P\d)"', players)) == [f"P{i}" for i in range(1, 9)]
    ids = re.findall(r'<(?:input|select|textarea)(?![^>]*type="hidden")[^>]*id="([^"]+)"', form + reseat)
    assert ids and all(f'for="{i}"' in form + reseat for i in ids)


def test_a_preview_writes_nothing_the_confirm_writes_once_and_its_replay_is_refused(cup):
    console, _, _ = cup
    carol = signed_in(console, CAROL)
    before = len(stored_audit())
    status, text, confirm = preview(carol, "warning", player="P3", reason="slow play")
    assert status == 200 and "data-preview" in text and "Player 3" in text
    assert len(stored_audit()) == before  # the preview wrote nothing
    status, _, done = carol.request("POST", f"{CUP}/referee/confirm", confirm)
    assert status == 200 and 'data-audit-kind="warning"' in done and f"data-audit-by>{CAROL}<" in done
    entries = stored_audit()
    assert len(entries) == before + 1 and entries[-1].detail == {"player": "P3", "reason": "slow play"}
    status, headers, _ = carol.request("GET", f"{CUP}/referee/confirm?lang=en")  # the page's language switch
    assert status == 303 and headers["Location"] == f"{CUP}/referee"
    status, _, again = carol.request("POST", f"{CUP}/referee/confirm", confirm)  # the same form again
    assert status == 403 and 'data-error="refused"' in again
    assert len(stored_audit()) == before + 1


def test_an_artificial_score_of_a_board_in_play_says_it_ends_it_unplayed_then_does(cup):
    console, api, _ = cup
    alice = signed_in(console, ALICE)  # the owner referees too
    kinds = {"artificial0": "average_plus", "artificial1": "average", "artificial2": "average_minus"}
    status, text, confirm = preview(alice, "artificial", table="A", board="1", reason="a card fell", **kinds)
    assert status == 200 and "ended unplayed" not in text  # (in Chinese by default)
    sent = '"artificial": ["average_plus", "average", "average_minus", "average_plus"]'
    assert "先判为未打" in text and sent in html.unescape(text)
    assert not [a for a in stored_audit() if a.kind == "artificial"]
    status, _, done = alice.request("POST", f"{CUP}/referee/confirm", confirm)
    assert status == 200 and 'data-audit-kind="artificial"' in done
    (entry,) = [a for a in stored_audit() if a.kind == "artificial"]
    assert entry.by == ALICE and entry.detail["table"] == "A" and entry.detail["board"] == "1"
    _, status_now = api_call(api, "GET", "/events/cup/rounds/1")
    (board,) = [
        b for t in status_now["tables"] if t["table"] == "A" for b in t["boards"] if b["board"] == "1"
    ]
    assert board["status"] == "ended" and board["not_played"] is True


@pytest.mark.parametrize("lang", [ZH, EN])
def test_a_refusal_is_the_apis_structured_error_in_either_language_and_changes_nothing(cup, lang):
    console, _, _ = cup
    carol = signed_in(console, CAROL)
    carol.get(f"/console/?lang={lang}")
    before = len(stored_audit())
    scores = {"score0": "1", "score1": "-1", "score2": "0", "score3": "0"}
    status, _, confirm = preview(carol, "adjust", table="B", board="2", reason="wrong count", **scores)
    assert status == 200
    status, _, text = carol.request("POST", f"{CUP}/referee/confirm", confirm)  # board 2 has no result yet
    assert status == 404 and 'data-error="api"' in text and 'data-code="not_found"' in text
    assert CATALOGUE[lang]["referee.code.not_found"] in text and "no result for round 1" in text
    assert len(stored_audit()) == before
    # a table of no round: refused by the form before anything is sent
    status, text, _ = preview(carol, "artificial", table="Z", reason="x")
    assert status == 400 and 'data-error="form"' in text and "referee-confirm" not in text
    status, text, _ = preview(carol, "reseat", player="P1", table="A", seat="7", reason="x")
    assert status == 400 and 'data-error="form"' in text
    status, text, _ = preview(carol, "warning", player="P1", reason="x", round="2")  # drawn for another round
    assert status == 400 and 'data-error="form"' in text and "round 1 is in play" in text
    assert len(stored_audit()) == before


def test_who_may_referee_staff_only_and_never_another_organisers_event(cup):
    console, api, _ = cup
    bob = signed_in(console, BOB)
    for page in ("referee", "referee/warning", "audit", "calls"):
        assert bob.get(f"{CUP}/{page}")[0] == 403, page
    bob_form = bob.fields("/console/events/new", "new-event")  # a good token of Bob's session
    status, _, text = bob.request(
        "POST", f"{CUP}/referee/confirm", {**bob_form, "kind": "warning", "player": "P1", "reason": "x"}
    )
    assert status == 403 and "data-error" in text
    assert not [a for a in stored_audit() if a.kind == "warning"]
    # Bob's own event: the cup's referee is nobody there
    assert api_call(api, "POST", "/events", {**_event("bobs"), "name": "Bob's"}, caller=BOB)[0] == 201
    carol = signed_in(console, CAROL)
    assert carol.get("/console/events/bobs/referee")[0] == 403
    assert carol.get("/console/events/bobs/audit")[0] == 403
    # a referee takes every referee action, and no organiser's: the round is not theirs to start
    status, _, confirm = preview(carol, "violation", player="P2", reason="revoke")
    assert status == 200
    assert carol.request("POST", f"{CUP}/referee/confirm", confirm)[0] == 200
    assert 'id="start-round"' not in carol.get(CUP)[1]


def _event(event_id: str) -> dict[str, Any]:
    from api_calls import EVENT

    return {**EVENT, "event_id": event_id}


def test_a_call_flashes_until_handled_and_handling_is_audited_once(cup):
    console, api, bots = cup
    carol = signed_in(console, CAROL)
    bot = bots[1]  # table A, seat 1
    assert bot.backend.send(bot.thing, act("call-1", "1", "call", r=1))["status"] == "accepted"
    _, grid = carol.get(f"{CUP}/room/grid")
    assert grid.count("data-call>") == 1 and "/calls" in grid
    _, calls = carol.get(f"{CUP}/calls")
    assert 'data-handled="no"' in calls and 'id="handle-1"' in calls
    fields = carol.fields(f"{CUP}/calls", "handle-1")
    status, _, text = carol.request("POST", f"{CUP}/calls/handled", {**fields, "note": "went over"})
    assert status == 200 and 'data-audit-kind="call_handled"' in text and 'data-handled="yes"' in text
    _, grid = carol.get(f"{CUP}/room/grid")  # a reload: the database says it is handled
    assert "data-call>" not in grid
    (handled,) = [a for a in stored_audit() if a.kind == "call_handled"]
    assert handled.by == CAROL and handled.detail["seat"] == 1 and handled.detail["note"] == "went over"
    # the same call again (another form, or a retry of the API call): the first entry, not a second
    body = {k: int(v) if k in ("round", "seat", "at") else v for k, v in fields.items() if k != "csrf"}
    status, entry = api_call(api, "POST", "/events/cup/calls/handled", body, caller=ALICE)
    assert status == 201 and entry["by"] == CAROL
    assert len([a for a in stored_audit() if a.kind == "call_handled"]) == 1
    _, status_now = api_call(api, "GET", "/events/cup/rounds/1")
    (call,) = [c for t in status_now["tables"] for b in t["boards"] for c in b.get("calls", [])]
    assert call["handled"] == {"by": CAROL, "at": entry["at"]}
    # a call nobody made, and a caller not on the staff
    assert api_call(api, "POST", "/events/cup/calls/handled", {**body, "seat": 2}, caller=ALICE)[0] == 404
    assert api_call(api, "POST", "/events/cup/calls/handled", body, caller=BOB)[0] == 403
    assert api_call(api, "POST", "/events/cup/calls/handled", {**body, "at": "1"}, caller=ALICE)[0] == 422


def test_the_audit_log_newest_first_in_both_languages(cup):
    console, api, _ = cup
    alice = signed_in(console, ALICE)
    ticking = FakeClock()
    clock.set_clock(ticking)  # (api_under_moto's clock, again: one that the test moves)
    for player in ("P1", "P2"):
        status, _ = api_call(
            api, "POST", "/events/cup/referee", {"kind": "warning", "player": player, "reason": "r"}
        )
        assert status == 201
        ticking.advance(1000)
    for lang, word in ((ZH, "审计日志"), (EN, "Audit log")):
        status, text = alice.get(f"{CUP}/audit?lang={lang}")
        times = [int(t) for t in re.findall(r'data-audit-kind="warning" data-audit-at="(\d+)"', text)]
        assert status == 200 and word in text and len(times) == 2 and times == sorted(times, reverse=True)
        players = re.findall(r'data-audit-field="player">(P\d)<', text)
        assert players == ["P2", "P1"]


def test_every_referee_word_is_in_both_languages_with_the_same_blanks():
    assert set(_REFEREE_ZH) == set(_REFEREE_EN)
    fields = string.Formatter()
    for key in _REFEREE_ZH:
        blanks = [{f for _, f, _, _ in fields.parse(c[key]) if f} for c in (_REFEREE_ZH, _REFEREE_EN)]
        assert blanks[0] == blanks[1], key
    kinds = set(referee.SLUGS.values())
    asked = {f"referee.{part}.{k}" for k in kinds for part in ("kind", "intro", "does")}
    asked |= {f"referee.artificial.{a}" for a in referee.ARTIFICIAL_KINDS}
    code = "".join(p.read_text() for p in (ROOT / "local/deckhand_local/console").glob("referee*.py"))
    asked |= {k for k in re.findall(r'w(?:ords)?\("([a-z_.]+)"', code) if not k.endswith(".")}
    templates = (ROOT / "local/deckhand_local/console/templates").glob("*.html")
    asked |= {
        k for t in templates for k in re.findall(r'w\("([a-z_.]+)"', t.read_text()) if not k.endswith(".")
    }
    assert asked <= set(CATALOGUE[ZH]) and asked <= set(CATALOGUE[EN])
