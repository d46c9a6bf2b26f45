"""Shared helpers: build boards from readable tokens so each test states its position plainly."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import pytest
from deckhand.engines.bigtwo.board import PLAY, BigTwoBoard
from deckhand.engines.common.cards import make_deck, mask_of, parse_card, parse_cards
from deckhand.engines.common.shuffle import seeded_shuffle

DEPTH = max(1, int(os.environ.get("DECKHAND_TEST_DEPTH", "1")))


def examples(n: int) -> int:
    """A property test's sample size: ``n`` in ``make test``, DECKHAND_TEST_DEPTH times it in
    ``make test-deep``."""
    return n * DEPTH


def cards(text: str) -> list[int]:
    return parse_cards(text.split())


def card(token: str) -> int:
    return parse_card(token)


def hands_with(*fixed: str) -> list[list[int]]:
    """Four 13-card hands: the given token strings first, the rest of the deck filled in order."""
    chosen = [cards(t) for t in fixed]
    used = {c for h in chosen for c in h}
    rest = [c for c in make_deck() if c not in used]
    hands = []
    for seat in range(4):
        hand = chosen[seat] if seat < len(chosen) else []
        need = 13 - len(hand)
        hand = hand + rest[:need]
        rest = rest[need:]
        hands.append(sorted(hand))
    return hands


def board_in_play(
    current: list[str], *, turn: int, last: str = "", last_seat: int = -1, passes: int = 0
) -> BigTwoBoard:
    """A board already in the play phase with the given hands left (a mid-board position)."""
    board = BigTwoBoard(hands_with())
    board.hands = [mask_of(cards(h)) for h in current]
    board.phase = PLAY
    board.shown = [0, 0, 0, 0]
    board.doubled = [0, 0, 0, 0]
    board.opened = True
    board.turn = turn
    board.last = tuple(sorted(cards(last))) if last else ()
    board.last_seat = last_seat
    board.passes = passes
    return board


def seeded_board(seed: str) -> BigTwoBoard:
    return BigTwoBoard.from_order(seeded_shuffle(make_deck(), seed))


@pytest.fixture
def fresh_board() -> BigTwoBoard:
    return seeded_board("fixture")


def wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Poll until ``condition`` holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def plays_in_any_order(doc: object) -> object:
    """``doc`` with every play record's steps in a fixed order: a record keeps the order decisions
    arrived in, and seats acting at once (showing, doubling) may arrive in another order in a run
    with faults — the decisions, not their arrival, must be the same."""
    if isinstance(doc, dict):
        out = {k: plays_in_any_order(v) for k, v in doc.items()}
        if isinstance(doc.get("steps"), list):
            out["steps"] = sorted(doc["steps"], key=lambda s: sorted(s.items()))
        if isinstance(doc.get("play"), list) and doc["play"] and "t" in doc["play"][0]:
            out["play"] = sorted(doc["play"], key=lambda s: sorted(s.items()))  # a match board's steps
        return out
    if isinstance(doc, list):
        return [plays_in_any_order(v) for v in doc]
    return doc


def run_cli(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """``deckhand ARGS`` run in this process (the exit code, stdout, stderr): the same ``main`` as the
    installed command, without a fresh interpreter's two seconds of imports for each call. A test of
    the command's own entry point (``python -m deckhand_local.cli.main``) still starts a process."""
    import contextlib
    import io
    import signal
    import sys

    from deckhand_local.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    handler = signal.getsignal(signal.SIGTERM)  # main installs its own
    saved_stdin, sys.stdin = sys.stdin, io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse's usage errors
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.stdin = saved_stdin
        signal.signal(signal.SIGTERM, handler)
    return code, out.getvalue(), err.getvalue()


def dropped_only_waiting_resends(dropped: dict[str, int]) -> bool:
    """What the venue's bridge may drop in a test: only a device's resend of a message that still waits in
    it (a loaded machine makes a QoS 1 client resend after 5 s; the waiting copy is answered) — never for a
    rate, a full queue or an error."""
    return set(dropped) <= {"queued"}
