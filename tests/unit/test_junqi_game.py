"""A Junqi game on the umpire's board: setups sent, checked and hidden, the seeded setup on timeout,
timeouts passing the turn (the fifth loses), the flag shown when a marshal falls, and what each seat
learns — never an enemy piece's rank (a seat's view and screen are the same whatever the enemy's
pieces are); the bot's knowledge from battles, and the bot beating a random mover."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from deckhand.engines.contract import Action, Rejected
from deckhand.engines.junqi.board import JunqiBoard, SeatView, move, set_up
from deckhand.engines.junqi.bot import JunqiBot, knowledge
from deckhand.engines.junqi.geometry import INDEX
from deckhand.engines.junqi.screen import screen
from deckhand.engines.junqi.setup import random_setup, reason, sound_setup

TOKENS = {"marshal", "general", "division", "brigade", "regiment", "battalion", "company", "platoon",
          "engineer", "mine", "bomb", "flag"}  # fmt: skip
PLY = re.compile(r"[a-e](1[0-2]|[1-9])-[a-e](1[0-2]|[1-9])(:(attacker|defender|both))?|timeout")


def started(seed: str = "") -> JunqiBoard:
    board = JunqiBoard.from_order([], {"seed": seed})
    board.apply(set_up(0, sound_setup(0)))
    board.apply(set_up(1, sound_setup(1, flipped=True)))
    return board


def refused(board: JunqiBoard, action: Action) -> str:
    before = board.to_json()
    with pytest.raises(Rejected) as caught:
        board.apply(action)
    assert board.to_json() == before
    return caught.value.code


def test_setups_are_checked_with_their_reason_and_hidden_from_each_other() -> None:
    board = JunqiBoard()
    assert board.pending() == [0, 1]
    bad = dict(sound_setup(0))
    bad["b1"], bad["e1"] = bad["e1"], bad["b1"]
    assert refused(board, set_up(0, bad)) == "flag_hq"
    assert refused(board, set_up(0, sound_setup(1))) == "square"
    assert refused(board, Action(0, "setup")) == "square"
    assert refused(board, move(0, "a6", "a7")) == "phase_closed"
    before = board.view(1)
    board.apply(set_up(0, sound_setup(0)))
    assert board.pending() == [1]
    after = board.view(1)
    assert after["ready"] == [True, False] and {**after, "ready": before["ready"]} == before  # nothing more
    assert refused(board, set_up(0, sound_setup(0))) == "already_decided"
    board.apply(set_up(1, sound_setup(1)))
    assert board.pending() == [0] and board.view(1)["enemy"] == sorted(sound_setup(0))


def test_a_timed_out_setup_is_the_seeded_random_one() -> None:
    board = JunqiBoard.from_order([], {"seed": "event/3/game/1"})
    default = board.default_action(1)
    assert default is not None and default.timeout and default.kind == "setup"
    assert default.data == random_setup("event/3/game/1", 1) and reason(1, default.data) is None
    assert JunqiBoard.from_order([], {"seed": "event/3/game/1"}).default_action(1) == default  # same seed
    assert JunqiBoard.from_order([], {"seed": "event/3/game/2"}).default_action(1) != default
    timing = board.timing(0)
    assert timing is not None and timing.limit_ms == 300_000
    board.apply(default)
    assert board.setups[1] == dict(sorted(default.data.items()))


def test_a_timeout_passes_the_turn_without_a_ply_and_the_fifth_loses() -> None:
    board = started()
    board.apply(move(0, "c6", "c7"))  # an attack: quiet 0
    board.apply(board.legal_actions(1)[0])
    quiet = board.quiet
    assert refused(board, Action(0, "timeout")) == "platform_only"
    for n in range(1, 5):
        board.apply(Action(0, "timeout", timeout=True))
        assert board.turn == 1 and board.quiet == quiet and board.timeouts[0] == n
        board.apply(board.legal_actions(1)[0])
        quiet = board.quiet
    board.apply(Action(0, "timeout", timeout=True))
    assert board.finished and board.result()["winner"] == 1 and board.result()["why"] == "time"
    assert board.result()["points"] == [0.0, 1.0]


def crafted(cells: dict[str, tuple[int, str]], turn: int = 0) -> JunqiBoard:
    """A board in play holding just ``cells`` (setups sent, then the pieces set by hand)."""
    board = started()
    board.cells = [None] * 60
    for sq, cell in cells.items():
        board.cells[INDEX[sq]] = cell
    board.turn = turn
    return board


def test_the_flag_is_shown_to_the_opponent_once_the_marshal_falls() -> None:
    board = crafted({"c6": (0, "marshal"), "c7": (1, "bomb"), "b1": (0, "flag"), "d12": (1, "flag"),
                     "a6": (0, "company"), "e10": (1, "marshal")})  # fmt: skip
    assert board.view(1)["flag_shown"] == {"red": None, "blue": None}
    board.apply(move(0, "c6", "c7"))
    assert board.log[-1] == "c6-c7:both" and board.marshal_lost == [True, False]
    assert board.view(1)["flag_shown"] == {"red": "b1", "blue": None}
    assert screen(board, 1)["grid"]["r"][-1] == ".f.H."  # row 1: Red's flag shown to Blue on b1
    off = crafted({"c6": (0, "marshal"), "c7": (1, "bomb"), "b1": (0, "flag"), "d12": (1, "flag"),
                   "a6": (0, "company"), "e10": (1, "marshal")})  # fmt: skip
    off.options = off.options.__class__(show_flag_on_marshal_loss=False)
    off.apply(move(0, "c6", "c7"))
    assert off.view(1)["flag_shown"] == {"red": None, "blue": None}


def test_taking_the_flag_wins_and_a_stuck_side_loses() -> None:
    board = crafted({"a2": (0, "engineer"), "a1": (1, "flag"), "e12": (0, "flag"), "c10": (1, "company")})
    board.apply(move(0, "a2", "a1"))
    assert board.finished and (board.winner, board.why) == (0, "flag")
    stuck = crafted({"c3": (0, "company"), "a1": (0, "flag"), "b12": (1, "marshal"), "d12": (1, "flag")})
    stuck.apply(move(0, "c3", "c2"))
    assert stuck.finished and (stuck.winner, stuck.why) == (0, "no_moves")


def enemy_token_free(view: dict[str, Any], seat: int) -> None:
    """Tokens appear only as the seat's own pieces and setup; plies carry squares and outcomes only."""

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                assert k not in TOKENS
                walk(v, f"{path}.{k}")
        elif isinstance(node, list):
            for v in node:
                walk(v, path)
        elif isinstance(node, str) and node in TOKENS:
            assert (
                path in (".setup", ".pieces") or path.startswith(".setup.") or path.startswith(".pieces.")
            ), path

    walk(view, "")
    own = set(view["pieces"])
    assert not own & set(view["enemy"])
    assert all(PLY.fullmatch(p) for p in view["log"])


