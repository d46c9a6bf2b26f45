"""Shengji's rules core (RULES.md §5, §5.1): trump order, components, following, tricks, throws,
the kitty, results and declaring — a case per rule, in both presets where they differ."""

from __future__ import annotations

import pytest
from deckhand.engines.common.cards import parse_cards
from deckhand.engines.shengji import declare as dc
from deckhand.engines.shengji import levels as lv
from deckhand.engines.shengji.cards import points, trump
from deckhand.engines.shengji.combos import (
    FollowError,
    Kind,
    decompose,
    follow_error,
    forced_component,
    kitty_multiplier,
    throw_failures,
    trick_winner,
)
from deckhand.engines.shengji.options import (
    PRESETS,
    LevelChain,
    Options,
    Preset,
    ResultTable,
)

Y = PRESETS[Preset.YAOJI2010]
C = PRESETS[Preset.COMMON]
S, H, CL, D = 3, 2, 1, 0


def cs(text: str) -> list[int]:
    return parse_cards(text.split(), decks=2, jokers=True)


def shape(
    text: str, level: int, suit: int | None, chain: LevelChain = LevelChain.THROUGH_TRUMP
) -> list[tuple]:
    ctx = trump(level, suit, chain)
    return [(c.kind.value, c.pairs, c.cards[0]) for c in decompose(cs(text), ctx)]


# --- trump order -------------------------------------------------------------------------------


def test_trump_order_jokers_then_trump_level_then_other_levels_then_trump_suit_then_side() -> None:
    ctx = trump(8, H, LevelChain.THROUGH_TRUMP)
    ordered = ctx.ordered(cs("D3 SA H2 HA D8 C8 S8 H8 BJ RJ"))
    assert ordered == cs("RJ BJ H8 S8 C8 D8 HA H2 SA D3")
    assert ctx.strength[cs("S8")[0]] == ctx.strength[cs("D8")[0]]  # other level cards are equal


def test_level_rank_is_skipped_in_a_side_suit_and_in_trump() -> None:
    ctx = trump(8, H, LevelChain.THROUGH_TRUMP)
    s7, s9, h7, h9 = cs("S7 S9 H7 H9")
    assert ctx.strength[s9] == ctx.strength[s7] + 1 and ctx.strength[h9] == ctx.strength[h7] + 1
    assert not ctx.is_trump(s7) and ctx.is_trump(h7) and ctx.is_trump(cs("S8")[0])


def test_no_trump_only_jokers_and_level_cards_are_trump() -> None:
    ctx = trump(5, None, LevelChain.THROUGH_TRUMP)
    assert [ctx.is_trump(c) for c in cs("RJ BJ H5 S5 HA SA")] == [True] * 4 + [False] * 2


def test_points() -> None:
    assert points(cs("S5 HT CK DA BJ D5")) == 30


# --- components and tractors -------------------------------------------------------------------


def test_level_gap_closes_playing_8_9977_is_a_tractor() -> None:
    assert shape("S9 S9 S7 S7", 8, H) == [("tractor", 2, cs("S9")[0])]


def test_aa22_never_a_tractor_in_a_side_suit_or_across_the_level_2() -> None:
    assert [k for k, _, _ in shape("SA SA S2 S2", 8, H)] == ["pair", "pair"]
    # playing 2 with hearts trump: trump AA and the off-suit 22 are adjacent in the order but never chain
    assert [k for k, _, _ in shape("HA HA S2 S2", 2, H)] == ["pair", "pair"]


def test_yaoji_chain_off_level_trump_level_jokers_and_trump_a() -> None:
    got = shape("HA HA S8 S8 H8 H8 BJ BJ RJ RJ", 8, H)
    assert got == [("tractor", 5, cs("RJ")[0])]


def test_common_level_cards_never_chain_with_plain_trump() -> None:
    got = shape("HA HA S8 S8 H8 H8 BJ BJ RJ RJ", 8, H, LevelChain.LEVELS_AND_JOKERS)
    assert got == [("tractor", 4, cs("RJ")[0]), ("pair", 1, cs("HA")[0])]
    # 级牌不能与相同花色的副牌构成拖拉机: H9H9 + H8H8 (H trump level 8) is no tractor
    assert [k for k, _, _ in shape("H9 H9 H8 H8", 8, H, LevelChain.LEVELS_AND_JOKERS)] == ["pair", "pair"]


