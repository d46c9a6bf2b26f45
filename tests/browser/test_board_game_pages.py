"""The player's page draws each board game's board from the server's grid and layout (docs/client.md,
"Boards"), as two phones of one venue table in Chromium: a few moves of each game played by tapping a
piece and where it goes (Gomoku: a point), each accepted and the board redrawn on both phones; the
pieces' names in Chinese by default and in English after the switch; no sideways scrolling at 360 px;
and Junqi's page showing every enemy piece as "a piece", never its rank.

One venue for the module; one knockout event of two players per game, its round started by its test."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import started_venue
from deckhand.engines.contract import Action
from deckhand.engines.registry import by_alias
from phone_pages import answered, no_sideways_scroll, open_phone, root, settled, wait

pytest.importorskip("playwright")

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.xdist_group("board-pages"),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium"),
]
GAMES = ["xiangqi", "gomoku", "junqi", "checkers"]
PLIES = 3  # moves played in each game: both seats move, the first twice
# A piece name seat 0 (the first mover) sees on its board after the moves, in Chinese and in English.
NAMED = {
    "xiangqi": ("红马", "red horse"),
    "gomoku": ("黑子", "black stone"),
    "junqi": ("工兵", "engineer"),
    "checkers": ("红子", "red piece"),
}
CJK = re.compile("[\u4e00-\u9fff]")


class Frames:
    """Every frame the page's WebSocket receives (MQTT packets), passed on unchanged."""

    def __init__(self) -> None:
        self.down: list[bytes] = []

    def __call__(self, route: Any) -> None:
        server = route.connect_to_server()
        route.on_message(server.send)

        def down(frame: str | bytes) -> None:
            self.down.append(frame if isinstance(frame, bytes) else frame.encode())
            route.send(frame)

        server.on_message(down)

    def views(self) -> list[dict[str, Any]]:
        out = []
        for frame in self.down:
            at = frame.find(b'{"t":"view"')
            if at >= 0:
                out.append(json.JSONDecoder().raw_decode(frame[at:].decode())[0])
        return out


@pytest.fixture(scope="module")
def board_venue(tmp_path_factory: pytest.TempPathFactory, dynamodb_local: str) -> Iterator[Any]:
    """A venue with one online knockout event (no venue tables: the players' phones follow their seats)
    of two players per game, each player's join link issued (``venue.links[alias]``), no round started."""
    from deckhand_local.venue.api_client import ApiClient

    state = tmp_path_factory.mktemp("board-venue")
    with started_venue(state, dynamodb_local, "boards") as venue:
        api = ApiClient(state_dir=state)
        venue.links = {}
        for alias in GAMES:
            event = f"bd-{alias}"
            api.request(
                "POST",
                "/events",
                {
                    "event_id": event,
                    "name": f"Board pages {alias}",
                    "ruleset": by_alias(alias).ruleset,
                    "grade": "unrated",
                    "rounds": 1,
                    "venue": False,
                    "start": dt.date.today().isoformat(),
                    "seed": f"pages-{alias}",
                    "deal_seed": f"pages-{alias}",
                    "match": {"format": "knockout"},
                },
            )
            players = [{"id": f"P{i}", "name": f"Player {i}", "players": [{"id": f"P{i}"}]} for i in (1, 2)]
            api.request("POST", f"/events/{event}/pairs", {"pairs": players})
            venue.links[alias] = api.request("POST", f"/events/{event}/links", {})["links"]
        venue.api_client = api
        yield venue


def moves(alias: str, plies: int) -> list[tuple[int, dict[str, str]]]:
    """The first legal move of each turn (that attacks nothing) from the start (Junqi: both sides' standard setups), by the
    engine: what the pages will tap, seat by seat."""
    spec = by_alias(alias)
    board = spec.new_board([], None)
    if alias == "junqi":
        from deckhand.engines.junqi.setup import sound_setup

        for seat in (0, 1):
            board.apply(Action(seat, "setup", data=sound_setup(seat)))
    out = []
    for _ in range(plies):
        seat = board.pending()[0]
        enemy = set(getattr(board.seat_view(seat), "enemy", ()))  # Junqi: a quiet move, not an attack
        move = next(
            a for a in board.legal_actions(seat) if a.kind == "move" and a.data.get("to") not in enemy
        )
        out.append((seat, move.data))
        board.apply(move)
    return out