def twin(board: JunqiBoard, seat: int, rng: random.Random) -> JunqiBoard:
    """The same board with the other side's pieces shuffled among their squares (its shown flag kept)."""
    other = board.from_json(board.to_json())
    shown = board.flag_shown(1 - seat)
    squares = [sq for sq, c in enumerate(other.cells) if c and c[0] != seat and sq != shown]
    tokens = [other.cells[sq][1] for sq in squares]
    rng.shuffle(tokens)
    for sq, token in zip(squares, tokens, strict=True):
        other.cells[sq] = (1 - seat, token)
    if other.setups[1 - seat] is not None:  # the other setup the umpire holds is none of the seat's
        other.setups[1 - seat] = {"a1": "shuffled"}
    return other


def test_a_seat_learns_nothing_of_an_enemy_piece_over_whole_games() -> None:
    bot = JunqiBot()
    for game in range(2):
        rng = random.Random(f"junqi/views/{game}")
        board = JunqiBoard.from_order([], {"seed": str(game)})
        while not board.finished:
            for seat in (0, 1):
                view = board.view(seat)
                enemy_token_free(json.loads(json.dumps(view)), seat)
                other = twin(board, seat, rng)
                assert other.view(seat) == view
                for lang in ("en", "zh-CN"):
                    assert screen(other, seat, lang) == screen(board, seat, lang)
            seat = board.pending()[0]
            action = (
                bot.decide(board.seat_view(seat))
                if seat == game % 2
                else rng.choice(board.legal_actions(seat))
            )
            assert action is not None
            board.apply(action)


