"""An event's boards checked after the fact: every log replays to its stored state and result, no
device message was applied twice, and none that was accepted is missing. Used by the fault tests and
the soak benchmark."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pynamodb.exceptions import DoesNotExist

from ..boards import log as board_log
from ..boards import store as board_store
from ..boards.log import ended_unplayed
from ..boards.round_boards import boards_of_round
from ..duplicate.rounds import get_round
from ..organiser.events import get_event
from ..storage.keys import deal_sk, event_pk, result_sk
from ..storage.models import DealItem, ResultItem

# A call of the referee is a device message (counted, and never applied twice); the other entries that
# are not actions are no device's action.
NOT_ACTIONS_AUDITED = board_log.NOT_ACTIONS - {board_log.CALL}


def audit_event(event_id: str, accepted: Iterable[tuple[str, str]] = ()) -> dict[str, Any]:
    """Counts: boards, actions logged, device actions, doubled device actions, replay mismatches,
    ended boards without a stored result (or with a different one), and ``lost``: the actions in
    ``accepted`` (thing, message id: what the server acknowledged) that no board's log holds."""
    event = get_event(event_id)
    counts = {
        "boards": 0,
        "actions": 0,
        "device_actions": 0,
        "doubled": 0,
        "replay_mismatches": 0,
        "results_missing": 0,
        "lost": 0,
    }
    logged: set[tuple[str, str]] = set()
    for number in range(1, event.current_round + 1):
        r = get_round(event_id, number)
        pairs = boards_of_round(event_id, number, r)
        items = board_store.load_many(event_id, number, pairs)
        for table, b in pairs:
            item = items.get((table, b))
            if item is None:
                continue
            counts["boards"] += 1
            # calls are device messages; a dealing table's reports and the deal's steps are not actions
            actions = [e for e in item.log if e["t"] not in NOT_ACTIONS_AUDITED]
            counts["actions"] += len(actions)
            sent = [(e["s"], e["m"]) for e in actions if "m" in e]
            counts["device_actions"] += len(sent)
            counts["doubled"] += len(sent) - len(set(sent))
            for e in item.log:
                if "m" in e:
                    seat = e["s"]
                    thing = item.devices[seat] if 0 <= seat < len(item.devices) else item.dealer
                    logged.add((e.get("th") or thing, e["m"]))  # ``th``: a dealing table relieved since
            deal = DealItem.get(event_pk(event_id), deal_sk(number, item.group, b))
            replayed = board_log.replay(item, list(deal.order))
            if replayed.to_json() != item.state:
                counts["replay_mismatches"] += 1
            if item.status == "ended":
                try:
                    stored = ResultItem.get(event_pk(event_id), result_sk(number, table, b))
                except DoesNotExist:
                    counts["results_missing"] += 1
                    continue
                # A board ended unplayed by the referee scores nothing (scoring.store_result).
                expected = [0] * len(item.players) if ended_unplayed(item) else replayed.result()["scores"]
                if stored.scores != expected:
                    counts["replay_mismatches"] += 1
    counts["lost"] = len(set(accepted) - logged)
    return counts
