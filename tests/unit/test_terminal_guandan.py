"""``deckhand handset`` plays a Guandan seat: typed cards of two decks, the reading chosen from the
prompt a refusal offers, tribute cards only among those the ask lets be selected. The terminal drives
the real firmware; the in-process table of test_guandan_handsets stands in for the venue."""

from __future__ import annotations

import io

import pytest
from deckhand.engines.common.cards import format_cards
from deckhand.engines.common.shuffle import seeded_shuffle
from deckhand.engines.guandan.board import TRIBUTE
from deckhand.engines.guandan.tribute import tribute_cards
from deckhand_local.venue.terminal import CommandError, TerminalHandset
from test_guandan_handsets import SPEC, Conn, Hal, Handset, Ids, Table
from test_guandan_screen import DECK, wild_board


def terminal(table: Table, seat: int) -> tuple[TerminalHandset, io.StringIO]:
    """The terminal's commands on a firmware handset with no broker behind it (its table is ``table``)."""
    out = io.StringIO()
    term = TerminalHandset.__new__(TerminalHandset)
    term.thing, term.out, term._frames = f"hs-{seat}", out, -1
    term.hal = Hal()
    term.app = Handset(term.hal, Ids(f"hs-{seat}"))
    term.app.attach(Conn(table, seat))
    return term, out


def seated(board: object, seat: int) -> tuple[Table, TerminalHandset, io.StringIO]:
    table = Table()
    table.board = board
    term, out = terminal(table, seat)
    table.apps = [term.app if s == seat else Handset(Hal(), Ids(f"hs-{s}")) for s in range(4)]
    table.publish()
    return table, term, out


def test_a_person_chooses_the_reading_of_a_wild_play_from_the_offered_prompt() -> None:
    table, term, out = seated(wild_board(), 0)
    term.command("select 2h 2h")  # two decks: the same card named twice selects both copies
    assert sorted(term.app.hand()[i] for i in term.app.selected) == ["H2", "H2"]
    term.command("play 9s 10s js 2h 2h")
    assert table.offers == 1
    labels = [o["l"] for o in term.app.options()]
    assert len(labels) == 6 and "straight 9\u2013K" in labels
    term.command("hand")
    assert "Which reading?" in out.getvalue()
    term.command(f"choose {labels.index('straight 9–K') + 1}")
    last = table.board.last_reading
    assert last is not None and last.type.json_name == "straight" and last.rank == 13
    assert sorted(table.sent[-1]["a"]["c"]) == ["H2", "H2", "S9", "SJ", "ST"]


def test_a_tribute_is_typed_among_the_legal_cards_only() -> None:
    board = None
    for n in range(40):  # a board whose payer holds a legal card and an illegal one of its hand
        carry = {"levels": ["5", "3"], "level_side": 0, "order": [0, 2, 1, 3]}
        board = SPEC.new_board(seeded_shuffle(DECK, f"tribute/{n}"), carry)
        if board.phase == TRIBUTE:
            break
    assert board is not None and board.phase == TRIBUTE
    payer = board.pending()[0]
    table, term, _ = seated(board, payer)
    legal = set(format_cards(tribute_cards(board.hands[payer], board.level)))
    illegal = next(t for t in term.app.hand() if t not in legal)
    typed = illegal[1] + illegal[0]
    term.command(f"play {typed}")
    assert table.kinds["tribute"] == 0 and not table.sent  # refused by the terminal, nothing sent
    with pytest.raises(CommandError, match="cannot be chosen now"):
        term._picks([typed])
    card = sorted(legal)[0]
    term.command(f"play {card[1]}{card[0]}")
    assert table.kinds["tribute"] == 1 and table.sent[-1]["a"] == {"k": "tribute", "c": [card]}