def test_the_bot_learns_from_battle_outcomes() -> None:
    board = crafted({"c6": (0, "company"), "c7": (1, "general"), "b1": (0, "flag"), "d12": (1, "flag"),
                     "a6": (0, "marshal"), "a10": (1, "company")})  # fmt: skip
    board.setups = [{"c6": "company", "b1": "flag", "a6": "marshal"}, board.setups[1]]
    board.apply(move(0, "c6", "c7"))  # the company loses: the defender outranks it (or is a mine)
    view = board.seat_view(0)
    own, enemy = knowledge(view)
    assert INDEX["c6"] not in own and enemy[INDEX["c7"]] <= {
        "marshal",
        "general",
        "division",
        "brigade",
        "regiment",
        "battalion",
    }
    assert "flag" not in enemy[INDEX["c7"]]


def test_the_bot_is_deterministic_and_sets_up_soundly() -> None:
    board = JunqiBoard()
    action = JunqiBot().decide(board.seat_view(0))
    assert action is not None and reason(0, action.data) is None
    placement = action.data
    flag = next(sq for sq, t in placement.items() if t == "flag")
    guards = {"b1": ("a1", "c1", "b2"), "d1": ("c1", "e1", "d2")}[flag]
    assert all(placement[g] == "mine" for g in guards)  # only an engineer reaches the flag
    board = started()
    view = board.seat_view(0)
    assert JunqiBot().decide(view) == JunqiBot().decide(
        SeatView.from_dict(json.loads(json.dumps(view.to_dict())))
    )


def test_the_bot_beats_a_random_mover_in_most_games() -> None:
    wins = 0
    for game in range(6):
        bot_seat, rng = game % 2, random.Random(f"junqi/bot/{game}")
        board = JunqiBoard.from_order([], {"seed": str(game)})
        bot = JunqiBot()
        while not board.finished:
            seat = board.pending()[0]
            action = (
                bot.decide(board.seat_view(seat))
                if seat == bot_seat
                else rng.choice(board.legal_actions(seat))
            )
            assert action is not None
            board.apply(action)
        wins += board.winner == bot_seat
    assert wins >= 4


def test_the_spec_registers_a_board_game_with_typed_options() -> None:
    from deckhand.engines.registry import ALIASES, DEALT_RULESETS, by_alias
    from deckhand.engines.spec import Competition
    from deckhand.errors import DeckhandError

    spec = by_alias("junqi")
    assert ALIASES["junqi"] == "junqi-2004" == spec.ruleset and spec.ruleset not in DEALT_RULESETS
    assert spec.competition is Competition.HEAD_TO_HEAD and spec.position is not None
    assert len(spec.position.squares) == 60 and spec.position.sides == ("red", "blue")
    from deckhand.engines.spec import FirstMove

    assert spec.position.first_move is FirstMove.DRAW  # the lower draw number first, then alternate
    assert spec.options is not None
    assert spec.options(None).to_dict() == {
        "show_flag_on_marshal_loss": True,
        "move_seconds": 60,
        "setup_seconds": 300,
    }
    for bad in ({"show_flag_on_marshal_loss": 1}, {"move_seconds": 2}, {"setup_seconds": True}, {"x": 1}):
        with pytest.raises(DeckhandError):
            spec.options(bad)
    with pytest.raises(DeckhandError):
        spec.new_board([], {"seed": 5})
    board = spec.new_board([], {"options": {"show_flag_on_marshal_loss": False}, "seed": "s"})
    assert isinstance(board, JunqiBoard) and not board.options.show_flag_on_marshal_loss and board.seed == "s"


