"""A round's stored standings, whatever the field's size: one item, or parts when the document passes
DynamoDB's 400 KB item limit (10,000 players' standings with every board's comparison do: the round's
end failed there).

Parts are keyed by the digest of the document they make up and written before the item that names
them, so a reader never joins parts of two versions (a referee's recompute rewriting them).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..storage.keys import event_pk, standings_part_sk, standings_sk
from ..storage.models import StandingsItem, StandingsPartItem

PART_CHARS = 90_000  # ≤ 360 KB however many bytes a character takes: under the 400 KB item limit
WHOLE_BYTES = 350_000  # a document this small is one item, as before


def save_standings(event_id: str, round_no: int, doc: dict[str, Any]) -> None:
    text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    if len(text.encode()) <= WHOLE_BYTES:
        StandingsItem(event_pk(event_id), standings_sk(round_no), document=doc).save()
        return
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    parts = [text[i : i + PART_CHARS] for i in range(0, len(text), PART_CHARS)]
    for n, chunk in enumerate(parts):
        StandingsPartItem(event_pk(event_id), standings_part_sk(round_no, digest, n), chunk=chunk).save()
    StandingsItem(
        event_pk(event_id), standings_sk(round_no), document={}, parts=len(parts), digest=digest
    ).save()


def load_standings(event_id: str, round_no: int) -> dict[str, Any]:
    """The stored standings after ``round_no`` (DoesNotExist if none are)."""
    item = StandingsItem.get(event_pk(event_id), standings_sk(round_no), consistent_read=True)
    if not item.parts:
        return dict(item.document)
    digest = item.digest or ""
    chunks = [
        StandingsPartItem.get(
            event_pk(event_id), standings_part_sk(round_no, digest, n), consistent_read=True
        ).chunk
        for n in range(item.parts)
    ]
    loaded: dict[str, Any] = json.loads("".join(chunks))
    return loaded
