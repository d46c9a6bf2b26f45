"""Setting an event up and finishing it in the console, without a browser, over the real organiser API
handler (under moto): the grade checker's findings before saving, every rule set's event, registration
from CSV (pasted or a file) with every bad line named and nothing registered, a player's region through
the API and its export, a match event's pairing and its override's warnings, join links and guide
cards, the results site and ``verify``'s verdict."""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

import pytest
from api_calls import EVENT, api_under_moto
from api_calls import call as api_call
from backend import THINGS, Backend, DeviceBot, run_round
from deckhand_local.console import forms
from test_console import Browser, console, console_of, td_with_cup  # noqa: F401  (console: a fixture)

GUANDAN = {
    "event_id": "league",
    "name": "Harbour Pairs",
    "ruleset": "guandan-2023",
    "grade": "unrated",
    "rounds": "2",
    "start": "2026-12-14",
    "match_format": "swiss",
    "options": '{"end_mode": "boards", "boards": 2}',
}
PAIRS_CSV = "\n".join(f"Pair {p}, {p}, R{i % 2}, {p} one, {p}1, {p} two, {p}2" for i, p in enumerate("ABCD"))


def multipart(fields: dict[str, str], files: dict[str, str]) -> tuple[bytes, str]:
    """A multipart/form-data body as a browser sends a form with a file chosen."""
    boundary = "----deckhand-test-boundary"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
        for k, v in fields.items()
    ] + [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"; filename="{k}.csv"\r\n'
        f"Content-Type: text/csv\r\n\r\n{v}\r\n"
        for k, v in files.items()
    ]
    return ("".join(parts) + f"--{boundary}--\r\n").encode(), f"multipart/form-data; boundary={boundary}"


def upload(td: Browser, page: str, form_id: str, action: str, text: str) -> tuple[int, str]:
    token = td.form_token(page, form_id)
    body, kind = multipart({"csrf": token, "csv": ""}, {"csv_file": "\ufeff" + text})
    cookie = "; ".join(f"{k}={v}" for k, v in td.cookies.items())
    status, _, data = td.console.serve("POST", action, {"Content-Type": kind, "Cookie": cookie}, body)
    return status, data.decode()


def td_with_league(con: Any) -> Browser:
    td = Browser(con)
    td.sign_in("local:td")
    status, _ = td.submit("/console/events/new", "new-event", "/console/events", GUANDAN)
    assert status == 303
    return td


# ---- the forms -----------------------------------------------------------------------------------


def test_a_csv_names_every_bad_line_by_its_line_in_the_text():
    text = "name, number, region\n\nAnn, P1, SH\nBen\n\nCai, P 3, BJ\nDai, P1\n"
    with pytest.raises(forms.FormError) as caught:
        forms.players_body(text)
    why = str(caught.value)
    assert "line 4:" in why and "line 6:" in why and "line 7:" in why  # lines of the text, blanks counted
    assert "line 3:" not in why and "P1 is on line 3" in why  # a number twice: both lines named
    assert forms.players_body("Ann, P1,\nBen, P2, SH")["players"] == [
        {"id": "P1", "name": "Ann"},
        {"id": "P2", "name": "Ben", "region": "SH"},
    ]
    with pytest.raises(forms.FormError, match="line 1: region"):  # the API's own rule: 100 characters
        forms.players_body("Ann, P1, " + "x" * 101)


def test_a_pairs_csv_gives_the_pairs_with_their_two_players():
    body = forms.pairs_body("name,number,region,p1,n1,p2,n2\n" + PAIRS_CSV)
    assert body["pairs"][1] == {
        "id": "B",
        "name": "Pair B",
        "region": "R1",
        "players": [{"id": "B1", "name": "B one"}, {"id": "B2", "name": "B two"}],
    }
    with pytest.raises(forms.FormError, match="line 2: name, registration number, region"):
        forms.pairs_body("Pair A, A, , a, A1, b, A2\nPair B, B, , b, B1")


def test_a_multipart_form_is_read_and_a_file_not_in_utf8_refused():
    body, kind = multipart({"csrf": "t"}, {"csv_file": "Ann, P1, 上海"})
    assert forms.fields(body, kind) == {"csrf": "t", "csv_file": "Ann, P1, 上海"}
    bad = body.replace("上海".encode(), "上海".encode("gbk"))
    with pytest.raises(forms.FormError, match="UTF-8"):
        forms.fields(bad, kind)


