"""What results may be shown while an event runs.

Every event of the API is duplicate: the tables of a group play the same boards in a round, so a
board's scores (and hands, which a score betrays) tell a table still to play it what it holds.
Nothing of a round is shown until the round is done — by then every table of every group has
finished every board of it. Stored standings and the audit log follow the same line.
"""

from __future__ import annotations

from ..storage.models import EventItem

ROUND_OVER = ("between_rounds", "finished")


def last_round_shown(event: EventItem) -> int:
    """The last round whose results may be shown: the current one once it is done, else the one
    before (rounds before the current one are done: an event moves on only when its round is)."""
    if event.status in ROUND_OVER:
        return event.current_round
    return max(event.current_round - 1, 0)


def deals_from(event: EventItem) -> str:
    """How the event's boards were made, for every export: ``organiser_seed`` (predictable; unrated
    events only) or ``secret`` (a random salt per round, revealed when the round is done)."""
    return "organiser_seed" if event.deal_seed else "secret"
