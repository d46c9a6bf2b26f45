"""The console's forms for a board game's rulings, without a browser, over the real API handler: every
referee action the API has has a form; a board game's event offers the claim, the corrected move and
the no-show (a card game's does not); each preview says what will change and writes nothing, names
the board's version it is bound to, and the confirm applies it once (the same form again is refused:
the board moved on)."""

from __future__ import annotations

import html
import typing
from collections.abc import Iterator
from typing import Any

import pytest
from api_calls import ALICE, CAROL, api_under_moto
from api_calls import audit as stored_audit
from api_calls import call as api_call
from backend import Backend, act
from deckhand.service.bodies import RefereeAction
from deckhand.service.organiser import events
from deckhand_local.console import referee
from deckhand_local.console.app import Console
from test_console import in_process
from test_console_referee import CUP, ROOT, TOKENS, preview, signed_in

CUP_EVENT = {
    "event_id": "cup", "name": "Board Cup", "ruleset": "xiangqi-2004", "grade": "unrated", "rounds": 1,
    "start": "2026-12-14", "match": {"format": "knockout"},
}  # fmt: skip


def test_every_referee_action_of_the_api_has_a_console_form():
    kinds = set(typing.get_args(RefereeAction.model_fields["kind"].annotation))
    assert "warning" in kinds
    assert kinds == set(referee.SLUGS.values()) == set(referee.FIELDS)


def test_only_a_board_game_s_match_event_offers_the_rulings():
    board_game = referee.kinds_of({"match": {"format": "knockout"}, "ruleset": "gomoku-renju"})
    assert {"adjudicate", "correct_move", "no_show"} <= set(board_game)
    card_match = referee.kinds_of({"match": {"format": "swiss"}, "ruleset": "guandan-2023"})
    duplicate = referee.kinds_of({"ruleset": "gomoku-renju"})
    assert not referee.BOARD_GAME_ONLY & (set(card_match) | set(duplicate))


@pytest.fixture
def board_cup() -> Iterator[tuple[Console, Any, Backend]]:
    """Alice's Xiangqi knockout of two, round 1 begun; Carol its referee."""
    backend = Backend()
    with api_under_moto(backend.rt) as api:
        assert api_call(api, "POST", "/events", CUP_EVENT)[0] == 201
        pairs = {"pairs": [{"id": p, "players": [{"id": p}]} for p in ("ANN", "BEN")]}
        assert api_call(api, "POST", "/events/cup/pairs", pairs)[0] == 201
        # A two-seat table (the API's tables body takes three or four seats: registered by the service).
        events.register_tables("cup", [{"id": "A", "seats": ["x-0", "x-1"]}])
        assert api_call(api, "PUT", "/events/cup/roles", {"roles": {CAROL: "referee"}})[0] == 200
        assert api_call(api, "POST", "/events/cup/rounds")[0] == 202
        yield Console(in_process(api), lambda: dict(TOKENS), ROOT / "web" / "console"), api, backend


def moved(backend: Backend, thing: str, n: int, frm: str, to: str) -> None:
    payload = act(f"m{n}", "1", "move", r=1)
    payload["a"]["d"] = {"from": frm, "to": to}
    assert backend.send(thing, payload)["status"] == "accepted"


def board_one(api: Any) -> dict[str, Any]:
    _, status = api_call(api, "GET", "/events/cup/rounds/1")
    (table,) = status["tables"]
    return next(b for b in table["boards"] if b["board"] == "1")


def test_a_corrected_move_is_previewed_bound_to_the_board_s_version_then_applied_once(board_cup):
    console, api, backend = board_cup
    carol = signed_in(console, CAROL)
    carol.get("/console/?lang=en")
    _, menu = carol.get(f"{CUP}/referee")
    assert all(f'data-kind="{slug}"' in menu for slug in ("claim", "correct", "absent"))
    red, black = board_one_devices(api)
    moved(backend, red, 1, "h2", "e2")
    moved(backend, black, 2, "h9", "g7")
    version = board_one(api)["version"]
    status, text, confirm = preview(
        carol, "correct", table="A", board="1", move="1", data="b2-e2", reason="typo"
    )
    assert status == 200, text
    text = html.unescape(text)
    assert "Move 1 becomes" in text and f"version {version}" in text and '"from": "b2"' in text
    assert confirm["version"] == str(version) and not stored_audit()  # the preview wrote nothing
    status, _, done = carol.request("POST", f"{CUP}/referee/confirm", confirm)
    assert status == 200 and 'data-audit-kind="correct_move"' in done
    (entry,) = stored_audit()
    assert entry.detail["before"] == {"from": "h2", "to": "e2"} and entry.detail["after"] == {
        "from": "b2",
        "to": "e2",
    }
    # A ruling drawn on the version before (the form names it): the board moved on, refused.
    _, _, stale = preview(
        carol, "correct", table="A", board="1", move="2", data="b9-c7", version=str(version), reason="x"
    )
    status, _, again = carol.request("POST", f"{CUP}/referee/confirm", stale)
    assert status == 400 and 'data-code="stale_version"' in again and len(stored_audit()) == 1


def board_one_devices(api: Any) -> tuple[str, str]:
    from deckhand.service.boards import store as board_store

    item = board_store.load("cup", 1, "A", "1")
    assert item is not None
    return item.devices[0], item.devices[1]


def test_a_claim_and_a_no_show_through_their_forms(board_cup):
    console, api, _ = board_cup
    alice = signed_in(console, ALICE)
    status, text, confirm = preview(
        alice, "claim", table="A", board="1", claim="perpetual_check", decision="rejected", reason="no"
    )
    assert status == 200 and "referee-confirm" in text
    status, _, done = alice.request("POST", f"{CUP}/referee/confirm", confirm)
    assert status == 200 and 'data-audit-kind="adjudicate"' in done
    assert board_one(api)["status"] == "playing"  # rejected: nothing changed
    status, text, _ = preview(
        alice, "claim", table="A", board="1", claim="perpetual_check", decision="maybe", reason="x"
    )
    assert status == 400 and 'data-error="form"' in text
    status, text, confirm = preview(alice, "absent", player="ANN", reason="not here")
    assert status == 200, text
    status, _, done = alice.request("POST", f"{CUP}/referee/confirm", confirm)
    assert status == 200 and 'data-audit-kind="no_show"' in done
    _, event = api_call(api, "GET", "/events/cup")
    assert event["status"] == "finished"  # the final lost by forfeit: the event is over
    assert [a.kind for a in stored_audit()] == ["adjudicate", "no_show"]
