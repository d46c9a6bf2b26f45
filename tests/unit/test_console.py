"""The tournament director's console's request handling, without a browser: its pages and forms over the
real organiser API handler (under moto), called in-process as the signed-in identity — sign-in and its
session, the one-time CSRF tokens, a referee's narrower view, the body limit, the language switch."""

from __future__ import annotations

import datetime as dt
import json
import re
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from api_calls import BOB, EVENT, api_under_moto, cup_dealt
from api_calls import call as api_call
from deckhand_local.console import forms, room
from deckhand_local.console.app import GRADES, LANG_COOKIE, SESSION_COOKIE, Console
from deckhand_local.console.words import CATALOGUE, EN, ZH
from deckhand_local.venue.http_adapter import MAX_BODY, ApiServer, api_gateway_event
from handlers import FakeContext

ROOT = Path(__file__).resolve().parents[2]
TOKENS = {
    "local:td": "td-token-" + "x" * 20,
    "local:ref": "ref-token-" + "y" * 20,
    "local:eve": "eve-" + "z" * 24,
}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


class Browser:
    """A client of the console that keeps its cookies, as a browser does."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        path: str,
        form: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], str]:
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = urlencode(form).encode() if form is not None else b""
        if form is not None:
            sent.update(FORM)
        status, out, data = self.console.serve(method, path, sent, body)
        cookie = out.get("Set-Cookie")
        if cookie:
            name, value = cookie.split(";", 1)[0].split("=", 1)
            self.cookies[name] = value
        return status, out, data.decode()

    def get(self, path: str) -> tuple[int, str]:
        status, _, text = self.request("GET", path)
        return status, text

    def sign_in(self, identity: str) -> None:
        status, headers, _ = self.request("POST", "/console/sign-in", {"token": TOKENS[identity]})
        assert status == 303 and SESSION_COOKIE in self.cookies, headers

    def form_token(self, path: str, form_id: str) -> str:
        """The CSRF token of the form ``form_id`` on the page at ``path``."""
        _, text = self.get(path)
        form = re.search(rf'<form[^>]*id="{form_id}".*?</form>', text, re.S)
        assert form is not None, f"no form {form_id} on {path}"
        found = re.search(r'name="csrf" value="([^"]+)"', form.group(0))
        assert found is not None
        return found.group(1)

    def submit(self, path: str, form_id: str, action: str, fields: dict[str, str]) -> tuple[int, str]:
        token = self.form_token(path, form_id)
        status, _, text = self.request("POST", action, {**fields, "csrf": token})
        return status, text


def in_process(api: Any) -> Callable[[str, str, Any, str], tuple[int, str, str]]:
    """The API handler as the console calls it: in-process, as an identity."""

    def call(method: str, path: str, body: Any, identity: str) -> tuple[int, str, str]:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        text = json.dumps(body) if body is not None else None
        response = api.handler(api_gateway_event(method, path, headers, text, identity), FakeContext())
        headers = {**(response.get("headers") or {})}
        headers.update({k: v[-1] for k, v in (response.get("multiValueHeaders") or {}).items()})
        kind = headers.get("Content-Type", "")
        return response["statusCode"], kind, response.get("body") or ""

    return call


def console_of(api: Any) -> Console:
    """The console over the API handler ``api``, called in-process as the venue calls it."""
    return Console(in_process(api), lambda: dict(TOKENS), ROOT / "web" / "console")


@pytest.fixture
def console() -> Iterator[tuple[Console, Any]]:
    with api_under_moto() as api:
        yield console_of(api), api


def td_with_cup(console: Console, api: Any) -> Browser:
    """The TD signed in, owning the cup (made through the console), the referee named in it."""
    td = Browser(console)
    td.sign_in("local:td")
    status, _ = td.submit(
        "/console/events/new", "new-event", "/console/events", {k: str(v) for k, v in EVENT.items()}
    )
    assert status == 303
    roles = {"roles": {"local:ref": "referee"}}
    assert api_call(api, "PUT", "/events/cup/roles", roles, caller="local:td")[0] == 200
    return td


def test_the_console_without_a_session_is_the_sign_in_page(console):
    page = Browser(console[0])
    status, text = page.get("/console/")
    assert status == 200 and 'id="sign-in"' in text and 'name="token"' in text
    assert page.get("/console/events/cup")[0] == 401  # no page of an event without a session
    status, _, text = page.request("POST", "/console/events/cup/rounds", {"csrf": "x"})
    assert status == 401 and "请先登录" in text


def test_sign_in_sets_a_strict_http_only_cookie_and_a_wrong_token_is_refused(console):
    page = Browser(console[0])
    status, _, text = page.request("POST", "/console/sign-in", {"token": "guess"})
    assert status == 401 and 'data-error="sign-in"' in text and not page.cookies
    status, headers, _ = page.request("POST", "/console/sign-in", {"token": TOKENS["local:td"]})
    cookie = headers["Set-Cookie"]
    assert status == 303 and headers["Location"] == "/console/"
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/console/" in cookie
    assert TOKENS["local:td"] not in cookie  # the session's id, never the token
    status, text = page.get("/console/")
    assert status == 200 and "local:td" in text and 'id="sign-in"' not in text


def test_a_session_ends_when_its_organiser_token_is_replaced(console):
    tokens = dict(TOKENS)
    moved = Console(console[0].api, lambda: tokens, ROOT / "web" / "console")
    page = Browser(moved)
    page.sign_in("local:td")
    assert 'id="sign-in"' not in page.get("/console/")[1]
    tokens["local:td"] = "a-new-token-" + "q" * 20  # deckhand venue organiser add td, again
    assert 'id="sign-in"' in page.get("/console/")[1]


def test_creating_an_event_shows_the_grade_checkers_findings_and_creates_nothing(console):
    api = console[1]
    td = Browser(console[0])
    td.sign_in("local:td")
    rated = {**{k: str(v) for k, v in EVENT.items()}, "grade": "national_championship", "rounds": "1"}
    status, text = td.submit("/console/events/new", "new-event", "/console/events", rated)
    assert status == 400 and "data-findings" in text and "data-rule=" in text
    assert api_call(api, "GET", "/events/cup")[0] == 404
    assert 'value="Harbour Cup"' in text  # the form keeps what was typed


def test_a_forged_or_replayed_form_is_refused_and_changes_nothing(console):
    con, api = console
    td = td_with_cup(con, api)
    csv = "Ann, P1, Shanghai\nBen, P2, Beijing"
    token = td.form_token("/console/events/cup", "players-form")
    # forged: no token, a made-up one, another session's
    assert td.request("POST", "/console/events/cup/players", {"csv": csv})[0] == 403
    assert td.request("POST", "/console/events/cup/players", {"csv": csv, "csrf": "made-up"})[0] == 403
    other = Browser(con)
    other.sign_in("local:td")
    status, _, text = other.request("POST", "/console/events/cup/players", {"csv": csv, "csrf": token})
    assert status == 403 and "伪造" in text
    assert api_call(api, "GET", "/events/cup/export")[1]["players"] == []
    # the real one, once; its replay refused
    status, _, text = td.request("POST", "/console/events/cup/players", {"csv": csv, "csrf": token})
    assert status == 200 and "已登记 2 名选手" in text
    assert td.request("POST", "/console/events/cup/players", {"csv": "Cy, P3", "csrf": token})[0] == 403
    players = api_call(api, "GET", "/events/cup/export")[1]["players"]
    assert [(p["id"], p["name"]) for p in players] == [("P1", "Ann"), ("P2", "Ben")]


def test_a_referee_sees_only_their_events_and_no_organisers_forms(console):
    con, api = console
    td = td_with_cup(con, api)
    other = {**EVENT, "event_id": "other", "name": "Not theirs"}
    assert api_call(api, "POST", "/events", other, caller="local:eve")[0] == 201
    referee = Browser(con)
    referee.sign_in("local:ref")
    listed = referee.get("/console/")[1]
    assert (
        'data-event="cup"' in listed
        and 'data-event="other"' not in listed
        and 'data-role="referee"' in listed
    )
    assert referee.get("/console/events/other")[0] == 403
    assert referee.get("/console/events/other/room")[0] == 403
    status, page = referee.get("/console/events/cup")
    assert status == 200 and 'id="players-form"' not in page and 'id="start-round"' not in page
    assert referee.request("POST", "/console/events/cup/rounds", {"csrf": "x"})[0] == 403
    assert 'data-event="other"' not in td.get("/console/")[1]  # nor is Eve's event in the TD's list


def test_a_referee_with_a_valid_form_token_still_cannot_start_a_round(console):
    con, api = console
    td_with_cup(con, api)
    referee = Browser(con)
    referee.sign_in("local:ref")
    _, text = referee.get("/console/")
    token = re.search(r'name="csrf" value="([^"]+)"', text).group(1)  # the sign-out form's
    status, _, text = referee.request("POST", "/console/events/cup/rounds", {"csrf": token})
    assert status == 403 and "裁判不能" in text
    assert api_call(api, "GET", "/events/cup")[1]["current_round"] == 0


def test_players_and_tables_from_csv_and_the_round_with_its_commitment(console):
    con, api = console
    td = td_with_cup(con, api)
    players = "姓名, 注册号, 地区\n" + "\n".join(f"Player {i}, P{i}, Region {i}" for i in range(1, 9))
    assert (
        td.submit("/console/events/cup", "players-form", "/console/events/cup/players", {"csv": players})[0]
        == 200
    )
    tables = "A, hs-a-0, hs-a-1, hs-a-2, hs-a-3\nB, hs-b-0, hs-b-1, hs-b-2, hs-b-3"
    status, text = td.submit(
        "/console/events/cup", "tables-form", "/console/events/cup/tables", {"csv": tables}
    )
    assert status == 200 and "已登记 2 张牌桌" in text
    status, text = td.submit("/console/events/cup", "start-round", "/console/events/cup/rounds", {})
    assert status == 200 and "第 1 轮已开始发牌" in text
    # the round's deal runs as its own invocation (dropped here): the page says it is dealing
    assert 'data-round="1"' in text
    audit = api_call(api, "GET", "/events/cup", caller="local:td")[1]
    assert audit["status"] in ("dealing", "playing") and audit["owner"] == "local:td"


def test_an_api_refusal_is_shown_and_the_bad_csv_is_named(console):
    con, api = console
    td = td_with_cup(con, api)
    status, text = td.submit(
        "/console/events/cup", "players-form", "/console/events/cup/players", {"csv": "only-a-name"}
    )
    assert status == 400 and "line 1" in text and "only-a-name" in text  # kept in the textarea
    status, text = td.submit(
        "/console/events/cup",
        "tables-form",
        "/console/events/cup/tables",
        {"csv": "A, web-x, hs-1, hs-2, hs-3"},
    )
    assert status in (400, 422) and 'data-error="api"' in text


def test_english_on_the_switch_remembered_in_a_cookie(console):
    page = Browser(console[0])
    status, headers, text = page.request("GET", "/console/?lang=en")
    assert status == 200 and '<html lang="en">' in text and "Sign in" in text
    assert f"{LANG_COOKIE}=en" in headers["Set-Cookie"] and "SameSite=Strict" in headers["Set-Cookie"]
    assert '<html lang="en">' in page.get("/console/")[1]  # remembered
    assert '<html lang="zh-CN">' in page.get("/console/?lang=zh-CN")[1]
    assert '<html lang="zh-CN">' in Browser(console[0]).get("/console/")[1]  # Chinese by default


def test_every_word_is_in_both_languages():
    assert set(CATALOGUE[ZH]) == set(CATALOGUE[EN])
    templates = (ROOT / "local/deckhand_local/console/templates").glob("*.html")
    asked = {key for t in templates for key in re.findall(r'w\("([a-z_.]+)"', t.read_text())}
    assert asked and {k for k in asked if not k.endswith(".")} <= set(CATALOGUE[ZH])
    # the families a page picks a word of by a value: every value has its word
    families = {
        "grade.": GRADES,
        "role.": ("owner", "organiser", "referee"),
        "board.": ("waiting", "playing", "ended", "stopped", "missing"),
        "referee.decision.": ("upheld", "rejected"),
    }
    assert {k for k in asked if k.endswith(".")} == set(families)
    assert {f + v for f, values in families.items() for v in values} <= set(CATALOGUE[ZH])


def test_every_field_has_a_label(console):
    con, api = console
    td = td_with_cup(con, api)
    for path in ("/console/events/new", "/console/events/cup"):
        text = td.get(path)[1]
        ids = re.findall(r'<(?:input|select|textarea)(?![^>]*type="hidden")[^>]*id="([^"]+)"', text)
        assert ids and all(f'for="{i}"' in text for i in ids), path


def test_the_room_grid_from_a_round_status():
    status = {
        "tables": [
            {
                "table": "A",
                "group": "1",
                "players": [
                    {"seat": s, "player": f"P{s}", "name": f"N{s}", "thing": f"hs-{s}"} for s in range(4)
                ],
                "boards": [
                    {"board": "1", "status": "ended"},
                    {
                        "board": "2",
                        "status": "playing",
                        "turn": [2],
                        "deadline": 10_500,
                        "calls": [{"seat": 1, "at": 1}],
                    },
                ],
            },
            {
                "table": "B",
                "group": "1",
                "players": [],
                "boards": [{"board": "1", "status": "stopped", "why": "misread"}],
            },
            {"table": "C", "group": "1", "players": [], "boards": [{"board": "1", "status": "ended"}]},
        ]
    }
    a, b, c = room.rows(status, now_ms=1_000)
    assert (a.board, a.turn, a.seconds_left, a.done, a.total, a.calls) == ("2", ["N2"], 10, 1, 2, [1])
    assert (b.board, b.board_status, b.stopped) == ("1", "stopped", "misread")
    assert (c.board, c.done, c.stopped) == (None, 1, None)


def test_csv_forms():
    expected = {"players": [{"id": "P1", "name": "Ann", "region": "SH"}]}
    assert forms.players_body("name,number,region\nAnn, P1, SH") == expected
    with pytest.raises(forms.FormError, match="line 2"):
        forms.players_body("Ann, P1\nBen, P2, SH, extra")
    assert forms.tables_body("T1, a, b, c") == {"tables": [{"id": "T1", "seats": ["a", "b", "c"]}]}
    with pytest.raises(forms.FormError):
        forms.tables_body("T1")
    with pytest.raises(forms.FormError):
        forms.fields(b"a=1", "application/json")


def test_a_console_body_over_the_limit_is_refused_before_it_is_read():
    """Over the API's limit, or any body without a session (but the sign-in form's few bytes): a 413
    with not one byte of the body sent, and the console never asked."""
    seen: list[Any] = []
    console = Console(lambda *call: (500, "", ""), lambda: dict(TOKENS), ROOT / "web" / "console")
    page = Browser(console)
    page.sign_in("local:td")
    cookie = f"{SESSION_COOKIE}={page.cookies[SESSION_COOKIE]}"

    def serve(*request: Any) -> tuple[int, dict[str, str], bytes]:
        seen.append(request)
        return console.serve(*request)

    server = ApiServer(
        lambda event: {"statusCode": 200, "body": "{}"},
        "venue-token",
        port=0,
        console=serve,
        console_limit=console.body_limit,
    ).start()

    def head_only(path: str, length: int, more: str = "") -> str:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as conn:
            head = (
                f"POST {path} HTTP/1.1\r\nHost: x\r\n{more}"
                f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {length}\r\n\r\n"
            )
            conn.sendall(head.encode())  # and not one byte of the body
            return conn.recv(4096).decode()

    try:
        assert " 413 " in head_only("/console/events/cup/players", MAX_BODY + 1, f"Cookie: {cookie}\r\n")
        assert " 413 " in head_only("/console/events/cup/players", 1000)  # no session: no body read
        assert " 413 " in head_only("/console/sign-in", 5000)
        assert seen == []  # the console was never asked
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as conn:
            conn.sendall(b"GET /console/ HTTP/1.1\r\nHost: x\r\n\r\n")
            assert b" 200 " in conn.recv(4096)
        assert seen and seen[0][:2] == ("GET", "/console/")
    finally:
        server.stop()


def test_the_round_status_tells_staff_whose_turn_and_when_the_clock_acts():
    """What the room's grid reads (GET /events/{id}/rounds/{n}): the seats asked now and the clock's
    next deadline, for the event's staff only; GET /events lists the caller's events only."""
    with cup_dealt() as (api, _, _):
        status, staff = api_call(api, "GET", "/events/cup/rounds/1")
        boards = [b for t in staff["tables"] for b in t["boards"] if b["status"] == "playing"]
        assert status == 200 and boards and all(b["turn"] and b["deadline"] > 0 for b in boards)
        public = api_call(api, "GET", "/events/cup/rounds/1", caller=BOB)[1]
        assert all("turn" not in b and "deadline" not in b for t in public["tables"] for b in t["boards"])
        assert [e["event_id"] for e in api_call(api, "GET", "/events")[1]["events"]] == ["cup"]
        assert api_call(api, "GET", "/events", caller=BOB)[1] == {"events": []}


def test_the_sign_in_link_signs_in_once_and_never_carries_the_token(tmp_path, console):
    import io

    from deckhand_local.cli.venue_cli import run_organiser
    from deckhand_local.venue import organisers

    out = io.StringIO()
    args = type("Args", (), {"state": str(tmp_path), "action": "add", "name": "td"})()
    assert run_organiser(args, out) == 0
    token = organisers.token_of(tmp_path, "td")
    link = re.search(r"(http://\S+/console/sign-in)#c=(\S+)", out.getvalue())
    assert link is not None and token not in out.getvalue()
    code = link.group(2)

    tokens = lambda: {organisers.identity_of(n): t for n, t in organisers.read(tmp_path).items()}  # noqa: E731
    con = Console(
        console[0].api, tokens, ROOT / "web" / "console", codes=lambda c: organisers.spend_code(tmp_path, c)
    )
    page = Browser(con)
    status, _, _ = page.request("POST", "/console/sign-in", {"token": code})
    assert status == 303 and "local:td" in page.get("/console/")[1]
    again = Browser(con)
    assert again.request("POST", "/console/sign-in", {"token": code})[0] == 401  # spent
    late = organisers.sign_in_code(tmp_path, "local:td", now=0)  # made long ago: expired
    assert again.request("POST", "/console/sign-in", {"token": late})[0] == 401
    assert again.request("POST", "/console/sign-in", {"token": token})[0] == 303  # the token typed in
    assert (tmp_path / organisers.CODES).stat().st_mode & 0o777 == 0o600


def test_the_grid_marks_calls_and_stopped_boards_and_is_refreshed_by_polling():
    """The grid's HTML from a round status with a call at one table and a stopped board at another
    (a fake API: the page, not the service, is under test here)."""
    event = {"event_id": "cup", "name": "Cup", "current_round": 1, "role": "referee", "status": "playing"}
    event.update(ruleset="r", rounds=1, boards_per_round=1)
    status = {
        "round": 1,
        "status": "playing",
        "commitment": "c0ffee",
        "boards_done": 0,
        "boards_total": 2,
        "tables": [
            {
                "table": "A",
                "group": "1",
                "players": [{"seat": 0, "player": "P1", "name": "<b>Ann</b>", "thing": "hs-1"}],
                "boards": [{"board": "1", "status": "playing", "turn": [0], "calls": [{"seat": 0, "at": 5}]}],
            },
            {
                "table": "B",
                "group": "1",
                "players": [],
                "boards": [{"board": "1", "status": "stopped", "why": "misread"}],
            },
        ],
    }
    answers = {"/events": {"events": [event]}, "/events/cup/rounds/1": status}

    def fake(method: str, path: str, body: Any, identity: str) -> tuple[int, str, str]:
        return 200, "application/json", json.dumps(answers[path])

    page = Browser(Console(fake, lambda: dict(TOKENS), ROOT / "web" / "console"))
    page.sign_in("local:ref")
    status_code, text = page.get("/console/events/cup/room/grid?lang=en")
    assert (
        status_code == 200
        and 'hx-trigger="every 2s"' in text
        and 'hx-get="/console/events/cup/room/grid"' in text
    )
    a = re.search(r'<article class="table called"[^>]*data-table="A".*?</article>', text, re.S)
    b = re.search(r'<article class="table stopped"[^>]*data-table="B".*?</article>', text, re.S)
    assert a and "data-call" in a.group(0) and "To act: &lt;b&gt;Ann&lt;/b&gt;" in a.group(0)  # escaped
    assert b and "Board stopped: misread" in b.group(0)
    assert "Referee called! (seat 1)" in a.group(0)  # seat 0 of the status: the card's "Seat 1"
    room_page = page.get("/console/events/cup/room")[1]
    assert 'src="/console/static/vendor/htmx.min.js"' in room_page and 'id="grid"' in room_page


def test_the_grid_shows_each_seats_device_online_or_offline_since_when_in_both_languages():
    """From the round status's ``online``/``online_since`` (the staff's): ``data-online`` on the seat,
    the words in either language; a device the broker has said nothing of is marked neither."""
    event = {"event_id": "cup", "name": "Cup", "current_round": 1, "role": "referee", "status": "playing"}
    event.update(ruleset="r", rounds=1, boards_per_round=1)
    since = int(dt.datetime(2026, 11, 27, 9, 5, 7).timestamp() * 1000)  # the venue's clock
    players = [
        {"seat": 0, "player": "P1", "name": "Ann", "thing": "hs-1", "online": True, "online_since": since},
        {"seat": 1, "player": "P2", "name": "Ben", "thing": "hs-2", "online": False, "online_since": since},
        {"seat": 2, "player": "P3", "name": "Cy", "thing": "hs-3"},
    ]
    status = {"round": 1, "status": "playing", "boards_done": 0, "boards_total": 1}
    status["tables"] = [{"table": "A", "group": "1", "players": players, "boards": []}]
    answers = {"/events": {"events": [event]}, "/events/cup/rounds/1": status}
    page = Browser(
        Console(
            lambda method, path, body, identity: (200, "application/json", json.dumps(answers[path])),
            lambda: dict(TOKENS),
            ROOT / "web" / "console",
        )
    )
    page.sign_in("local:ref")
    seats = {}
    for lang in ("en", "zh-CN"):
        text = page.get(f"/console/events/cup/room/grid?lang={lang}")[1]
        seats[lang] = dict(re.findall(r'<li data-seat="(\d)"([^>]*>.*?)</li>', text, re.S))
    en, zh = seats["en"], seats["zh-CN"]
    assert (
        'data-online="yes"' in en["0"]
        and "online since 09:05:07" in en["0"]
        and "在线（自 09:05:07）" in zh["0"]
    )
    assert (
        'data-online="no"' in en["1"]
        and "offline since 09:05:07" in en["1"]
        and "离线（自 09:05:07）" in zh["1"]
    )
    assert "data-online" not in en["2"] and "online state not known" in en["2"] and "在线状态未知" in zh["2"]


def test_the_console_serves_its_own_files_only():
    page = Browser(Console(lambda *call: (500, "", ""), lambda: dict(TOKENS), ROOT / "web" / "console"))
    status, headers, _ = page.request("GET", "/console/static/console.css")
    assert (
        status == 200
        and headers["Content-Type"].startswith("text/css")
        and headers["X-Content-Type-Options"] == "nosniff"
    )
    for bad in (
        "/console/static/../app.py",
        "/console/static/.hidden",
        "/console/static/",
    ):
        assert page.request("GET", bad)[0] == 404, bad
    status, headers, _ = page.request("GET", "/console/")
    assert (
        "script-src 'self'" in headers["Content-Security-Policy"] and headers["Cache-Control"] == "no-store"
    )