def test_equal_level_cards_never_chain_together() -> None:
    assert [k for k, _, _ in shape("S8 S8 C8 C8", 8, H)] == ["pair", "pair"]


def test_no_trump_a_level_pair_chains_to_bj() -> None:
    for chain in LevelChain:
        assert shape("C8 C8 BJ BJ", 8, None, chain) == [("tractor", 2, cs("BJ")[0])]


def test_longest_tractor_first_then_pairs_then_singles() -> None:
    got = shape("S3 S3 S4 S4 S5 S5 S9 S9 ST ST SK SK SA", 8, H)
    assert got == [
        ("tractor", 3, cs("S5")[0]),
        ("tractor", 2, cs("ST")[0]),
        ("pair", 1, cs("SK")[0]),
        ("single", 0, cs("SA")[0]),
    ]


# --- following ---------------------------------------------------------------------------------


CTX8H = trump(8, H, LevelChain.THROUGH_TRUMP)


@pytest.mark.parametrize(
    ("lead", "hand", "play", "error"),
    [
        ("SA", "SK D3", "D3", FollowError.SUIT),  # must follow suit
        ("SA", "SK D3", "SK", None),
        ("SA", "D3 H3", "H3", None),  # void: trump
        ("SA", "D3 H3", "D3", None),  # void: discard
        ("SA SA", "S3 S3 S4 C5", "S3 S4", FollowError.PAIR),
        ("SA SA", "S3 C5 D6", "S3 C5", None),  # one card of the suit: it goes, then anything
        ("SA SA", "S3 S4 C5", "C5 D5", FollowError.NOT_HELD),
        ("SA SA", "S3 S4 C5", "S3", FollowError.COUNT),
        # a tractor must be matched by a tractor when the hand has one
        ("SA SA SK SK", "S3 S3 S4 S4 S6 S6", "S3 S3 S6 S6", FollowError.TRACTOR),
        ("SA SA SK SK", "S3 S3 S4 S4 S6 S6", "S3 S3 S4 S4", None),
        # no tractor: the pairs still must come (§5.1 ⚖ pairs even when the tractor cannot be)
        ("SA SA SK SK", "S3 S3 S6 S6 S9 SJ", "S3 S3 S9 SJ", FollowError.PAIR),
        ("SA SA SK SK", "S3 S3 S6 S6 S9 SJ", "S3 S3 S6 S6", None),
        # a throw (pair + single): the pair must be matched
        ("SA SA SK", "S3 S3 S4 S5", "S3 S4 S5", FollowError.PAIR),
        ("SA SA SK", "S3 S3 S4 S5", "S3 S3 S5", None),
        # trump lead: level cards and jokers are trump
        ("HA", "S8 D3", "D3", FollowError.SUIT),
        ("HA", "S8 D3", "S8", None),
        # a led 3-pair tractor, the hand has a 2-pair run: longest matched run first, then a pair
        ("SA SA SK SK SQ SQ", "S3 S3 S4 S4 S6 S6 S9", "S3 S3 S6 S6 S4 S9", FollowError.TRACTOR),
        ("SA SA SK SK SQ SQ", "S3 S3 S4 S4 S6 S6 S9", "S3 S3 S4 S4 S6 S9", FollowError.PAIR),
        ("SA SA SK SK SQ SQ", "S3 S3 S4 S4 S6 S6 S9", "S3 S3 S4 S4 S6 S6", None),
        # mixed structures: a thrown tractor and a single; the follower has a run J-Q (playing 8)
        ("S3 S3 S4 S4 S6", "SJ SJ SQ SQ SK SA S9 S9", "S9 S9 SJ SJ SA", FollowError.TRACTOR),
        ("S3 S3 S4 S4 S6", "SJ SJ SQ SQ SK SA S9 S9", "SJ SJ SQ SQ S9", None),
        # a tractor and two pairs led; a run of three held: its top two as the tractor, then pairs
        (
            "S3 S3 S4 S4 S6 S6 S9 S9",
            "SJ SJ SQ SQ SK SK SA S2 S5",
            "SJ SJ SQ SQ SK SA S2 S5",
            FollowError.PAIR,
        ),
        ("S3 S3 S4 S4 S6 S6 S9 S9", "SJ SJ SQ SQ SK SK SA S2 S5", "SJ SJ SQ SQ SK SK SA S2", None),
        # two tractors led, one run of four held: it covers both
        ("S3 S3 S4 S4 S6 S6 S7 S7", "S9 S9 ST ST SJ SJ SQ SQ SA", "S9 S9 ST ST SJ SJ SQ SQ", None),
        (
            "S3 S3 S4 S4 S6 S6 S7 S7",
            "S9 S9 ST ST SJ SJ SQ SQ SA",
            "S9 S9 ST ST SJ SJ SQ SA",
            FollowError.TRACTOR,
        ),
    ],
)
def test_following(lead: str, hand: str, play: str, error: FollowError | None) -> None:
    assert follow_error(cs(lead), cs(hand), cs(play), CTX8H) == error