def test_the_new_event_form_gives_a_match_event_its_settings():
    body = forms.event_body(
        {**GUANDAN, "boards_per_round": "3", "match_same_boards": "on", "venue_shown": "1"}
    )
    assert body["match"] == {"format": "swiss", "same_boards": True}
    assert body["options"] == {"end_mode": "boards", "boards": 2} and body["venue"] is False
    assert "boards_per_round" not in body and body["rounds"] == 2
    duplicate = forms.event_body({"ruleset": "bigtwo-2017", "boards_per_round": "3", "match_format": "swiss"})
    assert duplicate == {"ruleset": "bigtwo-2017", "boards_per_round": 3}
    with pytest.raises(forms.FormError, match="match_swiss: not JSON"):
        forms.event_body({**GUANDAN, "match_swiss": "{round1:"})


# ---- the region, through the API ------------------------------------------------------------------


def test_a_players_region_is_kept_and_exported_only_when_given():
    with api_under_moto() as api:
        assert api_call(api, "POST", "/events", EVENT)[0] == 201
        players = {"players": [{"id": "P1", "name": "Ann", "region": "上海"}, {"id": "P2", "name": "Ben"}]}
        assert api_call(api, "POST", "/events/cup/players", players)[0] == 201
        exported = api_call(api, "GET", "/events/cup/export")[1]["players"]
        assert exported == [
            {"id": "P1", "name": "Ann", "number": 1, "region": "上海"},
            {"id": "P2", "name": "Ben", "number": 2},
        ]
        too_long = {"players": [{"id": "P3", "region": "x" * 101}]}
        assert api_call(api, "POST", "/events/cup/players", too_long)[0] == 422


# ---- the pages ------------------------------------------------------------------------------------


def test_the_grade_checkers_findings_are_shown_before_anything_is_saved(console):  # noqa: F811
    con, api = console
    td = Browser(con)
    td.sign_in("local:td")
    plan = {**{k: str(v) for k, v in EVENT.items()}, "grade": "A", "rounds": "1", "check": "1"}
    status, text = td.submit("/console/events/new", "new-event", "/console/events", plan)
    assert status == 200 and "data-findings" in text and re.search(r'data-rule="\w+"', text)
    assert 'value="Harbour Cup"' in text  # the form kept, to be changed and saved
    assert api_call(api, "GET", "/events", caller="local:td")[1]["events"] == []  # nothing saved
    fine = {**{k: str(v) for k, v in EVENT.items()}, "check": "1"}
    status, text = td.submit("/console/events/new", "new-event", "/console/events", fine)
    assert status == 200 and 'data-checked="0"' in text and "级别检查没有发现问题" in text
    bad = {**GUANDAN, "match_swiss": '{"no_such_option": 1}', "check": "1"}
    status, text = td.submit("/console/events/new", "new-event", "/console/events", bad)
    assert status == 400 and 'data-error="api"' in text and "no_such_option" in text
    assert api_call(api, "GET", "/events", caller="local:td")[1]["events"] == []


def test_the_new_event_form_offers_every_rule_set_and_match_format(console):  # noqa: F811
    con, _ = console
    td = Browser(con)
    td.sign_in("local:td")
    text = td.get("/console/events/new")[1]
    from deckhand.engines.registry import RULESETS
    from deckhand.service.bodies import MatchSpec

    assert all(f'value="{r}"' in text for r in RULESETS)
    assert all(f'value="{f}"' in text for f in ("swiss", "round_robin", "knockout", "swiss_then_knockout"))
    assert all(f'name="match_{d}"' in text for d in forms.MATCH_DOCUMENTS)
    asked = set(MatchSpec.model_fields)
    offered = {
        "format",
        "games",
        "same_boards",
        "no_new_board_after",
        "deal_ms",
        "max_games",
        *forms.MATCH_DOCUMENTS,
    }
    assert asked == offered  # a setting the API takes and the form does not offer fails here
    from deckhand.service.bodies import EventSpec

    fields = set(re.findall(r'name="(\w+)"', text))
    assert set(EventSpec.model_fields) - {"match"} <= fields  # (match: the match_… fields above)


