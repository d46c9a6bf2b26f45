"""A simulated event's registration (event, players, tables) and its devices, shared by the lock-step
demo and the crash soak: the same seed gives both the same event."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckhand.engines.registry import game
from deckhand.engines.spec import Competition

from .api_client import ApiClient
from .board_hands import TableHands
from .provisioning import VenueLink
from .simulated import BotHandset, DealingTable, ElectronicBoard, SeatViews, SimulatedDevice

STYLES = ("steady", "bold", "careful")


@dataclass(frozen=True)
class EventShape:
    event_id: str
    name: str
    ruleset: str
    seed: str
    players: int
    seats: int
    tables: int
    groups: int
    rounds: int
    boards: int
    dealers: int
    minutes: int = 60  # a match's clock (match events: ended by its boards or the clock, whichever first)
    max_games: int | None = None  # a board game's knockout: games a tie may take before a lot (None: rules')
    eboards: int = 0  # a board game: the first tables with an electronic board


def register(api: ApiClient, shape: EventShape) -> list[dict[str, Any]]:
    """Create the event (its deals derived from the seed: not secret), register P01… and the tables
    T1… with their handsets (the first ``dealers`` with a dealing table, the first ``eboards`` with an
    electronic board); returns the tables."""
    event: dict[str, Any] = {
        "event_id": shape.event_id,
        "name": shape.name,
        "ruleset": shape.ruleset,
        "grade": "unrated",
        "rounds": shape.rounds,
        "venue": True,
        "start": dt.date.today().isoformat(),
        "seed": shape.seed,
        "deal_seed": shape.seed,
    }
    if game(shape.ruleset).competition is Competition.MATCH:
        # Pairs play a Swiss of matches, each ended by its boards or by the clock, whichever first.
        event["match"] = {"format": "swiss", "swiss": {"lot_seed": _lot_seed(shape.seed)}}
        short = game(shape.ruleset).short_match
        if short is not None:
            event["options"] = short(shape.boards, shape.minutes)
        api.request("POST", "/events", event)
        pairs = [
            {
                "id": f"P{i:02d}",
                "name": f"Pair {i}",
                "players": [{"id": f"P{i:02d}{m}", "name": f"Player {i}{m}"} for m in "ab"],
                "region": f"Region {1 + (i - 1) % 4}",
            }
            for i in range(1, shape.players // 2 + 1)
        ]
        api.request("POST", f"/events/{shape.event_id}/pairs", {"pairs": pairs})
    elif game(shape.ruleset).competition is Competition.HEAD_TO_HEAD:
        # Individuals in a knockout drawn by lot, each tie a match of games (RULES.md §6.5): each player
        # is a side of one.
        knockout: dict[str, Any] = {"format": "knockout"}
        if shape.max_games is not None:
            knockout["max_games"] = shape.max_games
        api.request("POST", "/events", {**event, "match": knockout})
        sides = [
            {
                "id": f"P{i:02d}",
                "name": f"Player {i}",
                "players": [{"id": f"P{i:02d}", "name": f"Player {i}"}],
            }
            for i in range(1, shape.players + 1)
        ]
        api.request("POST", f"/events/{shape.event_id}/pairs", {"pairs": sides})
    else:
        event.update({"format": "pvp", "boards_per_round": shape.boards, "groups": shape.groups})
        api.request("POST", "/events", event)
        players = [{"id": f"P{i:02d}", "name": f"Player {i}"} for i in range(1, shape.players + 1)]
        api.request("POST", f"/events/{shape.event_id}/players", {"players": players})
    tables: list[dict[str, Any]] = [
        {
            "id": f"T{t}",
            "seats": [f"hs-T{t}-{s}" for s in range(shape.seats)],
            "dealer": f"dealer-T{t}" if t <= shape.dealers else None,
        }
        for t in range(1, shape.tables + 1)
    ]
    for t, table in enumerate(tables[: shape.eboards], 1):
        table["eboard"] = f"eb-T{t}"
    api.request("POST", f"/events/{shape.event_id}/tables", {"tables": tables})
    return tables


def _lot_seed(seed: str) -> int:
    """Round 1's lot drawn from the demo's seed: the same seed, the same draw."""
    import hashlib

    return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:4], "big")


def make_devices(
    tables: list[dict[str, Any]],
    link: VenueLink,
    state: Path,
    views: SeatViews,
    misread_board: str | None = None,
    dealer_drops_at: int = 0,
    player_style: Callable[[str, dict[str, Any]], str] | None = None,
    hands: dict[str, TableHands] | None = None,
) -> list[SimulatedDevice]:
    """A bot handset per seat and a dealing table where registered (the first one misreading
    ``misread_board`` once, for fault tests); ``player_style``: the style of the player a handset's
    view seats there (players who change seats between games), else the handset's own. An electronic
    board where registered, moved by the players' ``hands`` at its table (by table)."""
    devices: list[SimulatedDevice] = []
    for i, table in enumerate(tables):
        board = (hands or {})[table["id"]] if table.get("eboard") else None
        for s, thing in enumerate(table["seats"]):
            # Styles differ between the tables' same seats, or duplicate play would compare equals.
            style = STYLES[(i + s) % len(STYLES)]
            devices.append(
                BotHandset(
                    thing, link, state / thing, style, views=views, player_style=player_style, board=board
                )
            )
        if board is not None:
            devices.append(ElectronicBoard(table["eboard"], link, state / table["eboard"], board))
        if table["dealer"]:
            misread = misread_board if i == 0 else None
            devices.append(
                DealingTable(table["dealer"], link, state / table["dealer"], misread, dealer_drops_at)
            )
    return devices