def squares(page: Any) -> dict[str, dict[str, str | None]]:
    """Every square the page draws: name → its piece glyph, accessible name and marks."""
    found: dict[str, dict[str, str | None]] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('[data-square]')].map((b) => [b.dataset.square,
            {piece: b.dataset.piece ?? null, label: b.getAttribute('aria-label'),
             selectable: b.dataset.selectable ?? null, last: b.dataset.last ?? null,
             picked: b.dataset.picked ?? null, pressed: b.getAttribute('aria-pressed')}]))"""
    )
    return found


def tap_square(page: Any, name: str) -> None:
    page.locator(f'[data-square="{name}"]').tap()


def play_move(page: Any, data: dict[str, str]) -> None:
    """Tap the move's squares in the order its option's ``q`` names them; on squares smaller than a
    finger the move waits for its option's confirming tap (never sent by the squares alone)."""
    wait(lambda: settled(page) and page.locator("[data-selectable]").count() > 0, what="the seat's move")
    fields = ["point"] if "point" in data else ["from", "to"]
    assert squares(page)[data[fields[0]]]["selectable"] == "true"
    box = page.locator(f'[data-square="{data[fields[-1]]}"]').bounding_box()
    small = min(box["width"], box["height"]) < 44
    for i, field in enumerate(fields):
        tap_square(page, data[field])
        if i < len(fields) - 1 or small:  # the move not yet sent: the square shows its place in it
            wait(lambda i=i, field=field: squares(page)[data[field]]["picked"] == str(i + 1), what="picked")
            assert squares(page)[data[field]]["pressed"] == "true"
    if small:
        assert root(page, "busy") == "false" and page.locator(".option.armed").count() == 1
        page.locator('[data-option][data-kind="move"]').tap()
    assert answered(page) is None


def start(venue: Any, alias: str, new_context: Any, shots: list[Any]) -> tuple[list[Any], list[Frames]]:
    """Both players' phones on their join links (Chinese by default), the round started: the pages and
    their frames, the first mover's (seat 0: the first to be asked a move, after Junqi's setups) first."""
    frames = [Frames(), Frames()]
    pages = [
        open_phone(new_context, shots, venue.api_url + link["url"], seen)
        for link, seen in zip(venue.links[alias], frames, strict=True)
    ]
    for page in pages:
        wait(lambda page=page: root(page, "online") == "true", what="the page online")
    venue.api_client.request("POST", f"/events/bd-{alias}/rounds")
    for page in pages:
        wait(
            lambda page=page: page.locator("[data-square],[data-grid-row]").count() > 0,
            what=f"the board drawn {page.errors}",
        )
    return pages, frames


def first_mover(pages: list[Any], frames: list[Frames]) -> tuple[list[Any], list[Frames]]:
    wait(lambda: any(p.locator("[data-selectable]").count() for p in pages), what="a seat asked to move")
    if pages[0].locator("[data-selectable]").count():
        return pages, frames
    return pages[::-1], frames[::-1]


def labels(page: Any) -> list[str]:
    return [s["label"] or "" for s in squares(page).values()]


@pytest.mark.parametrize("alias", GAMES)
def test_a_board_game_is_played_by_tapping_squares(board_venue, new_context, shots, alias):
    pages, frames = start(board_venue, alias, new_context, shots)
    for page in pages:
        no_sideways_scroll(page)
        assert page.locator("[data-grid-row]").count() == 0  # drawn, not text rows
    if alias == "junqi":
        for page in pages:  # each seat sends the standard setup, then the board shows its own pieces
            wait(lambda page=page: settled(page) and page.locator("[data-option]").count() > 0, what="setup")
            page.locator("[data-option]", has_text="标准布阵").tap()
            assert answered(page) is None
    pages, frames = first_mover(pages, frames)
    for seat, data in moves(alias, PLIES):
        play_move(pages[seat], data)
        to = data.get("to", data.get("point", ""))
        for page, seen in zip(pages, frames, strict=True):  # both boards redrawn, the move marked
            wait(lambda page=page, to=to: squares(page)[to]["last"] == "true", what="the move marked")
            assert squares(page)[to]["piece"] is not None
            if "from" in data:
                assert squares(page)[data["from"]]["piece"] is None  # the square it left
            path_drawn(page, seen)
    for page in pages:
        assert not page.errors, page.errors
        no_sideways_scroll(page)
    zh, en = NAMED[alias]
    assert any(label.endswith(" " + zh) for label in labels(pages[0]))  # Chinese by default
    if alias == "junqi":
        enemy_ranks_hidden(pages, frames)
    # English after the switch: the server draws the layout's names again, in English.
    page = pages[0]
    page.locator("#lang").tap()
    wait(lambda: not any(CJK.search(label) for label in labels(page)), what="English names")
    assert any(label.endswith(" " + en) for label in labels(page))
    page.set_viewport_size({"width": 360, "height": 740})
    no_sideways_scroll(page)
    board = page.locator("#board").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= 360


