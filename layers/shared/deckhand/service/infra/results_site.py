"""Where an event's results site is, for the players' pages to link to once a board is over: a
template in the deployment's settings (``DECKHAND_RESULTS_URL``, ``{event}`` standing for the event's
id — the local venue's is ``/site/{event}/``, served beside the player's page); none when unset."""

from __future__ import annotations

import os
from urllib.parse import quote

RESULTS_URL = "DECKHAND_RESULTS_URL"


def results_url(event_id: str) -> str | None:
    """The address of the event's results site, or None when the deployment names none."""
    template = os.environ.get(RESULTS_URL, "")
    return template.replace("{event}", quote(event_id, safe="")) if template else None