# --- tricks ------------------------------------------------------------------------------------


def test_highest_of_the_led_suit_wins_and_equal_cards_first_played_wins() -> None:
    assert trick_winner([cs("SK"), cs("SA"), cs("SA"), cs("S3")], CTX8H) == 1


def test_a_void_player_trumps_and_an_over_trump_wins() -> None:
    assert trick_winner([cs("SA"), cs("H3"), cs("H4"), cs("SK")], CTX8H) == 2
    assert trick_winner([cs("SA"), cs("H3"), cs("C8"), cs("BJ")], CTX8H) == 3


def test_trumping_a_pair_needs_a_pair() -> None:
    assert trick_winner([cs("S3 S3"), cs("H3 H4"), cs("S4 S5"), cs("D3 D3")], CTX8H) == 0
    assert trick_winner([cs("S3 S3"), cs("H3 H3"), cs("S4 S5"), cs("D3 D3")], CTX8H) == 1


def test_trumping_a_tractor_needs_a_tractor() -> None:
    lead = cs("S3 S3 S4 S4")
    assert trick_winner([lead, cs("HA HA HK HK"), cs("BJ BJ RJ RJ"), cs("H9 H9 H3 H3")], CTX8H) == 2
    assert trick_winner([lead, cs("HA HA HQ HQ"), cs("S5 S6 S7 S9"), cs("D3 D3 D4 D4")], CTX8H) == 0


def test_trumping_a_throw_the_tractor_decides_else_the_pair() -> None:
    lead = cs("SA SA SK")  # a pair and a single
    assert trick_winner([lead, cs("H3 H3 HA"), cs("H4 H4 H2"), cs("D3 D4 D5")], CTX8H) == 2
    # a higher single does not help without the pair
    assert trick_winner([lead, cs("H3 H3 H2"), cs("HA HK BJ"), cs("D3 D4 D5")], CTX8H) == 1


def test_same_shape_of_another_side_suit_never_wins() -> None:
    assert trick_winner([cs("S3 S3"), cs("CA CA"), cs("S4 S5"), cs("DA DA")], CTX8H) == 0


# --- throws ------------------------------------------------------------------------------------


def test_a_throw_stands_when_nobody_holds_a_higher_component() -> None:
    assert throw_failures(cs("SA SK SK"), [cs("SQ SQ"), cs("SA"), cs("H3")], CTX8H) == []


def test_a_throw_fails_on_any_hand_the_partner_included_and_the_smallest_failure_is_played() -> None:
    throw = cs("SK SQ SQ")
    failures = throw_failures(throw, [cs("D3"), cs("SA"), cs("H3")], CTX8H)  # the partner holds SA
    assert [c.kind for c in failures] == [Kind.SINGLE]
    failures = throw_failures(throw, [cs("SA"), cs("SK SK"), cs("H3")], CTX8H)
    assert forced_component(failures).cards == tuple(cs("SK"))


def test_a_thrown_tractor_fails_on_a_higher_tractor_only() -> None:
    throw = cs("S9 S9 S7 S7 SA")  # tractor 9977 (playing 8) and SA
    assert throw_failures(throw, [cs("SJ SJ ST ST")], CTX8H)
    assert not throw_failures(throw, [cs("SJ SJ S4 S4 SK")], CTX8H)


def test_a_single_component_is_never_a_failed_throw() -> None:
    assert throw_failures(cs("S3 S3"), [cs("SA SA")], CTX8H) == []


# --- the kitty, results, levels ----------------------------------------------------------------


def _comps(text: str) -> list:
    return decompose(cs(text), CTX8H)


