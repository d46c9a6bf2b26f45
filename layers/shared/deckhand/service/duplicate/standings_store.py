"""A round's stored standings, whatever the field's size: one item, or parts when the document passes
DynamoDB's 400 KB item limit (10,000 players' standings with every board's comparison do: the round's
end failed there). A board's matchpoints (board_scores.py) are kept the same way.

Parts are keyed by the digest of the document they make up and written before the item that names
them, so a reader never joins parts of two versions (a referee's recompute rewriting them).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, NamedTuple

from ..storage.keys import event_pk, part_sk, standings_sk
from ..storage.models import PartItem, StandingsItem

PART_CHARS = 90_000  # ≤ 360 KB however many bytes a character takes: under the 400 KB item limit
WHOLE_BYTES = 350_000  # a document this small is one item, as before


class Split(NamedTuple):
    """A document as its head item holds it: whole (``parts`` empty), or ``{}`` and its parts' text."""

    document: dict[str, Any]
    parts: list[str]
    digest: str | None


def split_document(doc: dict[str, Any]) -> Split:
    text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    if len(text.encode()) <= WHOLE_BYTES:
        return Split(doc, [], None)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    return Split({}, [text[i : i + PART_CHARS] for i in range(0, len(text), PART_CHARS)], digest)


def save_parts(event_id: str, head_sk: str, split: Split) -> None:
    """The parts of a large document, before the head item that names them (batched: 25 a call)."""
    if not split.parts:
        return
    with PartItem.batch_write() as batch:
        for n, chunk in enumerate(split.parts):
            batch.save(PartItem(event_pk(event_id), part_sk(head_sk, split.digest or "", n), chunk=chunk))


def joined_document(
    event_id: str, head_sk: str, document: dict[str, Any], parts: int | None, digest: str | None
) -> dict[str, Any]:
    """The document a head item holds, its parts read by key when it has them."""
    if not parts:
        return dict(document)
    keys = [(event_pk(event_id), part_sk(head_sk, digest or "", n)) for n in range(parts)]
    chunks = {item.sk: item.chunk for item in PartItem.batch_get(keys, consistent_read=True)}
    loaded: dict[str, Any] = json.loads("".join(chunks[sk] for _, sk in keys))
    return loaded


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
    return joined_document(event_id, standings_sk(round_no), item.document, item.parts, item.digest)
