"""``deckhand event join-links`` / ``revoke-link``: JSON lines {player, url}, the token in the fragment."""

import io
import json
from types import SimpleNamespace

import pytest
from deckhand.errors import DeckhandError
from deckhand_local.cli import events_cli


class FakeApi:
    api = "http://127.0.0.1:8080"

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, object]] = []

    def request(self, method: str, path: str, body=None, *, raw: bool = False):
        self.calls.append((method, path, body))
        if method == "DELETE":
            return {"player": "P1", "thing": "web-abcdefghij", "revoked": True}
        if method == "GET":  # the export: who is registered, by name
            return {"players": [{"id": "P1", "name": "王<b>芳</b>"}, {"id": "P2", "name": "Anna"}]}
        links = [{"player": p, "url": f"/play/#t=tok{p}", "thing": f"web-{p}"} for p in ("P1", "P2")]
        return {"links": links}


def run(monkeypatch, api: FakeApi, *argv: str, **options) -> str:
    monkeypatch.setattr(events_cli, "ApiClient", lambda *a, **k: api)
    args = SimpleNamespace(api=None, state=".deckhand", organiser=None, **options)
    out = io.StringIO()
    assert events_cli.run_event_command(args, io.StringIO(), out) == 0
    return out.getvalue()


def test_join_links_prints_a_line_per_player_with_the_venues_address(monkeypatch):
    api = FakeApi()
    out = run(monkeypatch, api, event_command="join-links", event_id="cup", players=None, base=None)
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines == [
        {"player": "P1", "url": "http://127.0.0.1:8080/play/#t=tokP1"},
        {"player": "P2", "url": "http://127.0.0.1:8080/play/#t=tokP2"},
    ]
    assert api.calls == [("POST", "/events/cup/links", None)]


def test_join_links_for_some_players_at_another_base(monkeypatch):
    api = FakeApi()
    out = run(
        monkeypatch, api, event_command="join-links", event_id="cup", players=["P1"], base="https://x.org/"
    )
    assert json.loads(out.splitlines()[0])["url"] == "https://x.org/play/#t=tokP1"
    assert api.calls == [("POST", "/events/cup/links", {"players": ["P1"]})]


def test_join_links_at_the_pages_own_address_on_aws(monkeypatch):
    api = FakeApi()
    page = "https://d111111abcdef8.cloudfront.net/play/"  # the stack's PlayerPageUrl output
    out = run(monkeypatch, api, event_command="join-links", event_id="cup", players=["P1"], base=page)
    assert json.loads(out.splitlines()[0])["url"] == "https://d111111abcdef8.cloudfront.net/play/#t=tokP1"


def test_a_base_that_is_no_web_address_is_refused_before_any_link_is_issued(monkeypatch):
    api = FakeApi()
    with pytest.raises(DeckhandError, match="not an http"):
        run(monkeypatch, api, event_command="join-links", event_id="cup", players=None, base="ftp://x")
    assert api.calls == []


def test_revoke_link(monkeypatch):
    api = FakeApi()
    out = run(monkeypatch, api, event_command="revoke-link", event_id="cup", player="P1")
    assert json.loads(out)["revoked"] is True
    assert api.calls == [("DELETE", "/events/cup/links/P1", None)]


def test_join_cards_print_a_qr_code_of_each_players_own_link_in_chinese(monkeypatch):
    import segno
    from deckhand_local.guide_cards import qr_svg

    api = FakeApi()
    page = run(
        monkeypatch,
        api,
        event_command="join-links",
        event_id="cup",
        players=None,
        base=None,
        fmt="html",
        lang="zh-CN",
    )
    assert page.startswith('<!doctype html><html lang="zh-CN">')
    assert "用手机扫码入座" in page and "Scan" not in page
    assert "王&lt;b&gt;芳&lt;/b&gt;" in page and "<b>芳" not in page  # a name is text, never markup
    assert page.index("Anna") < page.index("王&lt;b&gt;")  # cards in name order
    for player in ("P1", "P2"):
        url = f"http://127.0.0.1:8080/play/#t=tok{player}"
        assert qr_svg(url) in page and url in page
        assert segno.make(url, error="m").designator.endswith("-M")
    assert page.count("<svg") == 2
    english = run(
        monkeypatch,
        FakeApi(),
        event_command="join-links",
        event_id="cup",
        players=None,
        base=None,
        fmt="html",
        lang="en",
    )
    assert '<html lang="en">' in english and "Scan with your phone" in english
