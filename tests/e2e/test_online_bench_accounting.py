"""``bench/online_bench.py`` (issue 41) on a tiny field: eight players on their join links, over MQTT
over WebSocket to a venue's Aedes, play 24 actions with a short think time; every action is
answered and counted once, the stored boards hold each acknowledged action once, and the bench's
accounting counts an action never answered, or answered late, as lost."""

from __future__ import annotations

import importlib.util
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "online_bench_of_players", ROOT / "bench" / "online_bench.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def ws_venue(tmp_path_factory: pytest.TempPathFactory, dynamodb_local: str) -> Iterator[Any]:
    from deckhand_local.venue.local import Venue, free_port
    from deckhand_local.venue.tables import unique_table_name

    state = tmp_path_factory.mktemp("online-bench")
    venue = Venue(
        mqtt_port=free_port(),
        http_port=0,
        ws_port=0,
        state_dir=state,
        dynamodb_endpoint=dynamodb_local,
        table=unique_table_name("onb"),
    ).start()
    venue.state = state
    yield venue
    venue.stop()


def test_eight_online_players_every_action_answered_and_logged_once(ws_venue):
    from deckhand.service.refereeing.replay_audit import audit_event
    from deckhand_local.venue.api_client import ApiClient

    bench = _bench()
    api = ApiClient(state_dir=ws_venue.state)
    links = bench.online_event(api, 8, 1)
    assert len(links) == 8 and all(thing.startswith("web-") for thing, _ in links)
    swarm = bench.Swarm("127.0.0.1", ws_venue.ws_port, links, think=0.02, seed=7)
    try:
        swarm.connect_all(per_second=200, timeout=30)
        assert all(p.client.is_connected() for p in swarm.players)
        began = swarm.players[0].pending  # nothing is pending once every hello is answered
        assert began == {}
        starter = threading.Thread(target=api.request, args=("POST", f"/events/{bench.EVENT}/rounds"))
        starter.start()
        swarm.play(30.0, enough=lambda: swarm.tally.sent >= 24)
        starter.join(30)
    finally:
        swarm.close()
    tally = swarm.tally
    summary = bench.summarise(swarm, 0.0)
    assert tally.sent >= 24  # the show and double decisions of both tables, and plays
    assert summary["answered"] == tally.sent and summary["lost"] == 0
    assert tally.views > 0 and not tally.refusals and tally.disconnects == 0
    assert sum(tally.rejects.values()) == 0, tally.rejects  # the screen-only choice is always legal
    assert len(tally.accepted) == tally.sent
    audit = audit_event(bench.EVENT, accepted=tally.accepted)
    assert audit["boards"] == 2
    assert audit["lost"] == 0 and audit["doubled"] == 0 and audit["replay_mismatches"] == 0
    assert audit["device_actions"] == len(tally.accepted)  # each acknowledged action logged once, no more

    # The accounting: an action still unanswered, and one answered after the loss limit, are lost.
    player = swarm.players[0]
    player.pending["a999"] = bench.Sent(0.0, 0.0, b"{}")
    tally.latencies.append((1.0, bench.LOST_SECONDS + 1))
    after = bench.summarise(swarm, 0.0)
    assert (after["lost"], after["unanswered"]) == (2, 1)


def test_the_screen_choice_takes_no_on_yes_no_pass_when_it_may_and_a_single_card_to_lead():
    bench = _bench()
    ask = {
        "p": "Show?",
        "o": [{"l": "Yes", "a": {"k": "show", "v": 1}}, {"l": "No", "a": {"k": "show", "v": 0}}],
    }
    assert bench.choose({"st": "playing", "h": ["D3"], "ask": ask}) == {"k": "show", "v": 0}
    follow = {
        "p": "Play",
        "o": [{"l": "Play", "a": {"k": "play", "c": True}}, {"l": "Pass", "a": {"k": "pass"}}],
    }
    assert bench.choose({"st": "playing", "h": ["S5"], "ask": follow}) == {"k": "pass"}
    lead = {"p": "Lead", "o": [{"l": "Play", "a": {"k": "play", "c": True}}]}
    assert bench.choose({"st": "playing", "h": ["C4", "D3", "S2"], "ask": lead}) == {"k": "play", "c": ["D3"]}
    assert bench.choose({"st": "playing", "h": ["C4", "H9", "S2"], "ask": lead}) == {"k": "play", "c": ["S2"]}
    assert bench.choose({"st": "ended", "h": ["C4"], "ask": lead}) is None
