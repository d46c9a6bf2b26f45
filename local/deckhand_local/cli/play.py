"""``deckhand play``: the quickest way for a person to try Deckhand — a local venue on free ports, a
one-player event against the AI (人机赛: the AI in every other seat; in a game of pairs, a short match
with the AI as partner against an AI pair; in a board game, a match of two games against the AI, the
colours swapped), and the join URL of its player's page, printed as one line ``Open http://…``."""

from __future__ import annotations

import argparse
import datetime as dt
import signal
import threading
from pathlib import Path
from typing import IO, Any

from deckhand.engines.registry import by_alias
from deckhand.engines.spec import Competition, GameSpec
from deckhand.errors import DeckhandError

from ..venue.api_client import ApiClient
from ..venue.local import Venue, free_port

PLAYER = "P01"
MATCH_MINUTES = 30  # a match game's short match: ended by its boards or this clock, as its rules allow


def playable(alias: str) -> bool:
    """Games a person plays alone against the AI: the duplicate ones, the board games (人机对弈) and the
    match games that have a short match (the person's pair has the AI as partner; an AI pair sits
    opposite)."""
    spec = by_alias(alias)
    return (
        spec.competition in (Competition.DUPLICATE, Competition.HEAD_TO_HEAD) or spec.short_match is not None
    )


def start_event(api: ApiClient, alias: str, boards: int, lang: str) -> tuple[str, str]:
    """Create the event, register the player, issue their join link and start round 1: the event's id
    and the page's path."""
    spec = by_alias(alias)
    event_id = "play-" + dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
    event: dict[str, Any] = {
        "event_id": event_id,
        "name": "试玩 · Try Deckhand",
        "ruleset": spec.ruleset,
        "grade": "unrated",
        "format": "pva",
        "venue": False,
        "rounds": 1,
        "start": dt.date.today().isoformat(),
    }
    if spec.competition is Competition.HEAD_TO_HEAD:
        # A Swiss round of one match: two games, the colours swapped (RULES.md §6.5).
        api.request("POST", "/events", {**event, "match": {"format": "swiss"}})
        api.request("POST", f"/events/{event_id}/pairs", {"pairs": ai_opponent()})
    elif spec.competition is Competition.MATCH:
        api.request("POST", "/events", {**event, **short_match(spec, boards)})
        api.request("POST", f"/events/{event_id}/pairs", {"pairs": ai_pairs()})
    else:
        api.request("POST", "/events", {**event, "boards_per_round": boards})
        api.request("POST", f"/events/{event_id}/players", {"players": [{"id": PLAYER, "name": "玩家"}]})
    links = api.request("POST", f"/events/{event_id}/links", {"players": [PLAYER]})["links"]
    api.request("POST", f"/events/{event_id}/rounds")
    path: str = links[0]["url"]
    return event_id, path.replace("/play/#", f"/play/?lang={lang}#", 1)


def short_match(spec: GameSpec, boards: int) -> dict[str, Any]:
    """A match game's event settings: one match, ended by ``boards`` boards or the clock."""
    assert spec.short_match is not None
    return {"match": {"format": "swiss"}, "options": spec.short_match(boards, MATCH_MINUTES)}


def ai_pairs() -> list[dict[str, Any]]:
    """The person with the AI as partner, and the pair of AIs they play against."""
    return [
        {
            "id": "ME",
            "name": "玩家 · 电脑",
            "players": [{"id": PLAYER, "name": "玩家"}, {"id": "AI1", "name": "电脑 1", "ai": True}],
        },
        {
            "id": "AI",
            "name": "电脑",
            "players": [{"id": f"AI{i}", "name": f"电脑 {i}", "ai": True} for i in (2, 3)],
        },
    ]


def ai_opponent() -> list[dict[str, Any]]:
    """A board game's two sides: the person, and the AI opposite."""
    return [
        {"id": "ME", "name": "玩家", "players": [{"id": PLAYER, "name": "玩家"}]},
        {"id": "AI", "name": "电脑", "players": [{"id": "AI1", "name": "电脑", "ai": True}]},
    ]


def run_play(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    if not playable(args.game):
        print(f"deckhand play: {args.game} has no short match to play against the AI", file=stderr)
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
    p.add_argument("--game", choices=games, default=games[0], help=f"the game (default {games[0]})")
    p.add_argument(
        "--state", default=".deckhand-play", help="the venue's state folder (default .deckhand-play)"
    )
    p.add_argument(
        "--boards",
        type=int,
        default=4,
        help=f"boards to play (default 4; a match game's match: at most, or {MATCH_MINUTES} minutes;"
        " a board game: a match of two games)",
    )
    p.add_argument(
        "--lang", choices=["zh-CN", "en"], default="zh-CN", help="the page's language (default zh-CN)"
    )
    p.add_argument("--http-port", type=int, default=0, help="the page's port (default: a free one)")
