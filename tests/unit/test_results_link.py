"""A player's page is told where the event's results are (docs/protocol.md, view's ``res``): once the
board is over, only a client's seat (its device said a language), and only where the deployment names
a results site."""

from __future__ import annotations

import pytest
from deckhand.engines.common.cards import make_deck
from deckhand.engines.common.shuffle import seeded_shuffle
from deckhand.engines.registry import by_alias
from deckhand.service.boards.views import view_message
from deckhand.service.infra import outgoing
from deckhand.service.infra.results_site import RESULTS_URL, results_url
from deckhand.service.storage.keys import board_pk
from deckhand.service.storage.models import BoardStateItem

SPEC = by_alias("guandan")


def item(status: str) -> BoardStateItem:
    """A Guandan board of event "cup 1" at T1: seat 0 a player's page (it said its language), seat 1 a
    handset; ``status`` as the board's."""
    board = SPEC.new_board(seeded_shuffle(make_deck(decks=2, jokers=True), "res"), None)
    return BoardStateItem(
        board_pk("cup 1", 1, "T1", "1"),
        "STATE",
        event_id="cup 1",
        round=1,
        group="1",
        table="T1",
        board="1",
        position=0,
        ruleset=SPEC.ruleset,
        players=[f"p{s}" for s in range(4)],
        devices=["web-aaaaaaaaaa", "hs-1", "hs-2", "hs-3"],
        status=status,
        state=board.to_json(),
        log=[],
        asked_at=[0] * 4,
        play_ms=[0] * 4,
        langs={"0": "zh-CN"},
    )


def test_the_results_address_comes_from_the_deployment_s_template(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(RESULTS_URL, raising=False)
    assert results_url("cup") is None
    monkeypatch.setenv(RESULTS_URL, "/site/{event}/")
    assert results_url("cup") == "/site/cup/"
    assert results_url("cup 1/x") == "/site/cup%201%2Fx/"  # an id never leaves its path segment


def test_a_view_names_the_results_only_once_the_board_has_ended() -> None:
    for status, named in (("playing", False), ("stopped", False), ("ended", True)):
        message = outgoing.view(
            ruleset="g",
            board="1",
            round_no=1,
            version=1,
            seat=0,
            status=status,
            left_ms=0,
            screen={},
            results="/site/cup/",
        )
        assert ("res" in message) is named, status
    assert "res" not in outgoing.view(
        ruleset="g", board="1", round_no=1, version=1, seat=0, status="ended", left_ms=0, screen={}
    )


def test_only_a_client_s_seat_is_told_and_only_where_a_site_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(RESULTS_URL, "/site/{event}/")
    ended = item("ended")
    assert view_message(ended, 0)["res"] == "/site/cup%201/"
    assert "res" not in view_message(ended, 1)  # a handset: it could not open it
    assert "res" not in view_message(item("playing"), 0)
    monkeypatch.delenv(RESULTS_URL)
    assert "res" not in view_message(ended, 0)
