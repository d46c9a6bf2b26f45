"""The player's page as published on AWS (deckhand publish-page): the same files, a config.json naming
IoT Core's endpoint and the custom authorizer on the wss URL, and the page opening exactly that URL
with its seat's thing as MQTT username and client id and its join token as password."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

from deckhand_local.cli.publish_page import page_config
from deckhand_local.venue.player_site import PlayerSite

ORIGIN = "https://d111111abcdef8.cloudfront.net"
ENDPOINT = "abc123example-ats.iot.eu-west-1.amazonaws.com"
TOKEN = "pvooyxa2p7.rgwYYzIp0a7YrGjIKHyfAeYbmLBuyFtE83lLGWwjaJw"


def test_the_page_connects_to_iot_core_naming_the_authorizer_on_the_url(
    new_context: Any, shots: list[Any]
) -> None:
    config = page_config(ENDPOINT, "deckhand-players-dev")
    site = PlayerSite(ws_port=None)

    def serve(route: Any) -> None:
        path = urlsplit(route.request.url).path
        if path == "/play/config.json":  # what publish-page writes beside the page
            route.fulfill(status=200, content_type="application/json", body=json.dumps(config))
            return
        status, headers, body = site.serve(path)
        route.fulfill(status=status, headers=headers, body=body)

    opened: list[str] = []
    frames: list[bytes] = []

    def iot_core(ws: Any) -> None:  # stands in for IoT Core: records the upgrade URL and CONNECT
        opened.append(ws.url)
        ws.on_message(lambda frame: frames.append(frame if isinstance(frame, bytes) else frame.encode()))

    context = new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    shots.append(page)
    page.route(f"{ORIGIN}/**", serve)
    page.route_web_socket(re.compile("^wss://"), iot_core)
    page.goto(f"{ORIGIN}/play/?lang=en#t={TOKEN}")
    for _ in range(50):  # the CONNECT follows the upgrade at once; 5 s at most
        if frames:
            break
        page.wait_for_timeout(100)
    assert opened, "the page opened no WebSocket"
    url = urlsplit(opened[0])
    assert (url.scheme, url.hostname, url.path) == ("wss", ENDPOINT, "/mqtt")
    assert url.query == "x-amz-customauthorizer-name=deckhand-players-dev"
    connect = frames[0]
    assert connect[0] == 0x10  # MQTT CONNECT
    thing = b"web-" + TOKEN.split(".")[0].encode()
    # client id, username (the thing alone: the authorizer is named on the URL) and password, each
    # length-prefixed, in that order.
    client_id = len(thing).to_bytes(2, "big") + thing
    assert connect.count(client_id) == 2
    assert len(TOKEN).to_bytes(2, "big") + TOKEN.encode() in connect
    context.close()
