"""A player's page that says hello while its round's first board is made but not yet begun (a round
begins its tables one after another: at a national event the window is long) sees that board drawn in
its language, with the browser's layout — not in English as a handset, until it happens to reconnect."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from backend import Backend
from deckhand.service.boards import progress as board_progress
from deckhand.service.duplicate import rounds
from deckhand.service.organiser import events, pairs, player_links

EVENT = "hello-cup"
CJK = re.compile("[\u4e00-\u9fff]")


def views(backend: Backend, thing: str) -> list[dict[str, Any]]:
    return [m for m in backend.publisher.to(thing) if m["t"] == "view"]


@pytest.mark.parametrize("begun_first", [False, True], ids=["hello-first", "begun-first"])
def test_a_hello_while_the_first_board_waits_draws_it_in_the_pages_language(
    backend, monkeypatch, begun_first
):
    events.create_event(
        {
            "event_id": EVENT,
            "name": "Hello Cup",
            "ruleset": "xiangqi-2004",
            "grade": "unrated",
            "rounds": 1,
            "venue": False,
            "start": dt.date(2026, 12, 14),
            "deal_seed": "hello",
            "match": {"format": "knockout"},
        }
    )
    pairs.register_pairs(EVENT, [{"id": p, "players": [{"id": p}]} for p in ("ANN", "BEN")])
    links = {link.player: link.thing for link in player_links.issue_links(EVENT)}
    held: list[tuple[Any, Any, Any]] = []  # the deal's starts, held back: (how, args, kwargs)
    one, many = board_progress.start_board, board_progress.start_boards
    monkeypatch.setattr(board_progress, "start_board", lambda *a, **k: held.append((one, a, k)) or False)
    monkeypatch.setattr(board_progress, "start_boards", lambda *a, **k: held.append((many, a, k)))
    rounds.request_next_round(backend.rt, EVENT)
    monkeypatch.undo()
    assert held, "the round's first board was made and left to begin"
    page = links["ANN"]
    if begun_first:  # the board begins between the hello's read and its write
        for begin, args, kwargs in held:
            begin(*args, **kwargs)
        held.clear()
    assert views(backend, page) == [] or begun_first
    assert backend.send(page, {"t": "hello", "msg": "h1", "lang": "zh-CN"})["status"] == "accepted"
    for begin, args, kwargs in held:
        begin(*args, **kwargs)
    view = views(backend, page)[-1]
    assert view.get("layout"), "the page's view has no layout: drawn for a handset"
    assert any(CJK.search(line) for line in view["l"]), view["l"]
    assert not any("KABNRCP" in line for line in view["l"])  # the page draws pieces: no letters' legend
    assert any(line.startswith("抽签承诺 ") for line in view["l"])  # a lot of colours, not a deal of cards
    other = views(backend, links["BEN"])[-1]  # the other page said nothing: a handset's English view
    assert "layout" not in other and any("KABNRCP" in line for line in other["l"])
    assert any(line.startswith("Lot commitment ") for line in other["l"]), other["l"]
