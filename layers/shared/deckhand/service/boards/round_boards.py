"""Which boards each table of a round plays: the round's list (duplicate events) or, in a round of
matches, each match's boards made so far (a match deals one board after another)."""

from __future__ import annotations

from ..storage.keys import event_pk, match_prefix
from ..storage.models import MatchItem, RoundItem
from ..storage.seating import round_seating


def list_matches(event_id: str, round_no: int | None = None) -> list[MatchItem]:
    """The matches of a round (or of the event), byes included, in key order."""
    prefix = match_prefix(round_no)
    return list(MatchItem.query(event_pk(event_id), MatchItem.sk.startswith(prefix), consistent_read=True))


def boards_of_round(event_id: str, round_no: int, r: RoundItem) -> list[tuple[str, str]]:
    """(table, board) of every board of the round, each table's in the order it plays them."""
    if r.match:
        return [(m.table, b) for m in list_matches(event_id, round_no) for b in m.boards]
    return [(e["table"], b) for e in round_seating(r) for b in r.boards]


def boards_of_table(event_id: str, round_no: int, r: RoundItem, table: str) -> list[str]:
    """The boards of one table of the round, in the order it plays them."""
    if r.match:
        from ..storage.keys import match_sk

        try:
            return list(
                MatchItem.get(event_pk(event_id), match_sk(round_no, table), consistent_read=True).boards
            )
        except MatchItem.DoesNotExist:
            return []
    return list(r.boards)