@pytest.mark.parametrize("match_format", ["swiss", "knockout"])
def test_a_guandan_event_is_created_and_its_pairs_registered_from_a_file(console, match_format):  # noqa: F811
    con, api = console
    td = Browser(con)
    td.sign_in("local:td")
    form = {**GUANDAN, "match_format": match_format}
    assert td.submit("/console/events/new", "new-event", "/console/events", form)[0] == 303
    event = api_call(api, "GET", "/events/league", caller="local:td")[1]
    assert event["match"]["format"] == match_format and event["options"]["boards"] == 2
    page = td.get("/console/events/league")[1]
    assert 'id="pairs-form"' in page and 'id="players-form"' not in page
    status, text = upload(
        td, "/console/events/league", "pairs-form", "/console/events/league/pairs", PAIRS_CSV
    )
    assert status == 200 and "已登记 4 对" in text, text
    listed = api_call(api, "GET", "/events/league/pairs", caller="local:td")[1]["pairs"]
    assert [(p["id"], p["region"], p["players"][0]["name"]) for p in listed][:2] == [
        ("A", "R0", "A one"),
        ("B", "R1", "B one"),
    ]
    assert 'data-player="A"' in text and "R0" in text


def test_one_bad_line_registers_nobody(console):  # noqa: F811
    con, api = console
    td = td_with_cup(con, api)
    csv = "Ann, P1, SH\nBen, P2, SH\nCai, P*3, BJ\nDai, P4"
    status, text = td.submit(
        "/console/events/cup", "players-form", "/console/events/cup/players", {"csv": csv}
    )
    assert status == 400 and "line 3" in text and "line 4" not in text
    assert api_call(api, "GET", "/events/cup/export", caller="local:td")[1]["players"] == []


def test_the_pairing_is_shown_and_an_override_gives_its_warnings(console):  # noqa: F811
    con, api = console
    td = td_with_league(con)
    assert (
        td.submit("/console/events/league", "pairs-form", "/console/events/league/pairs", {"csv": PAIRS_CSV})[
            0
        ]
        == 200
    )
    status, text = td.get("/console/events/league/pairing")
    assert status == 200 and 'data-pairing="1"' in text and text.count("data-match=") == 2
    # A and C share region R0: round 1 keeps them apart, a hand pairing is warned of it (and logged)
    override = {"pairs": "A, C\nB, D", "bye": "", "reason": "a family asked to play together"}
    status, text = td.submit(
        "/console/events/league/pairing", "pairing-form", "/console/events/league/pairing", override
    )
    assert status == 200 and "data-done" in text and 'data-source="override"' in text
    assert "data-warnings" in text and 'data-match="A-C"' in text
    stored = api_call(api, "GET", "/events/league/rounds/1/pairing", caller="local:td")[1]
    assert stored["source"] == "override" and stored["warnings"]
    assert any(w["message"] in text for w in stored["warnings"])  # the API's words, as the CLI gives them
    audit = api_call(api, "GET", "/events/league/audit", caller="local:td")[1]["audit"]
    assert any(a["kind"] == "pairing_override" for a in audit)
    status, text = td.submit(
        "/console/events/league/pairing",
        "pairing-form",
        "/console/events/league/pairing",
        {**override, "pairs": "A"},
    )
    assert status == 400 and "line 1" in text


def test_join_links_print_as_qr_cards_and_a_link_is_revoked(console):  # noqa: F811
    con, api = console
    td = td_with_cup(con, api)
    csv = "Ann, P1, SH\nBen, P2, SH"
    assert (
        td.submit("/console/events/cup", "players-form", "/console/events/cup/players", {"csv": csv})[0]
        == 200
    )
    assert 'id="to-links"' in td.get("/console/events/cup")[1]
    token = td.form_token("/console/events/cup/links", "links-form")
    status, headers, data = td.request(
        "POST", "/console/events/cup/links", {"csrf": token, "players": ""}, {"Host": "venue.local:8000"}
    )
    assert status == 200 and "style-src 'unsafe-inline'" in headers["Content-Security-Policy"]
    assert "script" not in headers["Content-Security-Policy"] and data.count("<svg") == 2
    assert "http://venue.local:8000/play/#t=" in data and "Ann" in data and "入座卡" in data
    status, text = td.submit(
        "/console/events/cup/links", "revoke-form", "/console/events/cup/links/revoke", {"player": "P1"}
    )
    assert status == 200 and "P1" in text and "data-done" in text
    referee = Browser(con)
    referee.sign_in("local:ref")
    assert referee.get("/console/events/cup/links")[0] == 403
    assert referee.get("/console/events/cup/publish/site")[0] == 403
    found = re.search(r'name="csrf" value="([^"]+)"', referee.get("/console/")[1])  # the sign-out form's
    token = found.group(1) if found else ""
    assert referee.request("POST", "/console/events/cup/links", {"csrf": token})[0] == 403
    assert referee.get("/console/events/cup/verify")[0] == 200  # what a referee may read


