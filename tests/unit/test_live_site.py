"""The venue's live results site (site/live.py): pages from the public export with the round in
play's progress, rebuilt only when what they show changes, no path outside the site."""

from __future__ import annotations

from typing import Any

from deckhand_local.site.live import LiveSite

EXPORT: dict[str, Any] = {
    "event": {"name": "Harbour Cup", "ruleset": "bigtwo-2017", "status": "playing", "current_round": 2},
    "players": [{"id": "P1", "name": "Li", "number": 1}],
    "rounds": [{"round": 1, "commitment": "ab" * 32, "salt": "cd" * 32}],
    "results": {"ruleset": "bigtwo-2017", "boards": []},
    "standings": {"boards": [], "standings": [{"player": "P1", "place": 1, "total": 0, "tie_break": None}]},
}
STATUS = {
    "round": 2,
    "status": "playing",
    "commitment": "ef" * 32,
    "tables": [
        {"table": "A", "boards": [{"board": "1", "status": "ended"}, {"board": "2", "status": "playing"}]}
    ],
}


def fake(calls: list[str]):
    def fetch(path: str) -> tuple[int, Any]:
        calls.append(path)
        if path == "/events/cup/export":
            return 200, EXPORT
        if path == "/events/cup/rounds/2":
            return 200, STATUS
        return 404, {"error": "no event"}

    return fetch


def test_the_index_shows_each_table_of_the_round_in_play_and_refreshes(tmp_path):
    calls: list[str] = []
    now = [0.0]
    site = LiveSite(fake(calls), tmp_path, clock=lambda: now[0])
    status, headers, body = site.serve("/site/cup/")
    page = body.decode()
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "第 2 轮：比赛中" in page and "1 / 2" in page and 'http-equiv="refresh"' in page
    english = site.serve("/site/cup/en/")[2].decode()
    assert '<html lang="en"' in english and "Round 2: playing" in english and "1 / 2" in english
    assert "ef" * 32 in page, "the round in play's commitment, published before its play"
    assert calls == ["/events/cup/export", "/events/cup/rounds/2"]
    folders = list((tmp_path / "cup").iterdir())
    site.serve("/site/cup/index.html")
    assert len(calls) == 2, "fetched a moment ago: not fetched again"
    now[0] = 10.0
    site.serve("/site/cup/index.html")
    assert len(calls) == 4 and list((tmp_path / "cup").iterdir()) == folders, "nothing changed: not rebuilt"
    assert site.serve("/site/cup/assets/site.css")[1]["Content-Type"].startswith("text/css")
    assert len(calls) == 4, "the stylesheet needs no export"
    assert site.serve("/site/cup") == (301, {"Location": "/site/cup/"}, b"")
    EXPORT["event"]["status"] = "finished"
    try:
        now[0] = 20.0
        finished = site.serve("/site/cup/")[2].decode()
        assert 'http-equiv="refresh"' not in finished, "a finished event's pages stay still"
    finally:
        EXPORT["event"]["status"] = "playing"


def test_only_pages_of_an_event_are_served(tmp_path):
    site = LiveSite(fake([]), tmp_path / "live")
    assert site.serve("/site/nope/")[0] == 404
    for path in (
        "/site/cup/../../venue.json",
        "/site/cup/boards/../../x.html",
        "/site/",
        "/site/cup/a/b/c.html",
        "/site/cup/en/a/b.html",
        "/site/cup/fr/index.html",
        "/site/../",
        "/site/./",
        "/site/..",
        "/site/cup/assets/../x.css",
    ):
        assert site.serve(path)[0] == 404, path
    assert list(tmp_path.iterdir()) in ([], [tmp_path / "live"]), "nothing written outside the site"


def test_a_page_that_cannot_be_built_is_a_500_not_a_dropped_connection(tmp_path):
    def broken(path: str) -> tuple[int, Any]:
        raise RuntimeError("database down")

    assert LiveSite(broken, tmp_path).serve("/site/cup/")[0] == 500


def test_the_venue_serves_the_site_without_a_token_and_nothing_else(tmp_path):
    import urllib.error
    import urllib.request

    from deckhand_local.venue.http_adapter import ApiServer

    seen: list[dict[str, Any]] = []

    def handler(event: dict[str, Any]) -> dict[str, Any]:
        seen.append(event)
        return {"statusCode": 200, "body": "{}"}

    server = ApiServer(
        handler,
        "secret",
        port=0,
        site=lambda path: (200, {"Content-Type": "text/html; charset=utf-8"}, b"<p>ok</p>"),
    )
    server.start()
    try:
        base = f"http://127.0.0.1:{server.port}"
        with urllib.request.urlopen(f"{base}/site/cup/", timeout=10) as reply:
            assert reply.read() == b"<p>ok</p>"
        for method, path in (("GET", "/events/cup/export"), ("POST", "/site/cup/")):
            request = urllib.request.Request(
                f"{base}{path}", method=method, data=b"" if method == "POST" else None
            )
            try:
                urllib.request.urlopen(request, timeout=10)
                raise AssertionError(f"{method} {path} without a token was served")
            except urllib.error.HTTPError as err:
                assert err.code == 401
        assert seen == [], "the API handler never saw a request without a token"
    finally:
        server.stop()


def test_file_names_from_ids_never_collide_nor_leave_the_folder():
    from deckhand_local.site.build import safe_name

    names = [safe_name(x) for x in ("a.b", "a_b", "a-b", "a~b", "李", "..", ".", "x/y")]
    assert len(set(names)) == len(names)
    assert all("/" not in n and n.strip(".") for n in names)
