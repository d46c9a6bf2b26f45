"""The players' hands at a table with an electronic board (the demo's): each seat's bot decides as at
any table, on its handset's view and in its own thinking time, but a move is made on the board — the
piece lifted and set down, the board's sensors report it — and the handset only shows the screen (a
word, resigning or offering a draw, is still pressed on it). Once in the demo a player moves wrongly:
the board stops for the referee.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from deckhand.engines.contract import Action

Key = tuple[str, int, int]  # a view's or a position's (board, round, version)


class TableHands:
    """What the table's electronic board is asked (``ElectronicBoard``'s ``hands``): the move a seat's
    bot handed over for the position the board shows, or None while the seat thinks.

    ``wrong_from``: the first move handed over at a position numbered this or later is made wrongly
    once — the piece set down on a square the rules refuse it (a stone on an occupied point) — as a
    player's slip would be (None: never)."""

    def __init__(self, event_id: str, table: str, move_keys: tuple[str, ...], wrong_from: int | None) -> None:
        self.event_id = event_id
        self.table = table
        self.move_keys = move_keys
        self.wrong_from = wrong_from
        self.moves: dict[Key, Action] = {}
        self.wrong_moves = 0
        self.made = 0  # moves made on the board as the seats meant them

    def take(self, key: Key, action: Action) -> bool:
        """A seat's decision on the view ``key``: a move is made on the board (True), anything else on
        the handset (False)."""
        data = action.data
        if not isinstance(data, dict) or any(k not in data for k in self.move_keys):
            return False
        self.moves = {key: action}  # the position moved on: a move meant for an older one is not made
        return True

    def __call__(self, pos: dict[str, Any]) -> list[str] | None:
        action = self.moves.pop((pos["b"], pos["r"], pos["v"]), None)
        if action is None:
            return None
        if self.wrong_from is not None and pos["n"] >= self.wrong_from:
            wrong = self._slip(pos, action)
            if wrong is not None:
                self.wrong_from = None
                self.wrong_moves += 1
                return wrong
        self.made += 1
        return [action.data[k] for k in self.move_keys]

    def _slip(self, pos: dict[str, Any], action: Action) -> list[str] | None:
        """The move with its last square the first one (in the game's order of squares) that the rules
        refuse it, asked of the stored game (the bench is trusted, as the referee's tools are)."""
        from deckhand.engines.contract import Rejected
        from deckhand.service.boards import store as board_store

        item = board_store.load(self.event_id, pos["r"], self.table, pos["b"])
        if item is None or item.version != pos["v"]:
            return None
        spec, board = board_store.engine_of(item)
        position = spec.position
        if position is None:
            return None
        last = self.move_keys[-1]
        kept = [action.data[k] for k in self.move_keys[:-1]]
        for square in position.squares:
            if square == action.data[last] or square in kept:
                continue
            try:
                board.check(action._replace(data={**action.data, last: square}))
            except Rejected:
                return [*kept, square]
        return None
