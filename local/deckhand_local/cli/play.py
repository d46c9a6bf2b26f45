"""``deckhand play``: the quickest way for a person to try Deckhand — a local venue on free ports, a
one-player event against the AI (人机赛: the AI in every other seat), and the join URL of its player's
page, printed as one line ``Open http://…``."""

from __future__ import annotations

import argparse
import datetime as dt
import signal
import threading
from pathlib import Path
from typing import IO

from deckhand.engines.registry import by_alias
from deckhand.engines.spec import Competition
from deckhand.errors import DeckhandError

from ..venue.api_client import ApiClient
from ..venue.local import Venue, free_port

PLAYER = "P01"


def playable(alias: str) -> bool:
    """Games a person plays alone against the AI: the duplicate ones (a match game's pairs have none)."""
    return by_alias(alias).competition is Competition.DUPLICATE


def start_event(api: ApiClient, alias: str, boards: int, lang: str) -> tuple[str, str]:
    """Create the event, register the player, issue their join link and start round 1: the event's id
    and the page's path."""
    spec = by_alias(alias)
    event_id = "play-" + dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
    api.request(
        "POST",
        "/events",
        {
            "event_id": event_id,
            "name": "试玩 · Try Deckhand",
            "ruleset": spec.ruleset,
            "grade": "unrated",
            "format": "pva",
            "venue": False,
            "rounds": 1,
            "boards_per_round": boards,
            "start": dt.date.today().isoformat(),
        },
    )
    api.request("POST", f"/events/{event_id}/players", {"players": [{"id": PLAYER, "name": "玩家"}]})
    links = api.request("POST", f"/events/{event_id}/links", {"players": [PLAYER]})["links"]
    api.request("POST", f"/events/{event_id}/rounds")
    path: str = links[0]["url"]
    return event_id, path.replace("/play/#", f"/play/?lang={lang}#", 1)


def run_play(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    if not playable(args.game):
        print(
            f"deckhand play: {args.game} is played in matches of pairs; choose a duplicate game", file=stderr
        )
        return 2
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    state = Path(args.state)
    venue = Venue(
        dynamodb_port=free_port(),
        mqtt_port=free_port(),
        http_port=args.http_port or free_port(),
        state_dir=state,
        ws_port=0,
    ).start()
    try:
        event_id, path = start_event(ApiClient(state_dir=state), args.game, args.boards, args.lang)
    except DeckhandError as exc:
        print(f"deckhand play: {exc}", file=stderr)
        venue.stop()
        return 1
    print(f"Open {venue.api_url}{path}", file=stdout, flush=True)
    print(
        f"event {event_id}: its standings with `deckhand event standings {event_id} --state {state}`;"
        " Ctrl-C stops the venue",
        file=stderr,
        flush=True,
    )
    while not stop.wait(1):
        if not venue.bridge.receiving:
            print("the bridge's receive thread stopped: stopping", file=stderr)
            venue.stop()
            return 1
    venue.stop()
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], aliases: list[str]) -> None:
    p = sub.add_parser(
        "play",
        help="try Deckhand: a local venue and a one-player event against the AI; prints the page to open",
    )
    games = [a for a in aliases if playable(a)]
    p.add_argument("--game", choices=games, default=games[0], help=f"a duplicate game (default {games[0]})")
    p.add_argument(
        "--state", default=".deckhand-play", help="the venue's state folder (default .deckhand-play)"
    )
    p.add_argument("--boards", type=int, default=4, help="boards to play (default 4)")
    p.add_argument(
        "--lang", choices=["zh-CN", "en"], default="zh-CN", help="the page's language (default zh-CN)"
    )
    p.add_argument("--http-port", type=int, default=0, help="the page's port (default: a free one)")
