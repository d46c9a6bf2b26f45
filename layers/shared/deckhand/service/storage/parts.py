"""A JSON document kept whatever its size: whole in its head item, or in parts when it passes DynamoDB's
400 KB item limit (a national field's standings, a board's matchpoints, a round's seating).

Parts are keyed by the head's sort key and the digest of the document they make up, and written before
the head item that names them, so a reader never joins parts of two versions (a document rewritten
meanwhile has other keys).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, NamedTuple

from . import batches
from .keys import event_pk, part_sk
from .models import PartItem

PART_CHARS = 90_000  # ≤ 360 KB however many bytes a character takes: under the 400 KB item limit
WHOLE_BYTES = 350_000  # a document this small is one item, as before


class Split(NamedTuple):
    """A document as its head item holds it: whole (``parts`` empty), or ``{}`` and its parts' text."""

    document: Any
    parts: list[str]
    digest: str | None


def text_of(doc: Any) -> str:
    """The document's JSON as stored: compact, every byte paid for."""
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def digest_of(text: str) -> str:
    """The version a document's parts are keyed by: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def split_document(doc: Any) -> Split:
    return split_text(doc, text_of(doc))


def split_text(doc: Any, text: str) -> Split:
    """``doc`` (its JSON ``text``) whole if small enough, else its text in parts."""
    if len(text.encode()) <= WHOLE_BYTES:
        return Split(doc, [], None)
    return Split({}, [text[i : i + PART_CHARS] for i in range(0, len(text), PART_CHARS)], digest_of(text))


def save_parts(event_id: str, head_sk: str, split: Split) -> None:
    """The parts of a large document, before the head item that names them (batched: 25 a call; a part
    is fixed by its key, so one written again changes nothing)."""
    batches.put_all(
        [
            PartItem(event_pk(event_id), part_sk(head_sk, split.digest or "", n), chunk=chunk)
            for n, chunk in enumerate(split.parts)
        ]
    )


def joined_text(event_id: str, head_sk: str, parts: int, digest: str | None) -> str:
    """The JSON of a document kept in parts, its parts read by key."""
    keys = [(event_pk(event_id), part_sk(head_sk, digest or "", n)) for n in range(parts)]
    chunks = {item.sk: item.chunk for item in PartItem.batch_get(keys, consistent_read=True)}
    return "".join(chunks[sk] for _, sk in keys)


def joined_document(event_id: str, head_sk: str, document: Any, parts: int | None, digest: str | None) -> Any:
    """The document a head item holds, its parts read by key when it has them."""
    if not parts:
        return dict(document) if isinstance(document, dict) else document
    return json.loads(joined_text(event_id, head_sk, parts, digest))
