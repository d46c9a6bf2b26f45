"""The Shengji board (RULES.md §5, §5.1): declaring while the cards are dealt, board 1's dealer in each
preset, the kitty, throws on the board with 004's penalty, the last trick's kitty, results and carries."""

from __future__ import annotations

import pytest
from deckhand.engines.common.cards import make_deck, parse_cards
from deckhand.engines.common.shuffle import seeded_shuffle
from deckhand.engines.contract import Action, Rejected
from deckhand.engines.shengji.board import BURY, DEAL_TOTAL, DECLARE, END, PLAY, CommonBoard, ShengjiBoard
from deckhand.engines.shengji.spec import COMMON_SPEC, SPEC


def cs(text: str) -> list[int]:
    return parse_cards(text.split(), decks=2, jokers=True)


def order_with(hands: dict[int, str], kitty: str = "", seed: str = "fill") -> list[int]:
    """A deal order in which each seat gets the given cards first (dealing one to each seat in turn)."""
    wanted = {s: cs(t) for s, t in hands.items()}
    kit = cs(kitty)
    rest = seeded_shuffle(make_deck(decks=2, jokers=True), seed)
    for c in [c for h in wanted.values() for c in h] + kit:
        rest.remove(c)
    seats: list[list[int]] = [list(wanted.get(s, [])) for s in range(4)]
    for s in range(4):
        while len(seats[s]) < 25:
            seats[s].append(rest.pop())
    kit += [rest.pop() for _ in range(8 - len(kit))]
    return [seats[i % 4][i // 4] for i in range(100)] + kit


def declare(board: ShengjiBoard, seat: int, text: str) -> None:
    board.apply(Action(seat, "declare", tuple(cs(text))))


def test_a_seat_declares_as_soon_as_it_holds_a_level_card_and_reinforces_later() -> None:
    board = ShengjiBoard.in_steps(order_with({1: "H2 S3 H2"}))
    assert board.dealt == 0 and board.pending() == [] and not board.legal_actions(1)
    board.deal_step(2)  # seat 1 has H2
    assert board.legal_actions(1) == [Action(1, "declare", tuple(cs("H2")))]
    declare(board, 1, "H2")
    board.deal_step(9)  # seat 1 has its second H2
    declare(board, 1, "H2")  # reinforcing
    assert board.standing == (1, cs("H2")[0], 2)


def test_pass_is_refused_during_the_deal_and_declaring_ends_when_the_dealer_takes_the_kitty() -> None:
    board = ShengjiBoard.in_steps(order_with({0: "H2"}))
    board.deal_step(1)
    with pytest.raises(Rejected) as exc:
        board.apply(Action(0, "pass"))
    assert exc.value.code == "not_your_turn"
    declare(board, 0, "H2")
    board.deal_step(DEAL_TOTAL)
    while board.phase == DECLARE:
        board.apply(Action(board.pending()[0], "pass"))
    assert board.phase == BURY and len(board.hand(board.dealer)) == 33
    with pytest.raises(Rejected) as exc:
        board.apply(Action(board.dealer, "declare", tuple(cs("H2"))))
    assert exc.value.code == "declaring_closed"


@pytest.mark.parametrize(("board_class", "dealer"), [(ShengjiBoard, 1), (CommonBoard, 0)])
def test_board_1_dealer_per_preset(board_class: type[ShengjiBoard], dealer: int) -> None:
    """003: an overcall takes the deal too; 004: the first declarer deals, the overcall changes trump."""
    board = board_class.in_steps(order_with({0: "H2", 1: "S2 S2"}))
    board.deal_step(4)
    declare(board, 0, "H2")
    board.deal_step(8)
    declare(board, 1, "S2 S2")
    board.deal_step(DEAL_TOTAL)
    while board.phase == DECLARE:
        board.apply(Action(board.pending()[0], "pass"))
    assert board.dealer == dealer and board.trump_suit == 3 and board.declarer == 1


@pytest.mark.parametrize(("board_class", "trump"), [(ShengjiBoard, -1), (CommonBoard, 2)])
def test_nobody_declared(board_class: type[ShengjiBoard], trump: int) -> None:
    """003 plays no trump; 004 the kitty's first card (jokers skipped) names trump; seat 0 deals board 1."""
    board = board_class(order_with({}, kitty="RJ H5"))
    while board.phase == DECLARE:  # whoever holds a 2 lets it go
        board.apply(Action(board.pending()[0], "pass"))
    assert board.phase == BURY and board.dealer == 0 and board.trump_suit == trump
    assert board.no_trump == (trump < 0)


@pytest.mark.parametrize("board_class", [ShengjiBoard, CommonBoard])
@pytest.mark.parametrize("seed", ["a", "b", "c", "d"])
def test_nobody_declared_on_board_1_seat_0_deals_and_takes_the_kitty(
    board_class: type[ShengjiBoard], seed: str
) -> None:
    """§5.1 "nobody declared on board 1" (both presets): seat 0 deals — takes the kitty, buries, leads —
    whatever the deal; 004 turns the kitty (jokers skipped: RJ BJ C7 → clubs), 003 plays no trump."""
    board = board_class.in_steps(order_with({}, kitty="RJ BJ C7", seed=seed))
    board.deal_step(DEAL_TOTAL)
    while board.phase == DECLARE:
        board.apply(Action(board.pending()[0], "pass"))
    assert board.dealer == 0 and board.pending() == [0] and len(board.hand(0)) == 33
    assert board.declarer == -1 and board.trump_suit == (1 if board_class is CommonBoard else -1)
    view = board.view(1)
    assert view["dealer"] == 0 and view["declaration"] is None


def test_a_later_board_keeps_the_carried_dealer_and_plays_its_sides_level() -> None:
    carry = {"levels": ["5", "9"], "dealer": 1, "boards": 3, "time_up": False}
    board = ShengjiBoard(order_with({}), carry)
    assert board.level == 9 and board.ask == 1


def _to_play(board: ShengjiBoard) -> None:
    while board.phase == DECLARE:
        board.apply(Action(board.pending()[0], "pass"))
    while board.phase == BURY:
        board.apply(board.legal_actions(board.dealer)[0])
    assert board.phase == PLAY and board.pending() == [board.dealer]


def test_bury_eight_cards_one_at_a_time_then_the_dealer_leads() -> None:
    board = ShengjiBoard(order_with({}), {"levels": ["3", "3"], "dealer": 2, "boards": 1, "time_up": False})
    while board.phase == DECLARE:
        board.apply(Action(board.pending()[0], "pass"))
    with pytest.raises(Rejected) as exc:
        board.apply(Action(2, "bury", tuple(board.hand(2)[:2])))
    assert exc.value.code == "bury_one_card"
    _to_play(board)
    assert len(board.buried) == 8 and len(board.hand(2)) == 25


def _staged(board_class: type[ShengjiBoard], hands: list[str], dealer: int = 0) -> ShengjiBoard:
    """A board in play with the given hands (trump hearts, level 8)."""
    carry = {"levels": ["8", "8"], "dealer": dealer, "boards": 1, "time_up": False}
    board = board_class(order_with({}), carry)
    _to_play(board)
    board.hands = [sorted(cs(h)) for h in hands]
    board.trump_suit = 2
    return board


@pytest.mark.parametrize(("board_class", "penalty"), [(ShengjiBoard, 0), (CommonBoard, 30)])
def test_a_failed_throw_on_the_board_plays_the_forced_component(
    board_class: type[ShengjiBoard], penalty: int
) -> None:
    board = _staged(board_class, ["SK SQ SQ D3", "SA D4 D5 D6", "S3 D7 D8 D9", "S4 C3 C4 C5"])
    board.apply(Action(0, "play", tuple(cs("SK SQ SQ"))))
    assert board.trick == [(0, cs("SK"))] and board.lead == cs("SK")
    assert sorted(board.hand(0)) == sorted(cs("SQ SQ D3"))
    assert board.throws == [(0, sorted(cs("SK SQ SQ")), cs("SK"))]
    assert board.penalty_points() == penalty  # the dealer's side threw: added to the defenders


def test_a_defender_s_failed_throw_comes_off_the_defenders_points_in_004() -> None:
    board = _staged(CommonBoard, ["SA D3", "SK SQ SQ D4", "D5 D6 D7 D8", "SA C3 C4 C5"], dealer=0)
    board.leader = 1
    board.apply(Action(1, "play", tuple(cs("SK SQ SQ"))))
    assert board.penalty_points() == -30


def test_following_is_checked_on_the_board() -> None:
    board = _staged(ShengjiBoard, ["SA SA", "S3 S3 S4 C5", "D3 D4", "C6 C7"])
    board.apply(Action(0, "play", tuple(cs("SA SA"))))
    with pytest.raises(Rejected) as exc:
        board.apply(Action(1, "play", tuple(cs("S3 S4"))))
    assert exc.value.code == "must_match_pair"
    assert Action(1, "play", tuple(sorted(cs("S3 S3")))) in board.legal_actions(1)


@pytest.mark.parametrize(("board_class", "multiplier"), [(ShengjiBoard, 3), (CommonBoard, 2)])
def test_the_defenders_win_the_last_trick_with_a_throw_and_the_kitty_multiplies(
    board_class: type[ShengjiBoard], multiplier: int
) -> None:
    board = _staged(board_class, ["D3 D4", "SA SK", "D5 D6", "C3 C4"], dealer=0)
    board.buried = cs("S5 ST C3 C4 C6 C7 C9 CJ")  # 15 points in the kitty
    board.leader = 1
    board.side_points = [0, 0]
    for seat, text in [(1, "SA SK"), (2, "D5 D6"), (3, "C3 C4"), (0, "D3 D4")]:
        board.apply(Action(seat, "play", tuple(cs(text))))
    assert board.phase == END and board.multiplier == multiplier
    assert board.defender_points() == 15 + 15 * multiplier  # SK and D5 in the trick
    result = board.result()
    assert result["kitty"]["points"] == 15 * multiplier


def test_results_carry_levels_and_the_next_dealer() -> None:
    board = _staged(ShengjiBoard, ["D3", "SA", "D5", "C3"], dealer=0)
    board.buried = cs("C3 C4 C6 C7 C9 CJ D2 D3")  # no points
    board.leader = 1
    board.side_points = [0, 0]
    for seat, text in [(1, "SA"), (2, "D5"), (3, "C3"), (0, "D3")]:
        board.apply(Action(seat, "play", tuple(cs(text))))
    result = board.result()
    assert result["defender_points"] == 5 and result["scores"] == [2, -2, 2, -2]
    carry = result["carry"]
    assert carry["dealer"] == 2 and carry["levels"] == ["T", "8"] and not carry["game_over"]


def test_the_bots_play_a_game_to_past_a_in_both_presets() -> None:
    for spec, options in ((SPEC, None), (COMMON_SPEC, {"target": "A"})):
        decide = spec.bot()
        carry = None if options is None else {"options": options}
        for number in range(200):
            board = spec.new_board(seeded_shuffle(make_deck(decks=2, jokers=True), f"bots/{number}"), carry)
            while not board.finished:
                board.apply(decide(board, board.pending()[0]))
            result = board.result()
            carry = result["carry"]
            if carry["game_over"]:
                break
        else:
            raise AssertionError("no side passed A in 200 boards")
        assert "A+" in carry["levels"] and result["game"]["mp"] in ([2, 0], [0, 2])


def test_the_bot_throws_only_what_no_unseen_card_can_beat() -> None:
    from deckhand.engines.shengji.bot import ShengjiBot

    board = _staged(ShengjiBoard, ["SA SA SK D3", "S3 D4 D5 D6", "S4 D7 D8 D9", "S5 C3 C4 C5"])
    action = ShengjiBot().decide(board.seat_view(0))
    assert action is not None and sorted(action.cards) == sorted(cs("SA SA SK"))
    board.apply(action)
    assert board.throws == [] and len(board.trick[0][1]) == 3  # it stood
    board = _staged(ShengjiBoard, ["SA SK SQ D3", "S3 D4 D5 D6", "S4 D7 D8 D9", "S5 C3 C4 C5"])
    action = ShengjiBot().decide(board.seat_view(0))
    assert action is not None and len(action.cards) == 1  # the other SA is unseen: SK, SQ could fail


def test_the_clock_s_default_is_a_legal_action_in_every_phase() -> None:
    board = ShengjiBoard(order_with({0: "H2"}))
    while not board.finished:
        seat = board.pending()[0]
        timing = board.timing(seat)
        assert timing is not None and timing.default.timeout
        board.check(timing.default)
        board.apply(timing.default)
    assert board.result()["scores"]


def test_a_referee_s_penalties() -> None:
    """⚖ warning recorded; violation 10 points for the other side; forfeit ends the game; no foul."""
    board = _staged(ShengjiBoard, ["SA D3", "S3 D4", "S4 D5", "S5 C3"], dealer=0)
    board.apply(Action(1, "warning"))
    board.apply(Action(1, "violation"))  # a defender: off the defenders' points
    board.apply(Action(2, "violation"))  # the dealer's side: to the defenders
    board.apply(Action(2, "violation"))
    assert board.penalty_points() == 10 and board.penalties[0] == (1, "warning")
    with pytest.raises(Rejected) as exc:
        board.apply(Action(3, "foul"))
    assert exc.value.code == "not_in_rules"
    board.apply(Action(3, "forfeit"))
    assert board.finished
    result = board.result()
    assert result["game"] == {"mp": [2, 0], "lp": [13, -13]} and result["carry"]["game_over"]
    assert result["summary"]["ended_by"] == "forfeit" and result["scores"] == [0, 0, 0, 0]
    assert ShengjiBoard.from_json(board.to_json()) == board


# --- issue 34 on the board: generation, the bot and the screen follow the rules -------------------


def test_a_six_pair_run_follows_a_led_four_on_the_board_the_bot_and_the_screen() -> None:
    from deckhand.engines.shengji.bot import ShengjiBot
    from deckhand.engines.shengji.screen import screen

    board = _staged(
        ShengjiBoard, ["S3 S3 S4 S4 S5 S5 S6 S6 D3", "S9 S9 ST ST SJ SJ SQ SQ SK SK SA SA D4", "D5", "D6"]
    )
    board.apply(Action(0, "play", tuple(cs("S3 S3 S4 S4 S5 S5 S6 S6"))))
    plays = {a.cards for a in board.legal_actions(1)}
    runs = ["S9 S9 ST ST SJ SJ SQ SQ", "ST ST SJ SJ SQ SQ SK SK", "SJ SJ SQ SQ SK SK SA SA"]
    assert plays == {tuple(sorted(cs(r))) for r in runs}
    decided = ShengjiBot().decide(board.seat_view(1))
    assert decided is not None and decided.cards in plays
    assert "a tractor of 4 pairs" in screen(board, 1)["ask"]["p"]
    with pytest.raises(Rejected) as exc:
        board.apply(Action(1, "play", tuple(cs("S9 S9 ST ST SQ SQ SK SK"))))
    assert exc.value.code == "must_match_tractor"


def _trick_of_three_pair_tractors(level: str, hands: list[str]) -> ShengjiBoard:
    carry = {"levels": [level, level], "dealer": 0, "boards": 1, "time_up": False}
    board = ShengjiBoard(order_with({}), carry)
    _to_play(board)
    board.hands = [sorted(cs(h)) for h in hands]
    board.trump_suit = 3
    for seat, text in enumerate(hands):
        board.apply(Action(seat, "play", tuple(cs(text))))
    return board


def test_playing_3_the_trump_a_and_level_pairs_trump_a_led_three_on_the_board() -> None:
    # 003: trump A pair → off-suit level pair → trump-suit level pair is one tractor of three.
    hands = ["HK HK HQ HQ HJ HJ", "SA SA D3 D3 S3 S3", "H4 H4 H5 H5 H6 H6", "C4 C4 C5 C5 C6 C6"]
    assert _trick_of_three_pair_tractors("3", hands).last_winner == 1


def test_playing_2_aa22_is_never_a_tractor_so_the_led_three_holds() -> None:
    # 003 "AA22在任何情况下不构成拖拉机": playing 2, SA SA D2 D2 S2 S2 is a pair and a tractor of two.
    hands = ["HK HK HQ HQ HJ HJ", "SA SA D2 D2 S2 S2", "H4 H4 H5 H5 H6 H6", "C4 C4 C5 C5 C6 C6"]
    assert _trick_of_three_pair_tractors("2", hands).last_winner == 0


def test_004_a_joker_pair_overcall_of_a_reinforced_declaration_is_generated_and_accepted() -> None:
    board = CommonBoard.in_steps(order_with({0: "H2 H2", 1: "BJ BJ"}))
    board.deal_step(8)
    declare(board, 0, "H2")
    declare(board, 0, "H2")
    assert Action(1, "declare", tuple(cs("BJ BJ"))) in board.legal_actions(1)
    declare(board, 1, "BJ BJ")
    assert board.standing == (1, cs("BJ")[0], 2)
