"""Setting an event up and finishing it, in the console: the grade checker's findings before an event
is saved, a match event's pairing and its override, the players' join links and guide cards, and the
results — the export, the results site, ``verify``.

Nothing here changes state but through the organiser API's handler, as the signed-in identity (the
``Console``'s ``_call``); what is drawn that the CLI draws too is the CLI's own code: the printable
cards and the seating (guide_cards.py), the results site (site/build.py), the verdict
(verification.py: ``deckhand verify``'s).
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast, get_args
from urllib.parse import quote

from deckhand.engines.registry import RULESETS, game
from deckhand.engines.spec import Competition
from deckhand.errors import DeckhandError
from deckhand.service.bodies import EventSpec, MatchSpec, validation_error
from deckhand.service.organiser.events import grade_findings
from pydantic import ValidationError

from ..guide_cards import Lang, join_cards, names_of, seat_cards, seating_of
from ..site.build import build_site
from ..verification import verify
from . import forms
from .refusals import Refused
from .sessions import Session
from .words import Words

Reply = tuple[int, dict[str, str], bytes]
Request = Any  # app.Request: its ``headers`` and ``query`` are read


class Console(Protocol):
    """What these pages use of app.Console: the API as the signed-in identity, and its pages."""

    def _call(
        self, session: Session, method: str, path: str, body: Any = None, *, refuse: bool = True
    ) -> tuple[int, Any]: ...

    def _page(
        self,
        status: int,
        template: str,
        words: Words,
        request: Request,
        session: Session | None,
        **values: Any,
    ) -> Reply: ...

    def _new_event(
        self,
        status: int,
        request: Request,
        session: Session,
        words: Words,
        form: dict[str, str],
        answer: Any,
        **more: Any,
    ) -> Reply: ...


# GET pages and POST actions of an event, under /console/events/{id}/
PAGES = ("pairing", "links", "cards", "publish", "publish/site", "verify", "roles")
ACTIONS = ("pairing", "links", "links/revoke", "roles")
# A printable page (guide cards, join cards) carries its own inline style and inline SVG, no script.
PRINT_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'"
)


def check(console: Console, form: dict[str, str], request: Request, session: Session, words: Words) -> Reply:
    """The new-event form checked against its grade without saving anything: the findings the API
    would refuse it with, or that it has none (the form kept, to be saved as it is)."""
    findings: list[dict[str, str]] = []
    try:
        spec = EventSpec.model_validate(forms.event_body(form))
        findings = grade_findings(spec.model_dump())
    except forms.FormError as error:
        return console._new_event(400, request, session, words, form, {"error": str(error)})
    except ValidationError as error:
        return console._new_event(400, request, session, words, form, validation_error(error.errors()))
    except DeckhandError as error:
        return console._new_event(400, request, session, words, form, {"error": str(error)})
    return console._new_event(200, request, session, words, form, None, checked=findings)


@dataclass(frozen=True)
class Visit:
    """One request to an event's page: who asks, in which language, about which event, in what role."""

    console: Console
    request: Request
    session: Session
    words: Words
    event: dict[str, Any]
    role: str

    @property
    def path(self) -> str:
        return f"/events/{quote(self.event['event_id'])}"

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """The API as the signed-in identity, its refusal kept to be shown."""
        return self.console._call(self.session, method, self.path + path, body, refuse=False)

    def page(self, status: int, template: str, **values: Any) -> Reply:
        return self.console._page(
            status,
            template,
            self.words,
            self.request,
            self.session,
            event=self.event,
            role=self.role,
            **values,
        )


def get(visit: Visit, page: str) -> Reply:
    event, words = visit.event, visit.words
    if page == "pairing":
        return _pairing_page(visit, 200)
    if page == "roles":
        return _roles_page(visit, 200)
    if visit.role == "referee" and page in ("links", "publish/site"):
        raise Refused(403, "refused.not_organiser")
    if page == "links":
        return visit.page(200, "links.html", players=_players(visit))
    if page == "cards":
        number = _number(visit.request.query.get("round"), event["current_round"])
        if not number:
            raise Refused(404, "refused.not_found")
        seating = seating_of(_answer(visit.call("GET", f"/rounds/{number}")))
        return _printable(seat_cards(event["event_id"], number, seating, cast(Lang, words.lang)))
    export = _answer(visit.call("GET", "/export"))
    if page == "publish/site":
        return _site_zip(event["event_id"], export)
    if page == "verify":
        return visit.page(200, "verify.html", verdict=verify(export) if export.get("rounds") else None)
    return visit.page(200, "publish.html", rounds=export.get("rounds") or [])


