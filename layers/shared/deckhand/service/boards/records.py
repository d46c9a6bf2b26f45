"""Hand records and play records for the exports (docs/cli.md "Exports"): what players read after
a board — every hand and the kitty of the deal actually played, and each table's play in order.

Shown only for rounds that are done: by then every table of every group has finished every board
(disclosure.py), so no record tells a table still to play a board what it holds.
"""

from __future__ import annotations

from typing import Any

from ...engines.common.cards import format_cards
from ...engines.common.deal import deal_round_robin
from ...engines.registry import Game
from ...engines.spec import Position
from ..storage.models import BoardStateItem
from .log import NOT_ACTIONS, REDEAL, SERVE_DEAL, STEP

# What a play record keeps of a board's log entry: seat, kind, cards, value, a declared reading, the
# deal number of a redeal, who applied a penalty — never the wall-clock time of the press.
# A clock's action (``to``) is marked: a board game's record replays it as the platform's.
_KEPT = ("s", "t", "c", "v", "d", "n", "by", "to")
# Log entries that are not the play: the dealing table's reports (a misread and its re-read), calls
# for the referee, clocks stopped for an outage, and the referee's end of a board not played (the
# result says ``not_played``). The record is the same however often a table's devices stumbled. It
# keeps what the play went through: a redeal (its deal number), the server taking the deal over, and a
# game dealt in steps its steps (``{"s": -1, "t": "step", "n": cards out}``): a declaration was made
# with the cards out then.
_NOT_PLAY = NOT_ACTIONS - {REDEAL, SERVE_DEAL, STEP}


def hand_record(g: Game, order: list[int], deal_index: int = 0) -> dict[str, Any]:
    """Every seat's hand and the kitty of deal ``deal_index`` of a board's card order (its deals one
    after another, each dealt one card to each seat in turn from seat 0, the rest to the kitty)."""
    size = g.deal_size
    number = deal_index % max(g.deals_per_board, 1)
    deal = order[number * size : (number + 1) * size]
    hands, kitty = deal_round_robin(deal, g.seats, g.hand_size)
    return {
        "hands": [format_cards(h) for h in hands],
        "kitty": format_cards(sorted(kitty)),
        "deal_number": deal_index + 1,
    }


def play_record(item: BoardStateItem) -> list[dict[str, Any]]:
    """A board's log as the results pages replay it (module doc)."""
    return [{k: e[k] for k in _KEPT if k in e} for e in item.log if e.get("t") not in _NOT_PLAY]


def deal_played(item: BoardStateItem) -> int:
    """Which of a board's deals was played (0 the first): its last redeal's number, if any."""
    redeals = [int(e.get("n", 0)) for e in item.log if e.get("t") == REDEAL]
    return redeals[-1] if redeals else 0


def add_duplicate_records(event_id: str, ruleset: str, boards: list[dict[str, Any]], done: set[int]) -> None:
    """Each board of a round that is done gets its hand record (``deal``: the deal the first table
    played) and each table's play record (``play``: its deal number, and that deal's hands when a
    redeal made it differ); ``boards`` is the export's list, changed in place."""
    from ...engines.registry import game
    from ..storage.keys import deal_sk, event_pk
    from ..storage.models import DealItem
    from . import store as board_store

    g = game(ruleset)
    wanted = [b for b in boards if b["round"] in done]
    keys = [(event_pk(event_id), deal_sk(b["round"], b["group"], b["board"])) for b in wanted]
    orders = {i.sk: list(i.order) for i in DealItem.batch_get(keys)} if keys else {}
    for b in wanted:
        order = orders.get(deal_sk(b["round"], b["group"], b["board"]))
        if order is None:
            continue
        tables = sorted({r["table"] for r in b["results"]})
        items = board_store.load_many(event_id, b["round"], [(t, b["board"]) for t in tables])
        plays = []
        first: int | None = None
        for t in tables:
            item = items.get((t, b["board"]))
            if item is None:
                continue
            number = deal_played(item)
            first = number if first is None else first
            entry: dict[str, Any] = {"table": t, "deal_number": number + 1, "steps": play_record(item)}
            if number != first:
                entry["deal"] = hand_record(g, order, number)
            plays.append(entry)
        b["deal"] = hand_record(g, order, first or 0)
        b["play"] = plays


def add_match_records(event_id: str, ruleset: str, round_no: int, table: str, boards: list[dict[str, Any]],
                      items: dict[tuple[str, str], BoardStateItem]) -> None:  # fmt: skip
    """Each ended board of a match (of a round that is done) gets its hand and play records."""
    from ...engines.registry import game
    from ..storage.keys import deal_sk, event_pk
    from ..storage.models import DealItem

    g = game(ruleset)
    ended = [b for b in boards if b.get("status") == "ended"]
    keys = [(event_pk(event_id), deal_sk(round_no, table, str(b["board"]))) for b in ended]
    orders = {i.sk: list(i.order) for i in DealItem.batch_get(keys)} if keys else {}
    for b in ended:
        order = orders.get(deal_sk(round_no, table, str(b["board"])))
        item = items.get((table, str(b["board"])))
        if order is None or item is None:
            continue
        b["deal"] = hand_record(g, order, deal_played(item))
        b["play"] = play_record(item)


def game_record(position: Position, item: BoardStateItem, first_by: str, tags: dict[str, str],
                names: dict[str, str]) -> dict[str, Any] | None:  # fmt: skip
    """A board game's ended game as its record (docs/export.md, "Game records"): who played which
    seat, who moved first and how that was decided, the carry the game started from (its options; its
    seed where the game draws from one), and the engine's record of its play — the moves in the
    game's notations, the result the replay reaches (its winner named), a text record where the game
    has one; not its pictures, which anyone draws again from the carry and the play (an export of
    long games stays small). None for a game the referee ended unplayed."""
    from .log import ended_unplayed

    if position.record is None or ended_unplayed(item):
        return None
    players = list(item.players)
    rec = position.record(item.carry, play_record(item), [names.get(p, p) for p in players], tags)
    del rec["frames"]
    winner = rec["result"]["winner"]
    rec["result"] = {
        "winner": None if winner is None else players[winner],
        "why": rec["result"]["why"],
        "points": dict(zip(players, rec["result"]["points"], strict=True)),
    }
    carry = dict(item.carry or {})
    return {
        "players": players,
        "first": players[0],
        "first_by": first_by,
        "carry": carry,
        **({"seed": carry["seed"]} if "seed" in carry else {}),
        **({"tags": tags} if tags else {}),
        **rec,
    }
