"""The console's referee pages: the actions' forms, their preview and confirm, the calls to answer and
the event's audit log. Every member of the event's staff may referee (docs/access.md: owner,
organisers, referees); the API checks it again on every call, as the signed-in identity."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import quote

from . import referee
from .forms import FormError
from .words import Words

Reply = tuple[int, dict[str, str], bytes]
GETS = ("referee", "audit", "calls")
POSTS = ("referee/preview", "referee/confirm", "calls/handled")


class Host(Protocol):
    """What the pages need of the console (app.py's ``Console``)."""

    def _page(
        self, status: int, template: str, words: Words, request: Any, session: Any, **values: Any
    ) -> Reply: ...

    def _call(
        self, session: Any, method: str, path: str, body: Any = None, *, refuse: bool = True
    ) -> tuple[int, Any]: ...


class NotHere(Exception):
    """A referee page that does not exist (a kind the event's rules do not have): a 404."""


def serves(page: str | None, method: str) -> bool:
    if page is None:
        return False
    if method == "POST":
        return page in POSTS
    return page in GETS or page in POSTS or page.startswith("referee/")


@dataclass(frozen=True)
class Desk:
    """One request's referee page: the console, who asks, in which language, about which event."""

    host: Host
    request: Any
    session: Any
    words: Words
    event: dict[str, Any]
    role: str

    @property
    def event_path(self) -> str:
        return f"/events/{quote(self.event['event_id'])}"

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """The API as the signed-in identity, its refusal answered rather than raised."""
        return self.host._call(self.session, method, self.event_path + path, body, refuse=False)

    def round(self) -> dict[str, Any] | None:
        if not self.event.get("current_round"):
            return None
        status, answer = self.call("GET", f"/rounds/{self.event['current_round']}")
        return answer if status == 200 else None

    def show(self, status: int, template: str, **values: Any) -> Reply:
        words = self.words
        return self.host._page(
            status, template, words, self.request, self.session,
            event=self.event, role=self.role, label=lambda kind: label(words, kind),
            field=lambda name: words.known(f"referee.field.{name}", name), shown=shown, when=when, **values,
        )  # fmt: skip

    def form(self, status: int, kind: str, fields: dict[str, str], **more: Any) -> Reply:
        w = self.words
        return self.show(
            status, "referee_form.html",
            kind=kind, slug=referee.KIND_SLUG[kind], title=label(w, kind), wants=referee.FIELDS[kind],
            offered=referee.choices(self.round()), fields=fields, intro=w(f"referee.intro.{kind}"),
            artificial_kinds=[(a, w(f"referee.artificial.{a}")) for a in referee.ARTIFICIAL_KINDS],
            ai_seat=referee.AI_SEAT, decisions=referee.DECISIONS, draw=referee.DRAW, **more,
        )  # fmt: skip

    def calls(self, status: int, **more: Any) -> Reply:
        return self.show(status, "calls.html", calls=referee.open_calls(self.round()), **more)


def get(desk: Desk, page: str) -> Reply:
    if page in POSTS:  # the language switch of a page a form drew: back to where the form was
        back = "calls" if page == "calls/handled" else "referee"
        return 303, {"Location": f"{desk.request.path.rsplit(page, 1)[0]}{back}"}, b""
    if page == "referee":
        kinds = [(referee.KIND_SLUG[k], label(desk.words, k)) for k in referee.kinds_of(desk.event)]
        return desk.show(200, "referee.html", kinds=kinds)
    if page == "audit":
        _, answer = desk.call("GET", "/audit")
        entries = referee.newest_first(answer.get("audit") or [] if isinstance(answer, dict) else [])
        return desk.show(200, "audit.html", entries=entries)
    if page == "calls":
        return desk.calls(200)
    kind = referee.SLUGS.get(page.removeprefix("referee/"))
    if kind is None or kind not in referee.kinds_of(desk.event):
        raise NotHere(page)
    return desk.form(200, kind, dict(desk.request.query))


def post(desk: Desk, page: str, form: dict[str, str]) -> Reply:
    if page == "calls/handled":
        try:
            body = referee.call_body(form)
        except FormError as error:
            return desk.calls(400, error=str(error))
        status, answer = desk.call("POST", "/calls/handled", body)
        if status >= 300:
            return desk.calls(status, refused=referee.refusal(answer, status, desk.words))
        return desk.calls(200, entry=answer)
    kind = form.get("kind", "")
    if kind not in referee.kinds_of(desk.event):
        raise NotHere(kind)
    fields = {k: v for k, v in form.items() if k != "csrf"}
    offered = referee.choices(desk.round())
    try:
        body = referee.body_of(kind, fields, offered)
    except FormError as error:
        return desk.form(400, kind, fields, error=str(error))
    if "version" in body:  # the board's version the preview showed: the confirm is bound to it
        fields["version"] = str(body["version"])
    named = {"kind": kind, "slug": referee.KIND_SLUG[kind], "title": label(desk.words, kind)}
    if page == "referee/preview":
        lines = referee.described(body, offered, desk.words, desk.event.get("match") is not None)
        return desk.show(
            200,
            "referee_preview.html",
            lines=lines,
            fields=fields,
            request_text=referee.request_text(body),
            **named,
        )
    status, answer = desk.call("POST", "/referee", body)
    if status >= 300:
        return desk.form(status, kind, fields, refused=referee.refusal(answer, status, desk.words))
    return desk.show(200, "referee_done.html", entry=answer, **named)


def label(words: Words, kind: str) -> str:
    """A kind of the audit in words (a kind this console does not know: as the API names it)."""
    return words.known(f"referee.kind.{kind}", kind)


def shown(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def when(at_ms: Any) -> str:
    """An audit entry's time, on the venue's clock."""
    try:
        return dt.datetime.fromtimestamp(int(at_ms) / 1000).strftime("%Y-%m-%d %H:%M:%S")
    except (TypeError, ValueError, OverflowError, OSError):
        return str(at_ms)
