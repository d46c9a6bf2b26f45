"""Level points, game scores, forfeits, byes and best of three (RULES.md §4.1, §4.3)."""

import pytest
from deckhand.competition.matchplay.entrants import (
    MatchResult,
    ResultKind,
    RoundFormat,
    bye,
    combine_games,
    forfeit,
)
from deckhand.competition.matchplay.errors import ExtraBoardNeeded, MatchPlayError
from deckhand.competition.matchplay.level_points import (
    DEFAULT_TABLE,
    GameScore,
    LevelDraw,
    LevelPointsTable,
    LevelScale,
    Side,
    parse_level,
    score_game,
)


def test_default_26_point_table():
    assert DEFAULT_TABLE.points(0) == (13, 13)
    assert DEFAULT_TABLE.points(5) == (18, 8)
    assert DEFAULT_TABLE.points(13) == (26, 0)
    assert all(w + lo == 26 for w, lo in zip(DEFAULT_TABLE.winner, DEFAULT_TABLE.loser, strict=True))


def test_a_loaded_table():
    doc = {"winner": list(range(20, 34)), "loser": [20] + list(range(12, -1, -1)), "forfeit": [20, 0]}
    table = LevelPointsTable.from_document(doc)
    assert table.points(1) == (21, 12)
    assert score_game(5, 4, table=table).lp == (21, 12)
    with pytest.raises(MatchPlayError, match=r"level_table\.winner"):
        LevelPointsTable.from_document({"winner": [1], "loser": doc["loser"]})


def test_levels():
    assert [parse_level(x) for x in (2, "10", "T", "J", "a", "A+")] == [2, 10, 10, 11, 14, 15]
    with pytest.raises(MatchPlayError):
        parse_level("B")


def test_game_scores():
    assert score_game("A+", 9) == GameScore((2, 0), (19, 7))
    assert score_game(4, "K") == GameScore((0, 2), (4, 22))
    assert score_game(7, 7) == GameScore((1, 1), (13, 13))


def test_level_knockout_game_needs_an_extra_board():
    with pytest.raises(ExtraBoardNeeded):
        score_game(7, 7, draw=LevelDraw.EXTRA_BOARD)
    assert score_game(7, 7, draw=LevelDraw.EXTRA_BOARD, extra_board_winner=Side.B).mp == (0, 2)


def test_shengji_level_difference():
    assert score_game(9, 5, scale=LevelScale.LEVEL_DIFFERENCE) == GameScore((2, 0), (4, -4))
    assert score_game(6, 6, scale=LevelScale.LEVEL_DIFFERENCE) == GameScore((1, 1), (0, 0))


def test_forfeit_18_0_or_the_real_margin_strictly_above_18():
    assert forfeit(3, "A", "B").lp == (18, 0)
    assert forfeit(3, "A", "B", real_lp=(24, 6)).lp == (18, 0)  # margin exactly 18
    assert forfeit(3, "A", "B", real_lp=(25, 1)).lp == (25, 1)
    r = forfeit(3, "A", "B")
    assert (r.mp, r.kind) == ((2, 0), ResultKind.FORFEIT)
    assert forfeit(3, "A", "B", scale=LevelScale.LEVEL_DIFFERENCE).lp == (13, -13)


def test_bye_is_a_forfeit_win_without_opponent():
    b = bye(2, "E")
    assert (b.b, b.mp, b.lp, b.kind) == (None, (2, 0), (18, 0), ResultKind.BYE)
    assert bye(2, "E", scale=LevelScale.LEVEL_DIFFERENCE).lp == (13, -13)  # a forfeit win on 级差分
    with pytest.raises(MatchPlayError):
        MatchResult(2, "E", None, (1, 1), (13, 13), ResultKind.BYE)
    with pytest.raises(MatchPlayError):
        MatchResult(2, "E", "F", (2, 2), (13, 13))


def test_best_of_three():
    win, loss, draw = GameScore((2, 0), (16, 10)), GameScore((0, 2), (12, 14)), GameScore((1, 1), (13, 13))
    assert combine_games([win, loss, win], RoundFormat.BEST_OF_THREE) == GameScore((2, 0), (44, 34))
    assert combine_games([loss, loss], RoundFormat.BEST_OF_THREE) == GameScore((0, 2), (24, 28))
    assert combine_games([win, loss, draw], RoundFormat.BEST_OF_THREE).mp == (1, 1)
    with pytest.raises(MatchPlayError, match="not decided"):
        combine_games([win, loss], RoundFormat.BEST_OF_THREE)
    with pytest.raises(MatchPlayError, match="decided before its last game"):
        combine_games([win, win, loss], RoundFormat.BEST_OF_THREE)
    assert combine_games([draw], RoundFormat.ONE_GAME) == draw
