"""Guandan levels (RULES.md §4 "Upgrade", "Game end", §4.1, §4.2 "The A rule"): upgrade by the
partner's place, no jumping A, passing A only on one's own A, the drop option, end modes, level points."""

import pytest
from deckhand.engines.guandan import levels as lv
from deckhand.engines.guandan.levels import ACE, PAST_A, EndMode, Options, Verdict, parse_level
from deckhand.engines.guandan.referee import OPS
from deckhand.errors import DeckhandError


def L(*tokens):
    return [parse_level(t) for t in tokens]


def test_level_tokens_and_level_card_ranks():
    assert lv.LEVEL_NAMES[0] == "2" and lv.LEVEL_NAMES[ACE] == "A" and lv.LEVEL_NAMES[PAST_A] == "A+"
    assert parse_level("10") == parse_level("t") == 8
    assert lv.level_rank(parse_level("2")) == 12 and lv.level_rank(parse_level("3")) == 0
    assert lv.level_rank(parse_level("A")) == 11
    assert all(lv.rank_level(lv.level_rank(x)) == x for x in range(ACE + 1))
    with pytest.raises(DeckhandError):
        lv.level_rank(PAST_A)  # past A no board is played
    with pytest.raises(DeckhandError):
        parse_level("B")


@pytest.mark.parametrize(
    ("order", "steps"),
    [
        ([0, 2, 1, 3], 3),
        ([0, 2], 3),
        ([0, 1, 2, 3], 2),
        ([0, 1, 3, 2], 1),
        ([0, 1, 3], 1),
        ([1, 0, 3, 2], 2),
        ([1, 3, 0, 2], 3),
    ],
)
def test_steps_by_partner_place(order, steps):
    """Partner 2nd +3, 3rd +2, last +1; at 双下 only the first two count."""
    assert lv.steps(order) == steps


def test_only_the_first_finishers_side_goes_up():
    up = lv.upgrade(L("5", "9"), 1, [1, 0, 3, 2])
    assert up.levels == tuple(L("5", "J")) and up.winner_side == 1 and not up.game_over


def test_a_side_may_not_jump_a():
    up = lv.upgrade(L("K", "2"), 0, [0, 2, 1, 3])
    assert up.levels == tuple(L("A", "2")) and not up.passed_a


@pytest.mark.parametrize("order", [[0, 2, 1, 3], [0, 1, 2, 3], [2, 3, 0, 1]])
def test_passing_a_on_own_a_with_partner_not_last(order):
    up = lv.upgrade(L("A", "5"), 0, order)
    assert up.levels == tuple(L("A+", "5")) and up.passed_a and up.game_over


def test_own_a_won_with_partner_last_is_a_failure():
    up = lv.upgrade(L("A", "5"), 0, [0, 1, 3, 2])
    assert up.levels == tuple(L("A", "5")) and not up.passed_a and up.a_attempts == (1, 0)


def test_winning_the_opponents_board_does_not_pass_a_even_both_at_a():
    """§4.2: a side passes A only on a board played at its own level A."""
    up = lv.upgrade(L("A", "A"), 1, [0, 2, 1, 3])
    assert up.levels == tuple(L("A", "A")) and not up.passed_a
    assert up.a_attempts == (0, 1)  # side 1's own A board failed; side 0's attempts unchanged


def test_losing_ones_own_a_board_is_a_failure_and_the_drop_is_off_by_default():
    levels, attempts = L("A", "5"), (0, 0)
    for _ in range(5):
        up = lv.upgrade(levels, 0, [1, 3, 0, 2], attempts)
        attempts = up.a_attempts
        levels = [ACE, 5]  # keep side 0 at A for the next own-A board
    assert up.levels[0] == ACE and attempts[0] == 5 and not up.dropped