def test_a_played_round_is_published_and_verified_from_the_console():
    backend = Backend()
    with api_under_moto(backend.rt) as api:
        con = console_of(api)
        td = td_with_cup(con, api)
        assert td.get("/console/events/cup/verify")[1].count('data-verified="none"') == 1
        players = "\n".join(f"Player {i}, P{i}, R{i % 3}" for i in range(1, 9))
        tables = f"A, {', '.join(THINGS[:4])}\nB, {', '.join(THINGS[4:])}"
        assert (
            td.submit("/console/events/cup", "players-form", "/console/events/cup/players", {"csv": players})[
                0
            ]
            == 200
        )
        assert (
            td.submit("/console/events/cup", "tables-form", "/console/events/cup/tables", {"csv": tables})[0]
            == 200
        )
        status, text = td.submit("/console/events/cup", "start-round", "/console/events/cup/rounds", {})
        assert status == 200 and "data-commitment" in text
        cards = td.get("/console/events/cup/cards")[1]
        assert cards.count('class="card"') == 8 and "第 1 轮" in cards
        run_round(backend, [DeviceBot(backend, t) for t in THINGS])
        status, text = td.get("/console/events/cup/verify")
        assert status == 200 and 'data-verified="yes"' in text and 'data-verify-round="1"' in text
        publish = td.get("/console/events/cup/publish")[1]
        assert 'href="/site/cup/"' in publish and 'data-export="boards-csv"' in publish
        status, headers, data = con.serve("GET", "/console/events/cup/publish/site", {"Cookie": cookie(td)})
        assert status == 200 and headers["Content-Type"] == "application/zip"
        names = zipfile.ZipFile(io.BytesIO(data)).namelist()
        assert "cup-site/index.html" in names and any(n.startswith("cup-site/boards/") for n in names)
        exported = api_call(api, "GET", "/events/cup/export", caller="local:td")[1]
        assert exported["players"][0]["region"] == "R1"


def cookie(browser: Browser) -> str:
    return "; ".join(f"{k}={v}" for k, v in browser.cookies.items())


def test_the_owner_names_the_staff_and_only_the_owner_may(console):  # noqa: F811
    """The roles page: the owner replaces the event's organisers and referees (the API's PUT); a bad
    line is named and nothing is sent; the named referee then sees the event, without the form."""
    con, api = console
    td = td_with_cup(con, api)
    status, text = td.get("/console/events/cup/roles")
    assert (
        status == 200
        and 'data-identity="local:ref" data-role="referee"' in text
        and 'id="roles-form"' in text
    )
    assert 'id="to-roles"' in td.get("/console/events/cup")[1]
    status, text = td.submit(
        "/console/events/cup/roles", "roles-form", "/console/events/cup/roles", {"roles": "local:eve, boss"}
    )
    assert status == 400 and "line 1" in text
    assert api_call(api, "GET", "/events/cup/roles", caller="local:td")[1]["roles"] == {
        "local:ref": "referee"
    }
    roles = "local:ref, referee\nlocal:eve, Organiser"
    status, text = td.submit(
        "/console/events/cup/roles", "roles-form", "/console/events/cup/roles", {"roles": roles}
    )
    assert status == 200 and "data-done" in text
    granted = {"local:ref": "referee", "local:eve": "organiser"}
    assert api_call(api, "GET", "/events/cup/roles", caller="local:td")[1]["roles"] == granted
    eve = Browser(con)
    eve.sign_in("local:eve")
    status, text = eve.get("/console/events/cup/roles")
    assert status == 200 and 'id="roles-form"' not in text  # an organiser, not the owner
    ref = Browser(con)
    ref.sign_in("local:ref")
    assert ref.get("/console/events/cup/roles")[0] == 200
    status, _, text = ref.request("POST", "/console/events/cup/roles", {"roles": "", "csrf": "forged"})
    assert status == 403
    assert api_call(api, "GET", "/events/cup/roles", caller="local:td")[1]["roles"] == granted


def test_the_roles_form_reads_lines_of_identity_and_role() -> None:
    assert forms.roles_body("") == {"roles": {}}
    assert forms.roles_body("local:a, referee\n\nlocal:b,ORGANISER") == {
        "roles": {"local:a": "referee", "local:b": "organiser"}
    }
    for bad in ("local:a", "local:a, owner", "local:a, referee\nlocal:a, organiser", ", referee"):
        with pytest.raises(forms.FormError, match="line"):
            forms.roles_body(bad)
