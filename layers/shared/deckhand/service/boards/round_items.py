"""A round as stored, for rounds of either kind: its item saved with its board counter, its secret, the
card order of a board derived from it, and the rounds whose salts are revealed."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import Any

from pynamodb.exceptions import DoesNotExist, TransactWriteError
from pynamodb.models import Model

from ...engines.common.cards import make_deck
from ...engines.common.shuffle import seeded_shuffle
from ...engines.registry import Game
from ..storage.keys import event_pk, round_sk
from ..storage.models import EventItem, ProgressItem, RoundItem, transaction
from ..storage.seating import save_seating
from .round_progress import make_sure_of_counter, new_counter


def derived_order(base: str, g: Game) -> list[int]:
    """The card order derived from ``base`` (the round's secret and the board's place): its first deal,
    then its redeals (``<base>/deal/<n>``) for a game that redeals when everyone passes."""
    deck = make_deck(decks=g.decks, jokers=g.jokers)
    order = seeded_shuffle(deck, base)
    for n in range(2, g.deals_per_board + 1):
        order += seeded_shuffle(deck, f"{base}/deal/{n}")
    return order


def round_salt(event: EventItem, round_no: int) -> str:
    """A round's secret: 256 random bits, or for an unrated event with a deal seed (demonstrations and
    replays: the same seed gives the same boards, never for a real event) derived from that seed."""
    if event.deal_seed:
        return hashlib.sha256(f"{event.deal_seed}/round/{round_no}".encode()).hexdigest()
    return secrets.token_hex(32)


def stored_round(event_id: str, round_no: int) -> RoundItem | None:
    """The round as stored, its board counter made sure of (see :func:`store_round`); None if not stored."""
    try:
        item = RoundItem.get(event_pk(event_id), round_sk(round_no), consistent_read=True)
    except DoesNotExist:
        return None
    make_sure_of_counter(event_id, round_no, item.boards_total)
    return item


def store_round(event_id: str, round_no: int, item: RoundItem, also: Sequence[Model] = ()) -> RoundItem:
    """Save a new round with its board counter in one transaction: a crash between two writes once left
    a round without its counter, whose boards then counted into one with no total, so the round never
    ended. A deal retried or raced finds the round stored, and gets that one. ``also``: items made
    from the round's secret (a draw by lot), written with it or not at all. ``item.seating`` whole: a
    large one is kept in parts, written first (storage/seating.py; read it by ``round_seating``)."""
    rows = list(item.seating)
    item.seating, item.seating_parts, item.seating_digest = save_seating(event_id, item.sk, rows)
    progress = new_counter(event_id, round_no, item, rows)
    try:
        with transaction() as tx:
            tx.save(item, condition=RoundItem.sk.does_not_exist())
            tx.save(progress, condition=ProgressItem.sk.does_not_exist())
            for other in also:
                tx.save(other)
    except TransactWriteError:
        stored = stored_round(event_id, round_no)
        if stored is None:
            raise
        return stored
    return item


def revealed_rounds(event_id: str, upto_round: int) -> list[dict[str, Any]]:
    """Each round done up to ``upto_round``: the commitment published at its start and the salt
    revealed at its end (docs/protocol.md, Verification) — never a round still in play's salt."""
    out = []
    for n in range(1, upto_round + 1):
        try:
            r = RoundItem.get(
                event_pk(event_id),
                round_sk(n),
                consistent_read=True,
                attributes_to_get=["status", "commitment", "salt"],
            )
        except DoesNotExist:
            continue
        if r.status == "done":
            out.append({"round": n, "commitment": r.commitment, "salt": r.salt})
    return out