def test_drop_option_sends_a_side_back_to_2_after_three_failures():
    opts = Options(a_drop=True)
    up1 = lv.upgrade(L("A", "5"), 0, [0, 1, 3, 2], (0, 0), opts)
    up2 = lv.upgrade(L("A", "5"), 0, [1, 0, 2, 3], up1.a_attempts, opts)
    assert up2.a_attempts == (2, 0) and up2.levels[0] == ACE
    up3 = lv.upgrade(L("A", "5"), 0, [1, 3, 0, 2], up2.a_attempts, opts)
    assert up3.dropped and up3.levels == (0, parse_level("8")) and up3.a_attempts == (0, 0)


def test_a_side_arriving_at_a_starts_its_attempts_afresh():
    up = lv.upgrade(L("Q", "5"), 0, [0, 2, 1, 3], (2, 0))
    assert up.levels[0] == ACE and up.a_attempts == (0, 0)


def test_upgrade_rejects_bad_input():
    with pytest.raises(DeckhandError):
        lv.upgrade(L("A+", "5"), 0, [0, 2, 1, 3])
    with pytest.raises(DeckhandError):
        lv.upgrade(L("3", "5"), 0, [0, 1])  # a two-seat order must be a 双下
    with pytest.raises(DeckhandError):
        lv.upgrade(L("3", "5"), 0, [0, 0, 1, 2])


def test_level_points_by_the_26_point_table():
    """§4.1 default: winner 13+d, loser 13−d; the issue's example A+ vs 7 → 21:5."""
    pts = lv.level_points(L("A+", "7"))
    assert pts.match_points == (2, 0) and pts.level_points == (21, 5) and pts.winner_side == 0
    assert lv.level_points(L("3", "K")).level_points == (3, 23)
    draw = lv.level_points(L("9", "9"))
    assert draw.match_points == (1, 1) and draw.level_points == (13, 13) and draw.winner_side is None
    assert lv.level_points(L("9", "9"), decider=1).match_points == (0, 2)


