"""Where an electronic board stopped its board, read from the board's log: what the referee's resume
(service/refereeing/board_resume.py) and the board's reports (service/device_io/eboard_reports.py) both
decide from."""

from __future__ import annotations

from ..storage.models import BoardStateItem
from .log import CALL, POSITION


def stop_index(item: BoardStateItem) -> int | None:
    """Where in the log the electronic board last stopped the board (its referee call, marked ``eb``
    with the refusal's code), if it did."""
    for i in range(len(item.log) - 1, -1, -1):
        if item.log[i]["t"] == CALL and "eb" in item.log[i]:
            return i
    return None


def position_refused_since_stop(item: BoardStateItem) -> bool:
    """The electronic board's last position report since the stop did not match the game's: the pieces
    are not back yet, and the board stays stopped."""
    since = stop_index(item)
    reports = [e for e in item.log[since or 0 :] if e["t"] == POSITION]
    return bool(reports) and not reports[-1]["ok"]
