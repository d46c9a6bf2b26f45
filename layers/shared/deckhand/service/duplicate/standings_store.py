"""A round's stored standings, whatever the field's size: one item, or parts when the document passes
DynamoDB's 400 KB item limit (10,000 players' standings with every board's comparison do: the round's
end failed there). A board's matchpoints (board_scores.py) and a round's seating are kept the same way
(service/storage/parts.py): a referee's recompute writes its parts under another digest.
"""

from __future__ import annotations

from typing import Any

from ..storage.keys import event_pk, standings_sk
from ..storage.models import StandingsItem
from ..storage.parts import joined_document, save_parts, split_document


def save_standings(event_id: str, round_no: int, doc: dict[str, Any]) -> None:
    split = split_document(doc)
    save_parts(event_id, standings_sk(round_no), split)
    StandingsItem(
        event_pk(event_id),
        standings_sk(round_no),
        document=split.document,
        parts=len(split.parts) or None,
        digest=split.digest,
    ).save()


def load_standings(event_id: str, round_no: int) -> dict[str, Any]:
    """The stored standings after ``round_no`` (DoesNotExist if none are)."""
    item = StandingsItem.get(event_pk(event_id), standings_sk(round_no), consistent_read=True)
    loaded: dict[str, Any] = joined_document(
        event_id, standings_sk(round_no), item.document, item.parts, item.digest
    )
    return loaded