@pytest.mark.parametrize(
    ("lead", "yaoji", "common"),
    [
        ("S3", 2, 2),
        ("S3 S3", 4, 4),
        ("S3 S3 S4 S4", 8, 8),
        ("S3 S3 S4 S4 S5 S5", 16, 16),
        ("SA SK", 3, 2),  # a singles-only throw: 003 ×3, 004 ×2
        ("SA SA SK", 4, 4),  # a throw with a pair counts as a pair
        ("SA SA SK SK SJ", 8, 8),  # … with a tractor as its longest tractor
    ],
)
def test_kitty_multiplier(lead: str, yaoji: int, common: int) -> None:
    assert kitty_multiplier(_comps(lead), Y.singles_throw_kitty.factor) == yaoji
    assert kitty_multiplier(_comps(lead), C.singles_throw_kitty.factor) == common


@pytest.mark.parametrize(
    ("points", "yaoji", "common"),
    [
        (0, (True, 2, False), (True, 3, False)),
        (5, (True, 2, False), (True, 2, False)),
        (35, (True, 2, False), (True, 2, False)),
        (40, (True, 1, False), (True, 1, False)),
        (75, (True, 1, False), (True, 1, False)),
        (80, (False, 0, True), (False, 0, True)),
        (115, (False, 0, True), (False, 0, True)),
        (120, (False, 1, True), (False, 1, True)),
        (160, (False, 2, True), (False, 2, True)),
        (200, (False, 3, True), (False, 3, True)),
        (240, (False, 4, True), (False, 4, True)),
        (-30, (True, 2, False), (True, 3, False)),  # negative totals count as 0
    ],
)
def test_result_table(points: int, yaoji: tuple, common: tuple) -> None:
    assert tuple(lv.result(points, ResultTable.YAOJI)) == yaoji
    assert tuple(lv.result(points, ResultTable.COMMON)) == common


def test_next_dealer() -> None:
    assert lv.next_dealer(1, True) == 3 and lv.next_dealer(3, False) == 0


def test_game_end_and_points() -> None:
    assert lv.game_over([15, 9], Y, time_up=False)
    assert not lv.game_over([14, 9], Y, time_up=False)
    assert lv.game_over([11, 9], C, time_up=False)  # 004: first past 10
    assert lv.game_over([9, 9], Y, time_up=True)
    assert not lv.game_over([9, 9], Options(draws=False), time_up=True)
    assert lv.game_points([15, 9], Y) == ((2, 0), (6, -6))
    assert lv.game_points([9, 9], Y) == ((1, 1), (0, 0))
    assert lv.game_points([9, 9], Y, decider=1) == ((0, 2), (0, 0))


# --- declaring ---------------------------------------------------------------------------------


def _declare(options: Options, level: int, bids: list[tuple[int, str]]) -> tuple[list[bool], dc.Declared]:
    state = dc.Declared()
    ok = []
    for seat, text in bids:
        try:
            state = dc.check(state, dc.read(seat, cs(text), level), options)
        except ValueError:
            ok.append(False)
        else:
            ok.append(True)
    return ok, state


def test_a_level_card_declares_and_the_declarer_reinforces() -> None:
    for options in (Y, C):
        ok, state = _declare(options, 2, [(0, "H2"), (0, "H2")])
        assert ok == [True, True] and state.standing == dc.Declaration(0, cs("H2")[0], 2)


def test_jokers_alone_never_declare_and_non_level_cards_never_do() -> None:
    for options in (Y, C):
        assert _declare(options, 2, [(0, "BJ BJ"), (1, "H3"), (2, "RJ")])[0] == [False] * 3


def test_nobody_overcalls_their_own_declaration() -> None:
    for options in (Y, C):
        assert _declare(options, 2, [(0, "H2"), (0, "S2 S2")])[0] == [True, False]


def test_yaoji_overcalls() -> None:
    ok, state = _declare(Y, 2, [(0, "H2"), (1, "S2 S2"), (2, "C2 C2"), (3, "BJ BJ"), (0, "RJ RJ")])
    assert ok == [True, True, False, True, False]  # pair over single; jokers over a pair; none over jokers
    assert state.trump_suit() is None and state.standing is not None and state.standing.seat == 3
    assert dc.outcome(state, Y, [])[1:] == (3, 3)  # 003: the overcall takes the dealership


def test_common_overcalls_need_more_cards_of_another_suit() -> None:
    ok, state = _declare(C, 2, [(0, "H2"), (1, "H2 H2"), (1, "S2 S2"), (2, "C2 C2")])
    assert ok == [True, False, True, False]
    assert dc.outcome(state, C, [])[1:] == (1, 0)  # 004: the first declarer deals board 1


