"""The venue's /play/ pages: the player's page's own files with their content types, nothing outside
its folder, and where the broker's WebSocket listener is."""

import json

import pytest
from deckhand_local.venue.player_site import PlayerSite


@pytest.fixture
def site(tmp_path):
    root = tmp_path / "player"
    (root / "vendor").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html>")
    (root / "main.js").write_text("export {}")
    (root / "style.css").write_text("body{}")
    (root / "vendor" / "mqtt.esm.js").write_text("export default {}")
    (root / "notes.py").write_text("secret = 1")
    (root / ".hidden.js").write_text("no")
    (tmp_path / "outside.js").write_text("outside")
    (root / "link.js").symlink_to(tmp_path / "outside.js")
    return PlayerSite(8884, root=root)


def test_the_pages_files_are_served_with_their_types_and_caching(site):
    status, headers, body = site.serve("/play/")
    assert status == 200 and body == b"<!doctype html>"
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert headers["Cache-Control"] == "no-cache" and headers["X-Content-Type-Options"] == "nosniff"
    assert site.serve("/play/index.html?lang=en")[2] == b"<!doctype html>"
    status, headers, _ = site.serve("/play/main.js")
    assert status == 200 and headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert site.serve("/play/style.css")[1]["Content-Type"] == "text/css; charset=utf-8"
    status, headers, _ = site.serve("/play/vendor/mqtt.esm.js")
    assert status == 200 and headers["Cache-Control"] == "public, max-age=86400"
    assert site.serve("/play")[0] == 301


@pytest.mark.parametrize(
    "path",
    [
        "/play/../outside.js",
        "/play/%2e%2e/outside.js",
        "/play/vendor/../../outside.js",
        "/play/..%2foutside.js",
        "/play/link.js",  # a symbolic link out of the folder
        "/play/notes.py",  # no type the page uses
        "/play/.hidden.js",
        "/play/vendor/",
        "/play/missing.js",
        "/play//etc/passwd",
        "/play/vendor\\mqtt.esm.js",
    ],
)
def test_nothing_outside_the_pages_files_is_served(site, path):
    status, _, body = site.serve(path)
    assert status == 404 and b"outside" not in body and b"secret" not in body


def test_the_config_names_the_websocket_listener(site, tmp_path):
    status, headers, body = site.serve("/play/config.json")
    assert status == 200 and headers["Cache-Control"] == "no-store"
    assert json.loads(body) == {"ws": "ws://127.0.0.1:8884"}
    # A listener on every interface is reached at the host the page came from (a phone at the venue).
    wide = PlayerSite(8884, "0.0.0.0", root=tmp_path)
    assert json.loads(wide.serve("/play/config.json", "192.168.1.20:8080")[2]) == {
        "ws": "ws://192.168.1.20:8884"
    }
    assert json.loads(wide.serve("/play/config.json", "evil/<script>")[2]) == {"ws": "ws://127.0.0.1:8884"}
    assert json.loads(PlayerSite(None, root=tmp_path).serve("/play/config.json")[2]) == {"ws": None}
