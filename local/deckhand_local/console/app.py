"""The tournament director's console under ``/console/``: pages drawn on the server (Jinja2,
autoescaped) and htmx for the room's grid, over the organiser API.

The console holds no state of the events and changes none itself: every read and every change is a
call of the organiser API's own handler, in-process, as the signed-in identity (``Api``) — the same
routes, checks and audit as a request over HTTP. Its own rules are the browser's: a session opened by
an organiser's venue token (sessions.py), a one-time CSRF token on every form, a body over the API's
limit refused before it is read (by the HTTP adapter), and what a referee is shown: only the events
where they are named, without the organisers' forms.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable, Mapping
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from deckhand.engines.registry import RULESETS
from jinja2 import Environment, PackageLoader, select_autoescape

from ..static_files import static_file
from . import forms, referee_pages, room, setup
from .refusals import Refused
from .sessions import Session, Sessions, SessionSource
from .words import EN, LANGS, ZH, Words

PREFIX = "/console/"
SESSION_COOKIE = "deckhand_console"
LANG_COOKIE = "deckhand_console_lang"
SIGN_IN_MAX = 4096  # bytes: a sign-in form carries a code or token and nothing else
MAX_BODY = 1024 * 1024  # bytes: the organiser API's own limit (venue/http_adapter.py's)
GRADES = ("unrated", "C5", "C4", "C3", "C2", "C1", "B2", "B1", "A", "national_open", "national_championship")
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
EVENT_ID = r"[A-Za-z0-9_.-]{1,64}"
_EVENT_PATH = re.compile(rf"^events/({EVENT_ID})(?:/([a-z-]+(?:/[a-z]+)?))?$")
Reply = tuple[int, dict[str, str], bytes]
# (method, API path, JSON body or None, identity) → (status, content type, body text)
Api = Callable[[str, str, Any, str], tuple[int, str, str]]
log = logging.getLogger(__name__)


def environment() -> Environment:
    return Environment(
        loader=PackageLoader("deckhand_local.console", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )


class Request:
    def __init__(self, method: str, target: str, headers: Mapping[str, str], body: bytes) -> None:
        url = urlsplit(target)
        self.method = method
        self.path = unquote(url.path)
        self.query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        self.headers = {k.lower(): v for k, v in headers.items()}
        self.body = body
        self.cookies: dict[str, str] = {}
        try:
            jar = SimpleCookie(self.headers.get("cookie", ""))
            self.cookies = {k: m.value for k, m in jar.items()}
        except CookieError:
            pass


class Console:
    def __init__(
        self,
        api: Api,
        tokens: Callable[[], dict[str, str]],
        root: Path,
        *,
        codes: Callable[[str], str | None] = lambda code: None,
        clock_ms: Callable[[], int] = lambda: int(time.time() * 1000),
        sessions: SessionSource | None = None,
        sign_in_link: str | None = None,
    ) -> None:
        """``api``: the organiser API's handler, called as the signed-in identity; ``tokens``:
        identity → its venue token now (the venue's own and ``organisers.json``'s); ``root``: the
        folder of the console's browser files (web/console/); ``codes``: spends a one-time sign-in
        code (venue/organisers.py), giving its identity; ``sessions``: where sessions come from instead
        of the venue's tokens (on AWS, cognito.py); ``sign_in_link``: the sign-in page's link to an
        outside sign-in (AWS: the user pool's) in place of its code form."""
        self.api = api
        self.sessions: SessionSource = sessions if sessions is not None else Sessions(tokens, codes)
        self.sign_in_link = sign_in_link
        self.root = root.resolve()
        self.clock_ms = clock_ms
        self.env = environment()

    # ---- the way in ---------------------------------------------------------------------------

    def serve(self, method: str, target: str, headers: Mapping[str, str], body: bytes = b"") -> Reply:
        """(status, headers, body) for a request under ``/console``; its body already limited and
        read by the HTTP adapter."""
        request = Request(method, target, headers, body)
        lang, remember = self._lang(request)
        words = Words(lang)
        try:
            status, out_headers, data = self._route(request, words)
        except Refused as refused:
            session = self.sessions.get(request.cookies.get(SESSION_COOKIE))
            status, out_headers, data = self._page(
                refused.status,
                "refused.html",
                words,
                request,
                session,
                message=words(refused.key, **refused.values),
            )
        except Exception:  # a page that cannot be drawn is a 500 page, never a dropped connection
            log.exception("the console could not serve %s %s", method, request.path)
            status, out_headers, data = 500, {"Content-Type": "text/plain; charset=utf-8"}, b"error"
        if remember and "Set-Cookie" not in out_headers:  # (a sign-in's answer sets the session's)
            out_headers["Set-Cookie"] = (
                f"{LANG_COOKIE}={lang}; Path={PREFIX}; SameSite=Strict; Max-Age=31536000"
            )
        return status, out_headers, data

    def body_limit(self, target: str, headers: Mapping[str, str]) -> int:
        """The most body bytes this request may bring, asked by the HTTP adapter before it reads any:
        a sign-in form's few, a live session's forms up to the API's own limit, nothing otherwise."""
        request = Request("POST", target, headers, b"")
        if request.path == PREFIX + "sign-in":
            return SIGN_IN_MAX
        return MAX_BODY if self.sessions.get(request.cookies.get(SESSION_COOKIE)) is not None else 0

    def page_without_session(
        self, status: int, template: str, target: str, headers: Mapping[str, str], **values: Any
    ) -> Reply:
        """A page drawn for a browser with no session yet: a sign-in made elsewhere (on AWS, the user
        pool's) failed (``sign_in.html``), or a page moving on by itself (``onward.html``)."""
        request = Request("GET", target, headers, b"")
        return self._page(status, template, Words(self._lang(request)[0]), request, None, **values)

    def _lang(self, request: Request) -> tuple[str, bool]:
        asked = request.query.get("lang")
        if asked in LANGS:
            return asked, asked != request.cookies.get(LANG_COOKIE)
        kept = request.cookies.get(LANG_COOKIE)
        return (kept if kept in LANGS else ZH), False

    def _route(self, request: Request, words: Words) -> Reply:
        path, method = request.path, request.method
        if path == PREFIX.rstrip("/"):
            return 301, {"Location": PREFIX}, b""
        if not path.startswith(PREFIX):
            raise Refused(404, "refused.not_found")
        rest = path.removeprefix(PREFIX)
        if rest.startswith("static/") and method == "GET":
            return static_file(self.root, rest.removeprefix("static/"))
        if rest == "sign-in":
            if method == "POST":
                return self._sign_in(request, words)
            return self._page(200, "sign_in.html", words, request, None)
        session = self.sessions.get(request.cookies.get(SESSION_COOKIE))
        if session is None:
            if method != "GET":
                raise Refused(401, "refused.session")
            # /console/ answers 200 with the sign-in page; any other page says who may see it
            return self._page(200 if rest == "" else 401, "sign_in.html", words, request, None)
        if method == "POST":
            form = self._checked_form(request, session)
            return self._post(rest, form, request, session, words)
        if method != "GET":
            raise Refused(405, "refused.not_found")
        return self._get(rest, request, session, words)

    def _checked_form(self, request: Request, session: Session) -> dict[str, str]:
        """The form's fields once its one-time token is spent; a forged or replayed one refused."""
        try:
            form = forms.fields(request.body, request.headers.get("content-type", ""))
        except forms.FormError as error:
            raise Refused(400, "refused.form", why=str(error)) from None
        if not self.sessions.spend(session, form.get("csrf")):
            raise Refused(403, "refused.csrf")
        return form

    def _sign_in(self, request: Request, words: Words) -> Reply:
        try:
            token = forms.fields(request.body, request.headers.get("content-type", "")).get("token", "")
        except forms.FormError as error:
            raise Refused(400, "refused.form", why=str(error)) from None
        sid = self.sessions.sign_in(token.strip())
        if sid is None:
            return self._page(401, "sign_in.html", words, request, None, wrong=True)
        cookie = f"{SESSION_COOKIE}={sid}; Path={PREFIX}; HttpOnly; SameSite=Strict"
        return 303, {"Location": PREFIX, "Set-Cookie": cookie, "Cache-Control": "no-store"}, b""

    # ---- pages --------------------------------------------------------------------------------

    def _get(self, rest: str, request: Request, session: Session, words: Words) -> Reply:
        if rest == "":
            _, listed = self._call(session, "GET", "/events")
            return self._page(200, "events.html", words, request, session, events=listed["events"])
        if rest == "events/new":
            if not session.may_create:
                raise Refused(403, "refused.not_organiser")
            return self._new_event(200, request, session, words, {}, None)
        match = _EVENT_PATH.match(rest)
        if match is None:
            raise Refused(404, "refused.not_found")
        event_id, page = match.group(1), match.group(2)
        event, role = self._event(session, event_id)
        if page is None:
            return self._event_page(200, request, session, words, event, role)
        if page in setup.PAGES:
            return setup.get(setup.Visit(self, request, session, words, event, role), page)
        if page == "room":
            return self._page(
                200,
                "room.html",
                words,
                request,
                session,
                event=event,
                role=role,
                **self._room(session, event),
            )
        if page == "room/grid":
            return self._page(
                200,
                "grid.html",
                words,
                request,
                session,
                event=event,
                role=role,
                **self._room(session, event),
            )
        if page == "standings":
            _, standings = self._call(session, "GET", f"/events/{quote(event_id)}/standings")
            return self._page(
                200, "standings.html", words, request, session, event=event, role=role, standings=standings
            )
        if page == "export":
            fmt = request.query.get("format", "json")
            if fmt not in ("json", "csv", "boards-csv", "standings-csv", "html"):
                raise Refused(404, "refused.not_found")
            status, kind, text = self.api(
                "GET", f"/events/{quote(event_id)}/export?format={fmt}", None, session.identity
            )
            name = event_id + {"json": ".json", "html": ".html", "csv": ".csv"}.get(fmt, f"-{fmt[:-4]}.csv")
            headers = {"Content-Type": kind, "Content-Disposition": f'attachment; filename="{name}"'}
            return status, headers, text.encode()
        if referee_pages.serves(page, "GET"):
            desk = referee_pages.Desk(self, request, session, words, event, role)
            return self._referee(lambda: referee_pages.get(desk, page))
        raise Refused(404, "refused.not_found")

    def _post(
        self, rest: str, form: dict[str, str], request: Request, session: Session, words: Words
    ) -> Reply:
        if rest == "sign-out":
            self.sessions.sign_out(request.cookies.get(SESSION_COOKIE))
            gone = f"{SESSION_COOKIE}=; Path={PREFIX}; HttpOnly; SameSite=Strict; Max-Age=0"
            return 303, {"Location": PREFIX, "Set-Cookie": gone}, b""
        if rest == "events" and not session.may_create:
            raise Refused(403, "refused.not_organiser")
        if rest == "events" and form.get("check"):
            return setup.check(self, form, request, session, words)
        if rest == "events":
            try:
                spec = forms.event_body(form)
            except forms.FormError as error:
                return self._new_event(400, request, session, words, form, {"error": str(error)})
            status, answer = self._call(session, "POST", "/events", spec, refuse=False)
            if status != 201:
                return self._new_event(status, request, session, words, form, answer)
            return 303, {"Location": f"{PREFIX}events/{quote(answer['event_id'])}"}, b""
        match = _EVENT_PATH.match(rest)
        if match is not None and referee_pages.serves(match.group(2), "POST"):
            event, role = self._event(session, match.group(1))
            desk = referee_pages.Desk(self, request, session, words, event, role)
            return self._referee(lambda: referee_pages.post(desk, match.group(2), form))
        if match is None or match.group(2) not in ("players", "pairs", "tables", "rounds", *setup.ACTIONS):
            raise Refused(404, "refused.not_found")
        event_id, action = match.group(1), match.group(2)
        event, role = self._event(session, event_id)
        if role == "referee":
            raise Refused(403, "refused.not_organiser")
        if action in setup.ACTIONS:
            return setup.post(setup.Visit(self, request, session, words, event, role), action, form)
        try:
            if action == "players":
                body: Any = forms.players_body(forms.csv_text(form))
            elif action == "pairs":
                body = forms.pairs_body(forms.csv_text(form))
            elif action == "tables":
                body = forms.tables_body(form.get("csv", ""))
            else:
                body = None
        except forms.FormError as error:
            return self._event_page(
                400, request, session, words, event, role, form=form, action_form=action, error=str(error)
            )
        status, answer = self._call(
            session, "POST", f"/events/{quote(event_id)}/{action}", body, refuse=False
        )
        if status >= 300:
            return self._event_page(
                status, request, session, words, event, role, form=form, action_form=action, answer=answer
            )
        if action == "rounds":
            done = words("event.round_started", round=answer["round"])
        else:
            done = words(f"event.{action}_done", count=len(answer["registered"]))
        event, role = self._event(session, event_id)
        return self._event_page(200, request, session, words, event, role, done=done)

    def _referee(self, page: Callable[[], Reply]) -> Reply:
        """A referee page (referee_pages.py): every member of the event's staff may referee."""
        try:
            return page()
        except referee_pages.NotHere:
            raise Refused(404, "refused.not_found") from None

    def _new_event(
        self,
        status: int,
        request: Request,
        session: Session,
        words: Words,
        form: dict[str, str],
        answer: Any,
        **more: Any,
    ) -> Reply:
        return self._page(
            status,
            "new_event.html",
            words,
            request,
            session,
            form=form,
            answer=answer,
            rulesets=RULESETS,
            grades=GRADES,
            **setup.new_event_choices(),
            **more,
        )

    def _event_page(
        self,
        status: int,
        request: Request,
        session: Session,
        words: Words,
        event: dict[str, Any],
        role: str,
        **more: Any,
    ) -> Reply:
        event_path = f"/events/{quote(event['event_id'])}"
        round_status = None
        if event["current_round"]:
            code, answer = self._call(
                session, "GET", f"{event_path}/rounds/{event['current_round']}", refuse=False
            )
            round_status = answer if code == 200 else None
        players: list[Any] = []
        if role != "referee":
            _, exported = self._call(session, "GET", f"{event_path}/export")
            players = exported.get("players") or exported.get("pairs") or []
        return self._page(
            status,
            "event.html",
            words,
            request,
            session,
            event=event,
            role=role,
            round=round_status,
            players=players,
            **more,
        )

    def _room(self, session: Session, event: dict[str, Any]) -> dict[str, Any]:
        if not event["current_round"]:
            return {"round": None, "rows": []}
        path = f"/events/{quote(event['event_id'])}/rounds/{event['current_round']}"
        code, status = self._call(session, "GET", path, refuse=False)
        if code != 200:
            return {"round": None, "rows": []}
        return {"round": status, "rows": room.rows(status, self.clock_ms())}

    # ---- the API, as the signed-in identity --------------------------------------------------

    def _call(
        self, session: Session, method: str, path: str, body: Any = None, *, refuse: bool = True
    ) -> tuple[int, Any]:
        status, kind, text = self.api(method, path, body, session.identity)
        answer = json.loads(text) if kind.startswith("application/json") and text else {}
        if refuse and status >= 300:
            raise Refused(
                status, "api.error", why=answer.get("error", status) if isinstance(answer, dict) else status
            )
        return status, answer

    def _event(self, session: Session, event_id: str) -> tuple[dict[str, Any], str]:
        """The event and the caller's role in it; an event where the caller is not staff is not shown
        (the API lets anyone read an event's public face; the console is for its staff)."""
        _, listed = self._call(session, "GET", "/events")
        for event in listed["events"]:
            if event["event_id"] == event_id:
                return event, event["role"]
        raise Refused(403, "refused.not_staff")

    def _page(
        self,
        status: int,
        template: str,
        words: Words,
        request: Request,
        session: Session | None,
        **values: Any,
    ) -> Reply:
        def csrf() -> str:
            return self.sessions.form_token(session) if session is not None else ""

        html = self.env.get_template(template).render(
            w=words,
            lang=words.lang,
            other=EN if words.lang == ZH else ZH,
            path=request.path,
            session=session,
            csrf=csrf,
            prefix=PREFIX,
            sign_in_link=self.sign_in_link,
            now_ms=self.clock_ms(),
            **values,
        )
        headers = {
            "Content-Type": "text/html; charset=utf-8",
            "Content-Security-Policy": POLICY,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-store",
        }
        return status, headers, html.encode()
