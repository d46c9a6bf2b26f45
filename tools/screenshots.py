"""The README's pictures (``make screenshots``; not part of ``make test``): a local venue of its own with
a demo Big Two event in play — four tables of simulated handsets, one of them calling the referee —
photographed by Playwright on Debian's Chromium: the TD console's room in Chinese at 1280×800
(docs/images/console-room.png) and the player's page on a phone (docs/images/player-page.png); and a
Xiangqi match against the AI as `deckhand play --game xiangqi` starts it, its drawn board on a phone
(docs/images/player-xiangqi.png).

The pages are flat colours and text: Chromium's own PNGs stay well under the README's budget of 200 KB a
picture, which the script checks."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
EVENT = "demo-cup"
TABLES = 4
CONSOLE = (1280, 800)
PHONE = (390, 844)
MAX_BYTES = 200 * 1024


def demo_event(api: Any) -> list[dict[str, Any]]:
    """A two-round Big Two event of 16 players at four tables, round 1 started; its tables."""
    api.request(
        "POST",
        "/events",
        {
            "event_id": EVENT,
            "name": "城市锄大地公开赛",
            "ruleset": "bigtwo-2017",
            "grade": "unrated",
            "rounds": 2,
            "boards_per_round": 2,
            "venue": True,
            "start": dt.date.today().isoformat(),
            "seed": "screenshots",
            "deal_seed": "screenshots",
        },
    )
    surnames = "王李张刘陈杨黄赵吴周徐孙马朱胡郭"
    players = [
        {"id": f"P{i + 1:02d}", "name": f"{s}{'明华强丽'[i % 4]}", "region": ("东城", "西城")[i % 2]}
        for i, s in enumerate(surnames)
    ]
    api.request("POST", f"/events/{EVENT}/players", {"players": players})
    tables = [
        {"id": f"T{t}", "seats": [f"demo-{t}-{s}" for s in range(4)], "dealer": None}
        for t in range(1, TABLES + 1)
    ]
    api.request(
        "POST", f"/events/{EVENT}/tables", {"tables": [{"id": t["id"], "seats": t["seats"]} for t in tables]}
    )
    api.request("POST", f"/events/{EVENT}/rounds")
    return tables


def save(png: bytes, path: Path) -> None:
    if len(png) > MAX_BYTES:
        raise SystemExit(f"screenshots: {path.name} is {len(png) // 1024} KiB, over {MAX_BYTES // 1024} KiB")
    path.write_bytes(png)
    print(f"{path.name}: {len(png) // 1024} KiB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print(
            "screenshots: no Chromium at /usr/bin/chromium (Debian: apt-get install chromium)",
            file=sys.stderr,
        )
        return 1
    from deckhand_local.cli.play import start_event
    from deckhand_local.venue import organisers
    from deckhand_local.venue.api_client import ApiClient
    from deckhand_local.venue.event_setup import make_devices
    from deckhand_local.venue.local import Venue, free_port
    from deckhand_local.venue.realtime import RealTimeDevices
    from deckhand_local.venue.seat_views import DatabaseSeatViews
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="deckhand-screenshots-") as tmp:
        state = Path(tmp)
        venue = Venue(
            dynamodb_port=free_port(),
            mqtt_port=free_port(),
            http_port=free_port(),
            state_dir=state,
            ws_port=0,
        ).start()
        devices = None
        try:
            api = ApiClient(state_dir=state)
            tables = demo_event(api)
            devices = RealTimeDevices(
                make_devices(tables, venue.link, state / "devices", DatabaseSeatViews())
            )
            devices.start()
            caller = devices.handsets[5]  # table T2's second seat calls the referee
            deadline = time.monotonic() + 30
            while caller.app.message is None and time.monotonic() < deadline:
                time.sleep(0.1)
            devices.pause()
            caller.app.on_input("call")
            devices.resume()
            _, player_path = start_event(api, "bigtwo", 1, "zh-CN")
            code = organisers.sign_in_code(state, organisers.VENUE_IDENTITY)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
                width, height = CONSOLE
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(f"{venue.api_url}/console/sign-in#c={code}")
                page.wait_for_url(f"{venue.api_url}/console/")
                page.goto(f"{venue.api_url}/console/events/{EVENT}/room")
                page.locator("#grid .table.called [data-call]").wait_for(timeout=20_000)
                page.locator("#grid [data-turn]").first.wait_for(timeout=20_000)
                save(page.screenshot(), args.out / "console-room.png")
                width, height = PHONE
                phone = browser.new_page(viewport={"width": width, "height": height}, device_scale_factor=2)
                phone.goto(f"{venue.api_url}{player_path}")
                phone.locator("[data-card]").first.wait_for(timeout=30_000)
                time.sleep(0.5)
                save(phone.screenshot(), args.out / "player-page.png")
                _, board_path = start_event(api, "xiangqi", 2, "zh-CN")
                board = browser.new_page(viewport={"width": width, "height": height}, device_scale_factor=2)
                board.goto(f"{venue.api_url}{board_path}")
                board.locator("[data-selectable]").first.wait_for(timeout=30_000)  # the person to move
                time.sleep(0.5)
                save(board.screenshot(), args.out / "player-xiangqi.png")
                browser.close()
        finally:
            if devices is not None:
                devices.close()
            venue.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