def test_a_setup_may_be_named_as_the_handset_offers_it() -> None:
    """``"standard"`` is the bot's sound setup, ``"random"`` the seat's seeded random one (words a
    terminal may type); any other string is no setup."""
    board = JunqiBoard.from_order([], {"seed": "named"})
    with pytest.raises(Rejected) as refused:
        board.apply(Action(0, "setup", data="best"))
    assert refused.value.code == "square"
    board.apply(Action(0, "setup", data="standard"))
    board.apply(Action(1, "setup", data="random"))
    assert board.setups[0] == dict(sorted(sound_setup(0).items()))
    assert board.setups[1] == dict(sorted(random_setup("named", 1).items()))


def _mirrored(placement: dict[str, str]) -> dict[str, str]:
    """Rows r → 13 − r: a setup saved on one half as the other half plays it."""
    return {f"{key[0]}{13 - int(key[1:])}": token for key, token in placement.items()}


def test_a_saved_setup_is_offered_first_to_its_own_seat_turned_to_the_side_it_plays() -> None:
    mine, theirs = random_setup("saved-a", 0), random_setup("saved-b", 0)  # both saved as Red
    board = JunqiBoard.from_order([], {"seed": "g", "last": [theirs, mine]})
    # Seat 1 plays Blue now: its player's Red setup comes back mirrored, first, and is accepted.
    offered = board.legal_actions(1)[0].data
    assert offered == _mirrored(mine) and reason(1, offered) is None
    assert board.legal_actions(0)[0].data == theirs  # saved as Red, played as Red: as it was
    ask = screen(board, 1)["ask"]  # each offered setup by its number: three would not fit 1 KiB
    assert [o["a"]["d"] for o in ask["o"]] == [{"offered": 1}, {"offered": 2}, {"offered": 3}]
    assert ask["o"][0]["l"] == "My last setup"
    assert len(json.dumps(screen(board, 1), separators=(",", ":")).encode()) < 700
    numbered = JunqiBoard.from_json(board.to_json())
    numbered.apply(set_up(1, {"offered": 1}))  # type: ignore[dict-item]
    assert numbered.seat_view(1).to_dict()["setup"] == _mirrored(mine)
    assert refused(board, Action(1, "setup", data={"offered": 5})) == "bad_action"
    # Nothing of one player's setup reaches the other seat: not its choices, its screen or its view.
    for seat, other in ((0, _mirrored(mine)), (1, theirs)):
        shown = [a.data for a in board.legal_actions(seat)]
        # The screen names the seat's own offered setups by number only: never a placement.
        assert all(set(o["a"]["d"]) == {"offered"} for o in screen(board, seat)["ask"]["o"])
        assert other not in shown and _mirrored(other) not in shown
        assert board.seat_view(seat).to_dict()["setup"] == {}
    board.apply(set_up(1, offered))
    assert board.seat_view(0).to_dict()["setup"] == {} and board.seat_view(0).to_dict()["enemy"] == []
    loaded = JunqiBoard.from_json(board.to_json())
    assert loaded.legal_actions(0)[0].data == theirs


def test_the_result_keeps_each_seat_s_sent_setup_and_not_a_timed_out_one() -> None:
    board = JunqiBoard.from_order([], {"seed": "k", "options": {"move_seconds": 5}})
    board.apply(set_up(0, sound_setup(0)))
    timed_out = board.default_action(1)
    assert timed_out is not None
    board.apply(timed_out)
    while board.phase != "end":  # the turns time out until the fifth loses
        default = board.default_action(board.turn)
        assert default is not None
        board.apply(default)
    assert board.result()["keep"] == [sound_setup(0), None]


@pytest.mark.parametrize(
    "last",
    [[None], "x", [{"a1": "flag"}, None], [{"zz": "flag"}, None]],
)
def test_a_carry_with_a_bad_saved_setup_is_refused(last: Any) -> None:
    from deckhand.errors import DeckhandError

    with pytest.raises(DeckhandError):
        JunqiBoard.from_order([], {"seed": "", "last": last})