def test_the_table_is_loadable_data():
    rows = [[20 + d, 6 - d // 3] for d in range(14)]
    table = lv.LevelTable.from_data({"rows": rows, "forfeit": [20, 0]})
    assert lv.level_points(L("5", "2"), table).level_points == (23, 5)
    assert lv.LevelTable.from_data(lv.LevelTable().to_data()) == lv.LevelTable()
    for bad in ([[1, 2]] * 3, {"rows": [[1, "x"]] * 14}, "table"):
        with pytest.raises(DeckhandError):
            lv.LevelTable.from_data(bad)


def test_forfeit_is_18_0_or_the_real_margin_if_larger():
    assert lv.forfeit_points(L("5", "7"), 0).level_points == (18, 0)
    assert lv.forfeit_points(L("5", "7"), 1).level_points == (0, 18)
    assert lv.forfeit_points(L("K", "2"), 0).level_points == (24, 2)  # margin 22 > 18
    assert lv.forfeit_points(L("J", "2"), 0).level_points == (18, 0)  # margin 18 is not above 18
    assert lv.forfeit_points(L("K", "2"), 0).match_points == (2, 0)


def test_verdict_by_end_mode():
    game = Options()
    assert lv.verdict(L("K", "Q"), 99, game, time_up=True) == Verdict.NEW_BOARD  # only passing A ends it
    assert lv.verdict(L("A+", "Q"), 3, game) == Verdict.GAME_OVER
    boards = Options(end_mode=EndMode.BOARDS, boards=6)
    assert lv.verdict(L("5", "7"), 5, boards) == Verdict.NEW_BOARD
    assert lv.verdict(L("5", "7"), 5, boards, in_progress=True) == Verdict.NO_NEW_BOARD
    assert lv.verdict(L("5", "7"), 6, boards) == Verdict.GAME_OVER
    assert lv.verdict(L("A+", "7"), 2, boards) == Verdict.GAME_OVER  # passing A ends every mode
    timed = Options(end_mode=EndMode.TIME)
    assert lv.verdict(L("5", "7"), 40, timed) == Verdict.NEW_BOARD
    assert lv.verdict(L("5", "7"), 4, timed, time_up=True, in_progress=True) == Verdict.NO_NEW_BOARD
    assert lv.verdict(L("5", "7"), 4, timed, time_up=True) == Verdict.GAME_OVER
    either = Options(end_mode=EndMode.TIME_OR_BOARDS, boards=3)
    assert lv.verdict(L("5", "7"), 3, either) == Verdict.GAME_OVER
    assert lv.verdict(L("5", "7"), 1, either, time_up=True) == Verdict.GAME_OVER
    assert lv.verdict(L("5", "7"), 1, either) == Verdict.NEW_BOARD


def test_a_level_knockout_game_plays_an_extra_board():
    ko = Options(end_mode=EndMode.BOARDS, boards=4, draws=False)
    assert lv.verdict(L("7", "7"), 4, ko) == Verdict.NEW_BOARD
    assert lv.verdict(L("8", "7"), 4, ko) == Verdict.GAME_OVER
    assert lv.verdict(L("A", "A"), 5, ko, extra_done=True) == Verdict.GAME_OVER


def test_options_are_typed_and_round_trip():
    opts = Options.from_dict(
        {"end_mode": "time_or_boards", "boards": 8, "minutes": 45, "return_rule": "2022"}
    )
    assert opts.end_mode is EndMode.TIME_OR_BOARDS and opts.return_rule is lv.ReturnRule.R2022
    assert Options.from_dict(opts.to_dict()) == opts
    assert Options.from_dict(None) == Options() and not Options().a_drop
    for bad in ({"end_mode": "sudden"}, {"boards": 0}, {"a_drop": "yes"}, {"colour": 1}):
        with pytest.raises(DeckhandError):
            Options.from_dict(bad)


def test_referee_ops_exactly_as_the_issue_says():
    assert OPS["upgrade"](
        {"op": "upgrade", "level_side": 0, "levels": ["A", "5"], "order": [0, 2, 1, 3], "a_attempts": [0, 0]}
    ) == {"levels": ["A+", "5"], "winner_side": 0, "game_over": True}
    assert OPS["level_points"]({"op": "level_points", "levels": ["A+", "7"]}) == {
        "match_points": [2, 0],
        "level_points": [21, 5],
    }
    assert OPS["level_points"]({"levels": ["5", "7"], "forfeit_by": 1}) == {
        "match_points": [2, 0],
        "level_points": [18, 0],
    }
    answer = OPS["upgrade"]({"level_side": 0, "levels": ["A", "5"], "order": [0, 1, 3, 2], "a_drop": True})
    assert answer == {"levels": ["A", "5"], "winner_side": 0, "game_over": False, "a_attempts": [1, 0]}
    with pytest.raises(DeckhandError):
        OPS["upgrade"]({"levels": ["A", "5"], "order": [0, 1, 3, 2]})


def test_option_defaults_are_the_rules_defaults():
    # RULES.md §4 "Game end": by game by default, 60 minutes for the time modes; the return rule 2023;
    # the A-failures drop off (after three); N boards is the event's (10 unless set); the §4.1 table.
    o = Options()
    assert (o.end_mode, o.minutes, o.boards, o.return_rule.value, o.a_drop, o.a_drop_after, o.draws) == (
        EndMode.GAME,
        60,
        10,
        "2023",
        False,
        3,
        True,
    )
    assert o.table.points(0) == (13, 13) and o.table.points(13) == (26, 0) and o.table.forfeit == (18, 0)
    assert Options.from_dict({}) == o


def test_upgrade_op_counts_from_the_given_a_attempts():
    # With the drop option a third failed own-A board sends the side back to 2 (§4.2 "The A rule").
    answer = OPS["upgrade"](
        {"level_side": 0, "levels": ["A", "5"], "order": [1, 0, 3, 2], "a_attempts": [2, 0], "a_drop": True}
    )
    assert answer == {"levels": ["2", "7"], "winner_side": 1, "game_over": False, "a_attempts": [0, 0]}
