"""The server's outgoing messages (``service/infra/outgoing.py``) and the firmware's protocol module
(``device/lib/deckhand_fw/protocol.py``) describe one protocol (docs/protocol.md): the same message
kinds with the same fields both ways, what the firmware sends up parses on the server, and a game's
screen offers only actions of the game's action schema."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from deckhand.engines.common.cards import make_deck
from deckhand.engines.common.shuffle import seeded_shuffle
from deckhand.engines.registry import DEALT_RULESETS as RULESETS
from deckhand.engines.registry import game
from deckhand.service.device_io import incoming as device_messages
from deckhand.service.infra import outgoing
from deckhand.service.infra.messaging import encode

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "device" / "lib") not in sys.path:
    sys.path.insert(0, str(ROOT / "device" / "lib"))

from deckhand_fw import protocol  # noqa: E402
from deckhand_fw.hal.host import HostHal  # noqa: E402
from deckhand_fw.handset import Handset  # noqa: E402

SCREEN = {
    "h": ["D3", "D3", "BJ"],
    "l": ["You to play"],
    "grid": {"w": 3, "r": ["ab.", " c"], "y": 2, "x": "xyz", "n": "{x}{y}", "m": [0], "s": [0, 1]},
    "ask": {
        "p": "Your lead",
        "o": [
            {"l": "Play", "a": {"k": "play", "c": True}},
            {"l": "Move", "a": {"k": "move", "q": ["from", "to"]}},
        ],
        "s": [0, 1],
    },
}
# One message of each kind, every optional field present.
BUILT = {
    "ack": outgoing.ack("m-1", version=7, duplicate=True),
    "reject": outgoing.reject(
        "m-1",
        "reading_needed",
        "x" * 500,
        {
            "p": "Which reading?",
            "o": [{"l": "straight 2–6", "a": {"k": "play", "c": True, "d": {"as": ["H2"]}}}],
        },
    ),
    "view": outgoing.view(
        ruleset="any-1",
        board="1",
        round_no=2,
        version=3,
        seat=0,
        status="playing",
        left_ms=5,
        screen=SCREEN,
    ),
    "deal": outgoing.deal(board="1", round_no=2, seats=3, order=["D3"], kitty=3, number=2, each=True),
    "stopped": outgoing.stopped("1", "card 8 misread"),
    "pos": outgoing.pos(
        board="1",
        round_no=2,
        version=3,
        moves=4,
        status="playing",
        fields=["from", "to"],
        grid=SCREEN["grid"],
    ),
}


def test_both_sides_know_the_same_kinds_and_fields() -> None:
    # A handset reads every field the server sends but those only clients are sent (view's res).
    assert {
        kind: tuple(f for f in fields if f not in outgoing.DOWN_ONLY_CLIENTS.get(kind, ()))
        for kind, fields in outgoing.DOWN_FIELDS.items()
    } == protocol.DOWN_FIELDS
    # A handset sends every field the server reads but those only other clients send (hello's lang).
    assert {
        kind: tuple(f for f in fields if f not in outgoing.UP_ONLY_CLIENTS.get(kind, ()))
        for kind, fields in outgoing.UP_FIELDS.items()
    } == protocol.UP_FIELDS
    assert outgoing.ACTION_FIELDS == protocol.ACTION_FIELDS
    assert outgoing.ASK_FIELDS == protocol.ASK_FIELDS
    assert outgoing.OPTION_FIELDS == protocol.OPTION_FIELDS
    assert outgoing.GRID_FIELDS == protocol.GRID_FIELDS
    assert set(BUILT["view"]["grid"]) == set(protocol.GRID_FIELDS)  # the example carries every field


@pytest.mark.parametrize("kind", sorted(outgoing.DOWN_FIELDS))
def test_every_builder_sends_the_fields_the_firmware_reads(kind: str) -> None:
    message = BUILT[kind]
    assert message["t"] == kind
    clients_only = set(outgoing.DOWN_ONLY_CLIENTS.get(kind, ()))
    assert set(message) - {"t"} - clients_only == set(protocol.DOWN_FIELDS[kind])  # all, and no other
    parsed = protocol.parse(encode(message))
    assert parsed == json.loads(json.dumps(message))
    assert len(BUILT["reject"]["why"]) == outgoing.WHY_MAX


def test_a_refusal_drops_an_offered_ask_that_would_not_fit_never_the_refusal() -> None:
    big = {"p": "Which?", "o": [{"l": "x" * 60, "a": {"k": "play", "c": True}}] * 20}
    message = outgoing.reject("m-" + "9" * 60, "reading_needed", "y" * 500, big)
    assert "ask" not in message and message["code"] == "reading_needed"
    encode(message)


def test_a_view_asks_only_while_the_board_is_played() -> None:
    view = BUILT["view"]
    assert set(view["ask"]) == set(protocol.ASK_FIELDS)
    assert all(set(o) == set(protocol.OPTION_FIELDS) for o in view["ask"]["o"])
    assert all(set(o["a"]) <= set(protocol.ACTION_FIELDS) for o in view["ask"]["o"])
    for status in ("ended", "stopped"):
        quiet = outgoing.view(
            ruleset="g", board="1", round_no=1, version=1, seat=0, status=status, left_ms=0, screen=SCREEN
        )
        assert "ask" not in quiet


def test_what_the_firmware_sends_up_parses_on_the_server() -> None:
    up = [
        protocol.hello("hs-1"),
        protocol.dealt("dl-1", "1", ["D3", "C3"], 2),
        protocol.dealt("dl-2", "1", ["D3", "C3"], 2, 2),  # a report while dealing: the first 2 read
        protocol.act("hs-2", "1", {"k": "play", "c": True}, ["D3", "C3"], 2),
        protocol.act("hs-3", "1", {"k": "bid", "v": 2}),
        protocol.act("hs-4", "1", {"k": "play", "c": True, "d": {"as": "H5"}}, ["HA"]),
        protocol.act("hs-5", "1", {"k": "move", "q": ["from", "to"]}, None, 2, ["h2", "e2"]),
        protocol.moved("eb-1", "1", 4, ["h2", "e2"], 2),
        protocol.position("eb-2", "1", ["rh.", "RH."], 2),
    ]
    for message in up:
        assert set(message) - {"t"} <= set(protocol.UP_FIELDS[message["t"]])
        parsed = device_messages.parse(json.loads(protocol.encode(message)))
        assert parsed.t == message["t"] and parsed.msg == message["msg"]
    assert device_messages.parse(up[2]).upto == 2  # type: ignore[union-attr]
    act = device_messages.parse(up[3])
    assert (
        isinstance(act, device_messages.Act) and act.a.k == "play" and act.a.c == ["D3", "C3"] and act.r == 2
    )
    assert device_messages.parse(up[5]).a.d == {"as": "H5"}  # type: ignore[union-attr]
    assert up[6]["a"] == {"k": "move", "d": {"from": "h2", "to": "e2"}}  # the picked squares as its data


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_option_a_screen_offers_is_an_action_of_the_game(ruleset: str) -> None:
    """Over a whole bot board: each asked seat's options are kinds of the spec's action schema with
    values it allows, the ask comes exactly when the seat has a decision, and every view fits 1 KiB."""
    spec = game(ruleset)
    if spec.screen is None:
        pytest.skip(f"{ruleset} draws no screen yet")
    board = spec.new_board(
        seeded_shuffle(make_deck(decks=spec.decks, jokers=spec.jokers), "screens") * spec.deals_per_board,
        None,
    )
    bot = spec.bot()
    while True:
        for seat in range(spec.seats):
            drawn = spec.screen(board, seat)
            assert isinstance(drawn["h"], list) and all(isinstance(line, str) and line for line in drawn["l"])
            assert ("ask" in drawn) == (seat in board.pending()), (seat, drawn)
            for option in drawn.get("ask", {}).get("o", []):
                rule = spec.action(option["a"]["k"])
                assert rule is not None and option["l"]
                assert bool(option["a"].get("c")) == rule.cards
                assert ("v" in option["a"]) == bool(rule.values)
                assert option["a"].get("v", 0) in (rule.values or (0,))
                assert "d" not in option["a"] or rule.data
            message = outgoing.view(
                ruleset=ruleset,
                board="12",
                round_no=3,
                version=999,
                seat=seat,
                status="ended" if board.finished else "playing",
                left_ms=3_600_000,
                screen=drawn,
            )
            encode(message)  # under 1 KiB, or it raises
        if board.finished:
            break
        seat = board.pending()[0]
        action = bot(board, seat)
        assert action is not None
        board.apply(action)
    assert any(line.startswith("Scores: ") for line in spec.screen(board, 0)["l"])


def test_the_refusal_of_an_unknown_thing_is_shown_on_the_handset() -> None:
    """The server refuses a thing no table has with the code the firmware knows; the handset's screen
    then says so instead of waiting for a board that never comes, until the server answers otherwise."""
    assert outgoing.UNKNOWN_DEVICE == protocol.UNKNOWN_DEVICE == "unknown_device"
    hal = HostHal()
    handset = Handset(hal, object())  # it sends nothing here
    refusal = outgoing.reject("hs-9-1", outgoing.UNKNOWN_DEVICE, "thing 'hs-9' is not assigned to any table")
    handset.on_message(protocol.parse(encode(refusal)))
    assert hal.display.lines == [
        "UNKNOWN DEVICE",
        "thing 'hs-9' is not assigned to any table",
        "Ask the referee to register it",
    ]
    handset.on_message(protocol.parse(encode(outgoing.ack("hs-9-2"))))  # a later hello, acknowledged
    assert hal.display.lines == ["Waiting for the board…"]
