"""A board game's match of games (RULES.md §6.5): who moves first game by game, when a match is
decided, and the lots — checked over every short sequence of results and many secrets."""

from __future__ import annotations

import itertools

from deckhand.engines.registry import game
from deckhand.engines.spec import FirstMove
from deckhand.service.boards.head_to_head import (
    MatchOfGames,
    first_side,
    game_carry,
    game_entry,
    game_seed,
    lot,
    seated_devices,
)

SALTS = [f"salt-{i}" for i in range(64)]


def test_the_draw_then_toss_rule_gives_red_to_the_lower_draw_number_then_swaps_then_tosses():
    for salt, low, number in itertools.product(SALTS, (0, 1), (1, 2, 7)):
        firsts = [first_side(FirstMove.DRAW_THEN_TOSS, salt, number, n, low) for n in range(1, 9)]
        toss = lot(salt, number, "toss")
        assert firsts[:2] == [low, 1 - low]
        assert firsts[2:] == [toss ^ (i & 1) for i in range(6)]


def test_the_draw_rule_alternates_from_the_lower_draw_number_and_the_lot_rule_from_the_guess():
    for salt, low in itertools.product(SALTS, (0, 1)):
        assert [first_side(FirstMove.DRAW, salt, 3, n, low) for n in range(1, 6)] == [low, 1 - low] * 2 + [
            low
        ]
        guess = lot(salt, 3, "first")
        assert [first_side(FirstMove.LOT, salt, 3, n, low) for n in range(1, 5)] == [guess, 1 - guess] * 2


def test_the_lots_fall_both_ways_and_differ_by_table_and_name():
    for name in ("first", "toss", "tie"):
        assert {lot(s, 1, name) for s in SALTS} == {0, 1}
    assert [lot(s, 1, "toss") for s in SALTS] != [lot(s, 2, "toss") for s in SALTS]
    assert [lot(s, 1, "toss") for s in SALTS] != [lot(s, 1, "tie") for s in SALTS]


def _games(sequence: tuple[tuple[int, int], ...]) -> list[dict]:
    return [{"mp": list(mp), "lp": list(mp), "ended_by": "played"} for mp in sequence]


def test_a_match_ends_once_a_player_leads_after_two_games_or_goes_to_the_lot_after_max_games():
    rule = MatchOfGames(4)
    for n in range(1, 5):
        for sequence in itertools.product(((2, 0), (1, 1), (0, 2)), repeat=n):
            games = _games(sequence)
            a = sum(g[0] for g in sequence)
            b = sum(g[1] for g in sequence)
            assert rule.decided(games) == (n == 4 or (n >= 2 and a != b)), sequence
            if not rule.decided(games):
                continue
            result = rule.result(games, "s", 1)
            if a == b:
                assert result["mp"] == ([2, 0] if lot("s", 1, "tie") == 0 else [0, 2])
                assert result["lot"] == lot("s", 1, "tie")
            else:
                assert result["mp"] == ([2, 0] if a > b else [0, 2]) and "lot" not in result
            assert result["lp"] == [a, b]


def test_a_swiss_match_is_two_games_and_may_be_drawn():
    rule = MatchOfGames(2, draws=True)
    assert not rule.decided(_games(((2, 0),)))
    assert rule.result(_games(((2, 0), (0, 2))), "s", 1) == {"mp": [1, 1], "lp": [2, 2], "kind": "played"}
    assert rule.result(_games(((1, 1), (2, 0))), "s", 1)["mp"] == [2, 0]


def test_a_game_is_kept_side_by_side_whoever_moved_first():
    assert game_entry((1.0, 0.0), 1, "resignation", "3")["mp"] == [0, 2]  # seat 0 was side 1
    assert game_entry((0.5, 0.5), 0, "agreed", "1")["mp"] == [1, 1]


def test_xiangqi_plays_games_one_and_two_slow_then_rapid():
    position = game("xiangqi-2004").position
    assert position is not None and position.first_move is FirstMove.DRAW_THEN_TOSS
    clocks = [game_carry(position, None, n)["options"]["clock"] for n in range(1, 6)]  # type: ignore[index]
    assert clocks == ["slow", "slow", "rapid", "rapid", "rapid"]
    gomoku = game("gomoku-renju").position
    assert gomoku is not None and gomoku.first_move is FirstMove.LOT
    assert game_carry(gomoku, {"move_seconds": 30}, 3) == {"options": {"move_seconds": 30}}


def test_handsets_stay_at_their_seats_and_a_players_own_device_follows_its_player() -> None:
    handsets = ["h0", "h1"]
    # Every mix of handsets and own devices, both first movers: each seat's device is the table's
    # handset there, or the own device of the player who sits there.
    for devices in itertools.product(("h0", "web-a"), ("h1", "web-b")):
        for first in (0, 1):
            got = seated_devices(list(devices), handsets, first)
            for seat, side in enumerate((first, 1 - first)):
                own = devices[side].startswith("web-")
                assert got[seat] == (devices[side] if own else handsets[seat])
    assert seated_devices(["", ""], ["", ""], 1) == ["", ""]  # a table without handsets


def test_a_games_seed_is_the_round_secrets_and_differs_game_by_game() -> None:
    seeds = {game_seed(salt, number, n) for salt in SALTS[:8] for number in (1, 2) for n in (1, 2, 3)}
    assert len(seeds) == 8 * 2 * 3
    assert game_seed("s", 1, 1) == game_seed("s", 1, 1) and len(game_seed("s", 1, 1)) == 64