@pytest.mark.parametrize(
    "before",
    [
        [(0, "H2")],  # a single
        [(0, "H2"), (0, "H2")],  # reinforced
        [(0, "H2"), (1, "S2 S2")],  # an overcall pair
        [(0, "H2 H2")],  # a pair shown at once
    ],
)
def test_common_a_joker_pair_overcalls_any_level_card_declaration_for_no_trump(before: list) -> None:
    """004 §6 (反主后还可用一对大(小)王反无主): a joker pair over a single or a pair, reinforced or not."""
    ok, state = _declare(C, 2, [*before, (2, "BJ BJ"), (3, "RJ RJ"), (0, "S2 S2")])
    assert ok == [True] * len(before) + [True, False, False]  # nothing overcalls a joker pair
    assert state.trump_suit() is None and state.standing is not None and state.standing.seat == 2
    assert dc.outcome(state, C, [])[1:] == (2, 0)  # the first declarer still deals board 1


def test_nobody_declared() -> None:
    kitty = cs("RJ D5 S3 S4 S5 S6 S7 S9")
    assert dc.outcome(dc.Declared(), Y, kitty) == (None, None, 0)  # 003: no trump
    assert dc.outcome(dc.Declared(), C, kitty) == (D, None, 0)  # 004: the first non-joker's suit


def test_the_level_gap_and_aa22_in_both_presets() -> None:
    for chain in LevelChain:
        assert shape("S9 S9 S7 S7", 8, H, chain) == [("tractor", 2, cs("S9")[0])]
        assert [k for k, _, _ in shape("SA SA S2 S2", 8, H, chain)] == ["pair", "pair"]
        assert [k for k, _, _ in shape("HA HA S2 S2", 2, H, chain)] == ["pair", "pair"]


def test_following_a_trump_lead_differs_by_preset_where_the_tractor_does() -> None:
    """Led HA HA S8 S8 (playing 8, hearts trump): 003 a tractor (trump A → off-suit level), 004 two pairs."""
    lead, hand, play = cs("HA HA S8 S8"), cs("HK HK HQ HQ H9 H9"), cs("HK HK H9 H9")
    yaoji = trump(8, H, LevelChain.THROUGH_TRUMP)
    common = trump(8, H, LevelChain.LEVELS_AND_JOKERS)
    assert follow_error(lead, hand, play, yaoji) == FollowError.TRACTOR
    assert follow_error(lead, hand, cs("HK HK HQ HQ"), yaoji) is None
    assert follow_error(lead, hand, play, common) is None


def test_over_trumping_a_tractor_in_both_presets() -> None:
    lead = cs("S3 S3 S4 S4")
    for chain in LevelChain:
        ctx = trump(8, H, chain)
        plays = [lead, cs("H3 H3 H4 H4"), cs("H6 H6 H7 H7"), cs("S5 S6 S7 S9")]
        assert trick_winner(plays, ctx) == 2
    # BJ BJ RJ RJ over H8 H8 S8 S8 … only where the level cards chain (both) — and HA HA + S8 S8 only in 003
    plays = [lead, cs("HA HA S8 S8"), cs("H3 H3 H5 H5"), cs("D3 D3 D4 D4")]
    assert trick_winner(plays, trump(8, H, LevelChain.THROUGH_TRUMP)) == 1
    assert trick_winner(plays, trump(8, H, LevelChain.LEVELS_AND_JOKERS)) == 0


def test_order_side_suits_as_blocks_s_h_c_d_each_from_a_down_after_the_trump_block() -> None:
    """Issue 34: the calculator's (and the handset's) order; equal-strength trumps listed S, H, C, D."""
    ctx = trump(8, H, LevelChain.THROUGH_TRUMP)
    got = ctx.ordered(cs("D3 DA S9 C7 CK S7 HA SA H3 D8 S8 C8 BJ D9"))
    assert got == cs("BJ S8 C8 D8 HA H3 SA S9 S7 CK C7 DA D9 D3")
    no_trump = trump(5, None, LevelChain.LEVELS_AND_JOKERS)
    assert no_trump.ordered(cs("D5 H5 C5 S5 RJ SA DK")) == cs("RJ S5 H5 C5 D5 SA DK")
