"""What each seat's device is shown of a board: its own view only, drawn by the game's screen."""

from __future__ import annotations

from typing import Any

from ...engines.common.cards import format_cards
from ...engines.common.grid import MOVE
from ...engines.contract import Board
from ...engines.registry import game
from ..infra import outgoing
from ..infra.messaging import Publisher, down_topic
from ..infra.results_site import results_url
from ..infra.words import seat_lang, words
from ..storage.models import BoardStateItem
from .clocks import time_left
from .log import ended_unplayed
from .store import engine_of


def view_message(item: BoardStateItem, seat: int, board: Board | None = None) -> dict[str, Any]:
    """The seat's ``view`` (device protocol v2): the board's state and the screen its game draws, in the
    language of the seat's device (``item.langs``; English when it never said)."""
    g, loaded = engine_of(item) if board is None else (game(item.ruleset), board)
    lang = seat_lang(item.langs, seat)
    w = words(lang)
    # A game without a screen: its hand, in the engine's order, and nothing to choose.
    drawn = g.screen(loaded, seat, lang) if g.screen else {"h": format_cards(sorted(loaded.hand(seat)))}
    if not any("m" in e for e in item.log if e["s"] >= 0):
        # A board's start (until a player first acts): whose handset this is, so a player at the
        # wrong seat sees it at once; at the round's start also the commitment published before play,
        # to check against the salt revealed at the round's end (docs/protocol.md, Verification).
        lines = [*drawn.get("l", [])]
        if item.names and seat < len(item.names) and item.names[seat]:
            lines.append(outgoing.seat_line(w, item.names[seat], seat))
        if item.position == 0 and item.commitment:
            lines.append(outgoing.commitment_line(w, item.commitment, lot=g.position is not None))
        drawn = {**drawn, "l": lines}
    client = str(seat) in (item.langs or {})  # its device said a language: a handset never does
    grid = drawn.get("grid")
    layout = g.layout(loaded, seat, lang, grid) if client and g.layout and isinstance(grid, dict) else None
    legend = drawn.get("legend")
    if layout is not None and isinstance(legend, int):  # the page draws the pieces: no letters to explain
        drawn = {**drawn, "l": [line for i, line in enumerate(drawn["l"]) if i != legend]}
    return outgoing.view(
        ruleset=item.ruleset,
        board=item.board,
        round_no=item.round,
        version=item.version,
        seat=seat,
        status=item.status,
        # The seat's own decision's time: a seat with nothing pending has no clock (while the cards
        # of a paced deal come, the board's deadline is the next card, not a decision's end).
        left_ms=time_left(item) if seat in loaded.pending() else 0,
        screen=drawn,
        # A client is told where the results are, and how to draw a board game's grid.
        results=results_url(item.event_id) if client else None,
        layout=layout,
    )


def publish_views(
    publisher: Publisher, item: BoardStateItem, only_seat: int | None = None, to: str | None = None
) -> None:
    """Each device at the table gets its own seat's view — never another seat's hand. A seat the AI
    plays has nobody to see its hand, and its idle handset must not show the board's cards to the table.

    A publisher that simulates devices (the venue's, the tests') may also take the engine's own view
    of the seat and when its board next has something due, ``note_seat_view(thing, message, view,
    due)``, for its bots and its lock-step: it is never sent."""
    board = None  # the state is parsed once for all the table's views
    note = getattr(publisher, "note_seat_view", None)
    for seat, device in enumerate(item.devices):
        # ``to``: the one seat's view goes to that thing (a player device), not the board's device.
        thing = to if to is not None and seat == only_seat else device
        if thing and item.players[seat] and (only_seat is None or seat == only_seat):
            if ended_unplayed(item):  # the referee ended it: nothing more to see or do on it
                unplayed = words(seat_lang(item.langs, seat))("stopped.unplayed")
                publisher.publish(down_topic(thing), outgoing.stopped(item.board, unplayed))
                continue
            if board is None:
                _, board = engine_of(item)
            message = view_message(item, seat, board)
            if note is not None:
                note(thing, message, board.view(seat), item.deadline)
            publisher.publish(down_topic(thing), message)
    if only_seat is None:
        publish_position(publisher, item, board)


def shared_grid(item: BoardStateItem, board: Board | None = None) -> dict[str, Any]:
    """The grid of the board as every seat sees it (a board game whose seats see the same board): drawn
    for the seat to move, else seat 0 (the squares it may pick first are public too)."""
    g, loaded = engine_of(item) if board is None else (game(item.ruleset), board)
    pending = loaded.pending()
    assert g.screen is not None
    drawn: dict[str, Any] = g.screen(loaded, pending[0] if len(pending) == 1 else 0, "en")["grid"]
    return drawn


def publish_position(publisher: Publisher, item: BoardStateItem, board: Board | None = None) -> None:
    """The table's electronic board (if any) gets the position (``pos``): the grid every seat sees, the
    moves played, the keys of the move it may report. Never a game whose seats see different boards."""
    g = game(item.ruleset)
    position = g.position
    if not item.eboard or position is None or position.hidden or ended_unplayed(item):
        return
    if board is None:
        _, board = engine_of(item)
    pending = board.pending()
    fields = list(position.move_data) if item.status == "playing" and len(pending) == 1 else []
    message = outgoing.pos(
        board=item.board,
        round_no=item.round,
        version=item.version,
        moves=moves_played(item),
        status=item.status,
        fields=fields,
        grid=shared_grid(item, board),
    )
    publisher.publish(down_topic(item.eboard), message)


def moves_played(item: BoardStateItem) -> int:
    """The position's number: the moves played so far (an electronic board's ``pos`` and ``moved``)."""
    return sum(1 for entry in item.log if entry["t"] == MOVE)