def post(visit: Visit, action: str, form: dict[str, str]) -> Reply:
    words = visit.words
    if action == "pairing":
        try:
            body = forms.pairing_body(form)
        except forms.FormError as error:
            return _pairing_page(visit, 400, form=form, error=str(error))
        status, answer = visit.call("PUT", f"/rounds/{_next_round(visit.event)}/pairing", body)
        if status >= 300:
            return _pairing_page(visit, status, form=form, answer=answer)
        return _pairing_page(visit, 200, done=words("setup.pairing_done"))
    if action == "roles":
        try:
            body = forms.roles_body(form.get("roles", ""))
        except forms.FormError as error:
            return _roles_page(visit, 400, form=form, error=str(error))
        status, answer = visit.call("PUT", "/roles", body)
        if status >= 300:
            return _roles_page(visit, status, form=form, answer=answer)
        return _roles_page(visit, 200, done=words("setup.roles_done"))
    players = _players(visit)
    if action == "links/revoke":
        player = form.get("player", "")
        status, answer = visit.call("DELETE", f"/links/{quote(player, safe='')}")
        if status >= 300:
            return visit.page(status, "links.html", players=players, answer=answer)
        return visit.page(200, "links.html", players=players, done=words("setup.revoked", player=player))
    wanted = [p.strip() for p in form.get("players", "").replace("，", ",").split(",") if p.strip()]
    status, answer = visit.call("POST", "/links", {"players": wanted} if wanted else None)
    if status >= 300:
        return visit.page(status, "links.html", players=players, answer=answer)
    root = f"http://{visit.request.headers.get('host', 'localhost')}"
    links = [{"player": link["player"], "url": root + link["url"]} for link in answer["links"]]
    names = {p["id"]: p["name"] for p in players}
    return _printable(join_cards(visit.event["event_id"], links, names, cast(Lang, words.lang)))


# ---- pages ---------------------------------------------------------------------------------------


def _pairing_page(visit: Visit, status: int, **more: Any) -> Reply:
    """The next round's pairing (stored or what the format gives now), its warnings, and the override."""
    if visit.event.get("match") is None:
        raise Refused(404, "refused.not_found")
    number = _next_round(visit.event)
    code, pairing = visit.call("GET", f"/rounds/{number}/pairing")
    names = {p["id"]: p["name"] for p in _answer(visit.call("GET", "/pairs"))["pairs"]}
    return visit.page(
        status,
        "pairing.html",
        number=number,
        pairing=pairing if code == 200 else None,
        pairing_error=pairing.get("error") if code != 200 and isinstance(pairing, dict) else None,
        names=names,
        **more,
    )


def _roles_page(visit: Visit, status: int, **more: Any) -> Reply:
    """The event's owner and staff; the owner may replace the roles (the API's PUT, owner only)."""
    staff = _answer(visit.call("GET", "/roles"))
    roles = sorted(staff["roles"].items())
    text = "\n".join(f"{identity}, {role}" for identity, role in roles)
    return visit.page(
        status,
        "roles.html",
        owner=staff["owner"],
        roles=roles,
        may_change=staff["owner"] == visit.session.identity,
        roles_text=text,
        **more,
    )


def _answer(reply: tuple[int, Any]) -> Any:
    """A read's answer; a read refused is the console's refusal page with the API's reason."""
    status, answer = reply
    if status >= 300:
        raise Refused(
            status, "api.error", why=answer.get("error", status) if isinstance(answer, dict) else status
        )
    return answer


def _players(visit: Visit) -> list[dict[str, str]]:
    """Every player of the event (a match event's: of its pairs) by id, with their name."""
    if visit.event.get("match") is not None:
        entries = {"pairs": _answer(visit.call("GET", "/pairs"))["pairs"]}
    else:
        entries = {"players": _answer(visit.call("GET", "/export"))["players"]}
    return [{"id": pid, "name": name or pid} for pid, name in names_of(entries).items()]


def _site_zip(event_id: str, export: dict[str, Any]) -> Reply:
    """The results site (``deckhand site``'s pages) of the export as it is now, in one zip file."""
    out = io.BytesIO()
    with tempfile.TemporaryDirectory() as folder, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        root = Path(folder)
        build_site(export, root)
        for file in sorted(p for p in root.rglob("*") if p.is_file()):
            archive.write(file, f"{event_id}-site/{file.relative_to(root).as_posix()}")
    headers = {
        "Content-Type": "application/zip",
        "Content-Disposition": f'attachment; filename="{event_id}-site.zip"',
        "Cache-Control": "no-store",
    }
    return 200, headers, out.getvalue()


def _printable(html: str) -> Reply:
    headers = {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": PRINT_POLICY,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
    }
    return 200, headers, html.encode()


def _next_round(event: dict[str, Any]) -> int:
    """The round a pairing is for: the next to start (the one in play while it is dealt or played)."""
    current = int(event["current_round"] or 0)
    return current + 1 if event["status"] in ("registering", "between_rounds") else current


def _number(text: str | None, default: int) -> int:
    return int(text) if text and text.isascii() and text.isdigit() else int(default or 0)


def new_event_choices() -> dict[str, Any]:
    """What the new-event form offers beyond a duplicate event's fields: every value the API takes."""
    spec = EventSpec.model_fields
    match = MatchSpec.model_fields
    return {
        "match_rulesets": [r for r in RULESETS if game(r).competition is Competition.MATCH],
        "organisers": get_args(spec["organiser"].annotation),
        "play_formats": get_args(spec["format"].annotation),
        "rankings": get_args(spec["ranking"].annotation),
        "match_formats": get_args(match["format"].annotation),
        "match_games": get_args(match["games"].annotation),
        "match_documents": forms.MATCH_DOCUMENTS,
    }
