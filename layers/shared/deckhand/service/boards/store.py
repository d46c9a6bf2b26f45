"""A table's board as stored: read it, and change it with a version check.

Every change goes through :func:`transact`: load, change in memory, save conditionally on the
version, and on a lost race load again and redo — so two messages racing for one turn give exactly
one winner, and the loser is re-validated against the winner's state (and rejected with a reason).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pynamodb.exceptions import DoesNotExist, PutError, TransactWriteError

from ...engines.contract import Board
from ...engines.registry import Game, game
from ..storage.keys import STATE, board_pk
from ..storage.models import BoardStateItem

T = TypeVar("T")


MAX_ATTEMPTS = 8


# A transaction refused for a condition (the board's version) or a concurrent transaction: a lost race.
CANCELLED = ("TransactionCanceledException", "TransactionConflictException")


class LostRace(Exception):
    pass


def load(event_id: str, round_no: int, table: str, board: str) -> BoardStateItem | None:
    try:
        return BoardStateItem.get(board_pk(event_id, round_no, table, board), STATE, consistent_read=True)
    except DoesNotExist:
        return None


def load_many(
    event_id: str,
    round_no: int,
    pairs: list[tuple[str, str]],
    *,
    consistent: bool = False,
    attributes: list[str] | None = None,
) -> dict[tuple[str, str], BoardStateItem]:
    """Many boards in batched reads: (table, board) → item (only ``attributes`` when given: an item
    read so is for looking at, never for saving)."""
    keys = [(board_pk(event_id, round_no, t, b), STATE) for t, b in pairs]
    found = BoardStateItem.batch_get(keys, consistent_read=consistent or None, attributes_to_get=attributes)
    return {(i.table, i.board): i for i in found}


@dataclass(frozen=True)
class Unchanged(Generic[T]):
    """What a change returns when the item needs no write (a duplicate, a board already started)."""

    value: T


def transact(
    key: tuple[str, int, str, str],
    change: Callable[[BoardStateItem], T | Unchanged[T]],
    first: BoardStateItem | None = None,
) -> tuple[BoardStateItem, T]:
    """Apply ``change`` to the stored item and save it conditionally; redo on a lost race.

    ``change`` returns a value, or ``Unchanged(value)`` when nothing is to be written; raising inside
    it aborts without saving. It must not publish.
    ``first`` is an item just read, used for the first attempt (one read fewer on the hot path).
    """
    for attempt in range(MAX_ATTEMPTS):
        item = first if attempt == 0 and first is not None else load(*key)
        if item is None:
            raise DoesNotExist(f"no board {key}")
        was = item.status
        result = change(item)
        if isinstance(result, Unchanged):
            return item, result.value
        try:
            if item.in_match and item.status == "ended" and was != "ended":
                from .match_boards import save_ended

                save_ended(item)  # with the match's next board or its result, in one transaction
            else:
                item.save()
        except PutError as exc:
            if _is_conditional_failure(exc):
                continue
            raise
        except TransactWriteError as exc:
            if getattr(exc, "cause_response_code", "") in CANCELLED:
                continue
            raise
        return item, result
    raise LostRace(f"board {key} kept changing; gave up after {MAX_ATTEMPTS} attempts")


def set_lang(item: BoardStateItem, seat: int, lang: str) -> BoardStateItem:
    """The board as stored with ``seat``'s device drawing in ``lang`` (a hello that says one); no write
    when it already does."""

    def change(current: BoardStateItem) -> None | Unchanged[None]:
        langs = dict(current.langs or {})
        if langs.get(str(seat)) == lang:
            return Unchanged(None)
        current.langs = {**langs, str(seat): lang}
        return None

    updated, _ = transact((item.event_id, item.round, item.table, item.board), change, first=item)
    return updated


def _is_conditional_failure(exc: PutError) -> bool:
    return getattr(exc, "cause_response_code", "") == "ConditionalCheckFailedException"


def engine_of(item: BoardStateItem) -> tuple[Game, Board]:
    g = game(item.ruleset)
    return g, g.load_board(item.state)


def result_of(item: BoardStateItem) -> dict[str, Any]:
    _, board = engine_of(item)
    return board.result()