def path_drawn(page: Any, seen: Frames) -> None:
    """The last move's path the layout names (checkers: its whole chain) drawn through its squares:
    one line with a point at each."""
    path = seen.views()[-1]["layout"]["path"]
    line = page.locator("#board polyline.path")
    if len(path) < 2:
        assert line.count() == 0
        return
    assert line.count() == 1
    assert len((line.get_attribute("points") or "").split()) == len(path)
    assert page.locator("#board .path-start").count() == 1
    assert page.locator("#board .path-point").count() == len(path) - 1


def enemy_ranks_hidden(pages: list[Any], frames: list[Frames]) -> None:
    """Each seat's page shows every enemy piece as "a piece"; no view either page received carries
    more ranked glyphs than the seat's own 25 pieces (an enemy rank would be one more), and its
    layout names glyphs, never what stands on a square."""
    for page, seen in zip(pages, frames, strict=True):
        drawn = squares(page)
        enemy = [s for s in drawn.values() if s["piece"] == "?"]
        assert len(enemy) >= 24
        assert all((s["label"] or "").endswith("敌方棋子") for s in enemy)
        views = seen.views()
        assert views and all("layout" in v for v in views if "grid" in v)
        for view in views:
            ranked = [g for row in view["grid"]["r"] for g in row if g not in "?f.oH "]
            assert len(ranked) <= 25, view["grid"]["r"]
            assert set(view["layout"]) == {
                "name",
                "sx",
                "sy",
                "size",
                "shape",
                "flip",
                "lines",
                "spots",
                "words",
                "pieces",
                "empty",
                "path",
                "ys",
            }


def test_a_person_plays_xiangqi_against_the_ai(board_venue, new_context, shots):
    """`deckhand play --game xiangqi` (人机对弈): a match against the AI, started as the command starts
    it; the person's move is tapped and the AI answers on the same board, whichever side the lot gave
    the person."""
    from deckhand_local.cli.play import start_event

    _, path = start_event(board_venue.api_client, "xiangqi", 2, "zh-CN")
    page = open_phone(new_context, shots, board_venue.api_url + path)
    wait(lambda: page.locator("[data-selectable]").count() > 0, what="the person asked to move", timeout=30)
    board = by_alias("xiangqi").new_board([], None)
    ai_moved = {name for name, s in squares(page).items() if s["last"] == "true"}
    if ai_moved:  # the AI had the first move: take it onto the engine's board
        board.apply(
            next(
                a
                for a in board.legal_actions(board.pending()[0])
                if {a.data["from"], a.data["to"]} == ai_moved
            )
        )
    seat = board.pending()[0]
    mine = next(a for a in board.legal_actions(seat) if a.kind == "move")
    play_move(page, mine.data)
    board.apply(mine)
    wait(
        lambda: (
            settled(page)
            and page.locator("[data-selectable]").count() > 0
            and {n for n, s in squares(page).items() if s["last"] == "true"}
            != {mine.data["from"], mine.data["to"]}
        ),
        what="the AI's answer",
        timeout=30,
    )
    # A game (局) on a drawn board: no deal of cards (副), no letters' legend beside the pieces.
    assert page.locator("#board-title").inner_text().startswith("第 1 局")
    assert page.locator("#status-title").inner_text() == "对局信息"
    assert not any("KABNRCP" in line for line in page.locator("[data-line]").all_inner_texts())
    answer = {n for n, s in squares(page).items() if s["last"] == "true"}
    assert any(
        {a.data["from"], a.data["to"]} == answer for a in board.legal_actions(1 - seat) if a.kind == "move"
    )
    assert page.errors == [], page.errors
    no_sideways_scroll(page)
