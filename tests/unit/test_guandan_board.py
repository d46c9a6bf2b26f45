"""The Guandan board (RULES.md §4, §4.2): first lead, trick play, readings of wild plays, passing wind,
双下 and three out, reports, tribute → return → play, penalties, timing, carry and JSON round trip."""

import random
from collections import Counter
from fractions import Fraction

import pytest
from deckhand.engines.common.cards import make_deck, parse_cards
from deckhand.engines.contract import Action, Rejected
from deckhand.engines.guandan.board import LEAD, PLAY, RETURN, TIMING, TRIBUTE, GuandanBoard, SeatView
from deckhand.engines.guandan.tribute import is_small
from deckhand.errors import DeckhandError


def C(text):
    return sorted(parse_cards(text.split(), decks=2, jokers=True))


def deck(seed=0):
    d = make_deck(decks=2, jokers=True)
    random.Random(seed).shuffle(d)
    return d


def playing(*hands, leader=0, levels=("2", "2"), **carry):
    """A board in play whose hands are replaced by small ones (the play rules do not care how many)."""
    b = GuandanBoard.from_deal(deck(), {"leader": leader, "levels": list(levels), "level_side": 0, **carry})
    b.hands = [C(h) for h in hands]
    return b


def rejects(b, action, code):
    before = b.to_json()
    with pytest.raises(Rejected) as err:
        b.apply(action)
    assert err.value.code == code
    assert b.to_json() == before  # a refused action changes nothing


def play(b, seat, text, **data):
    b.apply(Action(seat, "play", tuple(C(text)), data=data or None))


def test_first_board_deals_27_each_no_tribute_and_the_turned_card_names_the_leader():
    order = deck(3)
    b = GuandanBoard.from_deal(order, None)
    assert b.counts() == [27, 27, 27, 27] and b.phase == PLAY
    assert b.leader == b.turn == order[0] % 108 % 4 and b.pending() == [b.turn]
    assert b.level == 12 and b.deal_index == 0 and not b.finished
    assert GuandanBoard.from_deal(order, {"leader": 2}).turn == 2
    with pytest.raises(DeckhandError):
        GuandanBoard.from_deal(order[:100], None)


def test_trick_play_and_reason_codes():
    b = playing("S3 S4 S9 SK", "D6 D9 DQ DQ", "C8 C9 CT", "H3 HJ HQ", leader=0)
    rejects(b, Action(0, "pass"), "cannot_pass_lead")
    rejects(b, Action(1, "play", tuple(C("D6"))), "not_your_turn")
    rejects(b, Action(0, "play", tuple(C("S3 S4"))), "not_a_combination")
    rejects(b, Action(0, "play", tuple(C("SA"))), "not_in_hand")
    rejects(b, Action(0, "tribute", tuple(C("S3"))), "phase_closed")
    rejects(b, Action(0, "shout"), "bad_action")
    rejects(b, Action(7, "pass"), "bad_seat")
    play(b, 0, "S3")
    rejects(b, Action(1, "play", tuple(C("DQ DQ"))), "wrong_type")
    play(b, 1, "D6")
    rejects(b, Action(2, "play", tuple(C("C8 C9"))), "not_a_combination")
    b.apply(Action(2, "pass"))
    rejects(b, Action(3, "play", tuple(C("H3"))), "does_not_beat")
    b.apply(Action(3, "pass"))
    b.apply(Action(0, "pass"))  # three passes: the last player leads
    assert b.turn == 1 and b.last == () and b.trick == []


def test_a_play_with_several_readings_needs_one_declared_and_a_reading_the_cards_cannot_make_is_refused():
    """§4.2: H7 S5 S6 S8 S9 at level 7 reads as a straight and a straight flush, both topped by 9."""
    b = playing("H7 S5 S6 S8 S9 D3", "D4", "D5", "D6", leader=0, levels=("7", "2"))
    cards = tuple(C("H7 S5 S6 S8 S9"))
    rejects(b, Action(0, "play", cards), "reading_needed")
    rejects(b, Action(0, "play", cards, data={"as": ["S5", "S6", "S7", "S8", "ST"]}), "bad_reading")
    rejects(
        b,
        Action(0, "play", cards, data={"as": ["S5", "S6", "S7", "S8", "S9"], "type": "straight"}),
        "bad_reading",
    )
    rejects(b, Action(0, "play", cards, data="straight"), "bad_reading")
    plays = [a for a in b.legal_actions(0) if a.cards == cards]
    assert sorted(a.data["type"] for a in plays) == ["straight", "straight_flush"]
    b.apply(Action(0, "play", cards, data={"as": ["S5", "S6", "S7", "S8", "S9"]}))
    assert b.last_reading is not None and b.last_reading.type.json_name == "straight_flush"


def test_passing_wind_the_partner_of_a_player_out_leads():
    b = playing("S3", "D4 D5", "C6 C7", "H8 H9", leader=0)
    play(b, 0, "S3")
    assert b.out == [0] and b.turn == 1
    for s in (1, 2, 3):
        b.apply(Action(s, "pass"))
    assert b.turn == 2 and b.winds == 1 and b.last == ()


def test_double_down_ends_the_board_at_once():
    b = playing("S3", "D4 D5", "S4", "H8 H9", leader=0)
    play(b, 0, "S3")
    b.apply(Action(1, "pass"))
    play(b, 2, "S4")
    assert b.finished and b.pending() == [] and b.legal_actions(1) == []
    r = b.result()
    assert r["order"][:2] == [0, 2] and r["scores"] == [3, -3, 3, -3] and r["sides"] == [[0, 2], [1, 3]]
    assert r["carry"]["double_down"] and r["carry"]["levels"] == ["5", "2"] and r["carry"]["level_side"] == 0


def test_the_board_ends_when_three_are_out():
    b = playing("S3", "D4", "S5", "H8 H9", leader=0)
    play(b, 0, "S3")
    play(b, 1, "D4")
    play(b, 2, "S5")
    r = b.result()
    assert r["order"] == [0, 1, 2, 3] and r["scores"] == [2, -2, 2, -2] and r["carry"]["levels"] == ["4", "2"]
    with pytest.raises(DeckhandError):
        playing("S3", "D4", "S5", "H8").result()


def test_a_hand_of_ten_or_fewer_is_reported_once_in_every_view():
    b = playing("S3 S3 D4 D5 D6 D7 D8 D9 DT DJ DQ DK", "C4 C5", "C6 C7", "H8 H9", leader=0)
    play(b, 0, "S3 S3")
    assert b.reports == [(0, 10)]
    assert all(b.view(s)["reports"] == [{"seat": 0, "cards": 10}] for s in range(4))
    for s in (1, 2, 3):
        b.apply(Action(s, "pass"))
    play(b, 0, "D4")
    assert b.reports == [(0, 10)]


def tribute_board(order, seed=5, **extra):
    for s in range(seed, seed + 50):
        b = GuandanBoard.from_deal(deck(s), {"levels": ["5", "3"], "level_side": 0, "order": order, **extra})
        if not b.resisted:
            return b
    raise AssertionError("no seed without resisting")


def test_single_tribute_then_return_then_the_payer_leads():
    b = tribute_board([0, 1, 2, 3])
    assert b.phase == TRIBUTE and b.pending() == [3] and b.legal_actions(0) == []
    allowed = b.legal_actions(3)
    assert allowed and all(a.kind == "tribute" for a in allowed)
    low = min(b.hands[3])
    if Action(3, "tribute", (low,)) not in allowed:
        rejects(b, Action(3, "tribute", (low,)), "not_highest")
    rejects(b, Action(3, "tribute", (low, low)), "one_card")
    paid = allowed[0].cards[0]
    b.apply(allowed[0])
    assert b.phase == RETURN and b.pending() == [0] and b.counts() == [28, 27, 27, 26]
    assert b.view(1)["tribute"]["transfers"] == [
        {"from": 3, "to": 0, "card": b.view(0)["tribute"]["transfers"][0]["card"]}
    ]
    top = max(b.hands[0])
    b.apply(Action(0, "return", (top,)))  # to an opponent any card
    assert b.phase == PLAY and b.turn == b.leader == 3 and b.counts() == [27, 27, 27, 27]
    assert paid in b.hands[0] and top in b.hands[3]


def test_a_return_to_ones_partner_must_be_10_or_lower():
    b = tribute_board([0, 1, 3, 2])  # the last finisher is the first finisher's partner
    assert b.pending() == [2]
    b.apply(b.legal_actions(2)[0])
    returns = b.legal_actions(0)
    assert returns and all(is_small(a.cards[0], b.level) for a in returns)
    big = next(c for c in b.hands[0] if not is_small(c, b.level))
    rejects(b, Action(0, "return", (big,)), "return_not_allowed")
    b.apply(returns[0])
    assert b.turn == 2


def test_the_2022_option_applies_to_opponents_too():
    b = tribute_board([0, 1, 2, 3], options={"return_rule": "2022"})
    b.apply(b.legal_actions(3)[0])
    assert all(is_small(a.cards[0], b.level) for a in b.legal_actions(0))


def test_double_tribute_both_pay_at_once_higher_card_to_the_first_finisher():
    b = tribute_board([0, 2, 1, 3])
    assert b.phase == TRIBUTE and b.pending() == [1, 3] and b.double
    first = b.legal_actions(1)[0]
    b.apply(first)
    assert b.pending() == [3]
    assert b.view(1)["tribute"]["transfers"] == [
        {"from": 1, "to": None, "card": b.view(1)["tribute"]["transfers"][0]["card"]}
    ]
    assert b.view(3)["tribute"]["transfers"] == []  # the other payer's card is hidden until both pay
    b.apply(b.legal_actions(3)[0])
    assert b.phase == RETURN and sorted(b.pending()) == [0, 2]
    receivers = {g: r for g, r, _ in b.transfers}
    assert sorted(receivers.values()) == [0, 2]
    b.apply(b.default_action(0))
    b.apply(b.default_action(2))
    assert b.phase == PLAY and b.turn == b.leader in (1, 3)
    if receivers[1] == 0 and b.transfers[0][2] != b.transfers[1][2]:
        assert b.leader == 1


def test_resisting_with_both_red_jokers_the_first_finisher_leads():
    d = make_deck(decks=2, jokers=True)
    for c in (53, 53):
        d.remove(c)
    hands = [d[0:27], [53, 53] + d[27:52], d[52:79], d[79:106]]
    b = GuandanBoard(hands, {"levels": ["5", "3"], "level_side": 1, "order": [0, 2, 3, 1]})
    assert b.resisted and b.phase == PLAY and b.turn == 0 and b.payers == []


def test_a_violation_loses_the_next_turn_and_a_warning_is_recorded():
    b = playing("S3 S4", "D4 D5", "C6 C7", "H8 H9", leader=0)
    b.apply(Action(1, "violation"))
    b.apply(Action(2, "warning"))
    play(b, 0, "S3")
    assert b.turn == 2 and b.trick[-1] == (1, ())  # seat 1's turn was passed for it
    assert b.penalties == [(1, "violation"), (2, "warning")]
    assert b.view(3)["lost_turns"] == [0, 0, 0, 0]


def test_timeouts_pass_with_a_violation_even_a_lead():
    b = playing("S3 S4", "D4 D5", "C6 C7", "H8 H9", leader=0)
    assert (
        b.view(0)["timing"]
        == TIMING[PLAY]._asdict()
        == {"warn_s": 20, "limit_s": 30, "default": "pass", "penalty": "violation"}
    )
    d = b.default_action(0)
    assert d == Action(0, "pass", timeout=True) and b.default_action(1) is None
    b.apply(d)
    assert b.turn == 1 and b.penalties == [(0, "violation (timeout)")]
    play(b, 1, "D4")
    b.apply(b.default_action(2))
    assert b.turn == 3 and b.violations == [2, 0]


def test_a_foul_loses_the_board_as_double_down_no_tribute_and_the_opponents_name_the_leader():
    b = playing("S3 S4", "D4 D5", "C6 C7", "H8 H9", leader=0)
    b.apply(Action(1, "foul"))
    assert b.finished
    r = b.result()
    assert r["scores"] == [3, -3, 3, -3] and r["order"][:2] == [0, 2] and r["ended_by"] == "foul"
    carry = r["carry"]
    assert carry["no_tribute"] and carry["chooser_side"] == 0 and carry["penalties"]["fouls"] == [0, 1]
    rejects(b, Action(1, "warning"), "phase_closed")
    nxt = GuandanBoard.from_deal(deck(9), carry)
    assert nxt.phase == LEAD and nxt.pending() == [0] and nxt.payers == []
    assert nxt.default_action(0) == Action(0, "lead", value=0, timeout=True)
    rejects(nxt, Action(2, "lead", value=1), "not_your_turn")
    nxt.apply(Action(0, "lead", value=3))
    assert nxt.phase == PLAY and nxt.turn == 3 and nxt.counts() == [27] * 4


@pytest.mark.parametrize("kind", ["forfeit", "disqualify"])
def test_a_game_forfeit_or_disqualification_ends_the_game_2_0_and_18_0(kind):
    b = playing("S3", "D4", "C6", "H8", leader=0, levels=("5", "7"))
    b.apply(Action(3, kind))
    carry = b.result()["carry"]
    assert carry["game_over"] and carry["game"] == {
        "match_points": [2, 0],
        "level_points": [18, 0],
        "winner_side": 0,
    }
    assert carry["forfeit" if kind == "forfeit" else "disqualified"] == 1
    with pytest.raises(DeckhandError):
        GuandanBoard.from_deal(deck(), carry)


def test_time_up_makes_the_board_the_last_and_ends_the_game():
    b = playing("S3", "D4", "C6", "H8", leader=0, options={"end_mode": "time"})
    assert not b.view(0)["no_new_board"]
    b.apply(Action(0, "time_up"))
    assert b.view(2)["no_new_board"]
    play(b, 0, "S3")
    play(b, 1, "D4")
    play(b, 2, "C6")
    carry = b.result()["carry"]
    assert carry["game_over"] and carry["game"]["winner_side"] == 0


def test_the_nth_board_is_the_last_in_the_boards_mode_and_a_level_knockout_plays_an_extra_board():
    opts = {"end_mode": "boards", "boards": 3, "draws": False}
    b = playing("S3", "D4", "C6", "H8", leader=0, boards=2, options=opts)
    assert b.view(0)["no_new_board"]
    with pytest.raises(DeckhandError):
        GuandanBoard.from_deal(deck(), {"levels": ["5", "3"], "boards": 3, "options": opts})
    extra = GuandanBoard.from_deal(deck(), {"levels": ["5", "5"], "boards": 3, "leader": 0, "options": opts})
    assert extra.extra
    extra.hands = [C("S3"), C("D4"), C("C6"), C("H8")]
    for s, t in ((0, "S3"), (1, "D4"), (2, "C6")):
        play(extra, s, t)
    assert extra.result()["carry"]["game"]["match_points"] == [2, 0]


def test_carry_leads_to_the_next_board_at_the_winners_level():
    b = playing("S3", "D4", "C6", "H8", leader=0, levels=("3", "9"))
    b.level_side = 1
    play(b, 0, "S3")
    b.apply(Action(1, "pass"))
    play(b, 2, "C6")
    carry = b.result()["carry"]
    assert (
        carry["levels"] == ["6", "9"]
        and carry["level_side"] == 0
        and carry["played"] == {"side": 1, "level": "9"}
    )
    nxt = GuandanBoard.from_deal(deck(2), carry)
    assert nxt.level == 3 and nxt.phase in (TRIBUTE, PLAY) and nxt.boards == 1


def test_json_round_trip_views_and_every_legal_action_accepted_through_a_board():
    rng = random.Random(11)
    b = tribute_board([1, 3, 0, 2])
    while not b.finished:
        text = b.to_json()
        again = GuandanBoard.from_json(text)
        assert again == b and again.to_json() == text
        for s in range(4):
            v = b.view(s)
            assert SeatView.from_dict(v).to_dict() == v
            assert len(v["hand"]) == b.counts()[s]
        seat = b.pending()[0]
        actions = b.legal_actions(seat)
        for a in actions[:40]:
            b.check(a)
        b.apply(rng.choice(actions) if rng.random() < 0.7 else actions[0])
    assert sum(b.result()["scores"][s] for s in (0, 1)) == 0
    with pytest.raises(DeckhandError):
        GuandanBoard.from_json('{"r": "bigtwo-2017"}')


def test_tribute_and_return_clocks_their_defaults_and_a_late_return_is_a_violation_that_loses_a_turn():
    # RULES.md §4 "Timing": tribute within 15 s; return within 30 s, a warning, a violation 15 s later;
    # §4 "Penalties": a violation also loses the seat's next turn.
    from deckhand.engines.guandan import tribute as tb

    b = tribute_board([0, 1, 2, 3])
    assert TIMING[TRIBUTE].warn_s is None and TIMING[TRIBUTE].limit_s == 15
    clock = b.timing(3)
    assert clock is not None and clock.limit_ms == 15_000 and clock.warn_ms is None
    pay = b.default_action(3)
    assert pay is not None and pay.kind == "tribute" and pay.timeout and clock.default == pay
    top = max(tb.strength(c, b.level) for c in b.hands[3] if not tb.is_wild(c, b.level))
    assert tb.strength(pay.cards[0], b.level) == top and not tb.is_wild(pay.cards[0], b.level)
    b.apply(pay)
    assert b.penalties == []  # the seed gives a late tribute no penalty
    assert b.view(0)["timing"] == TIMING[RETURN]._asdict()
    assert (TIMING[RETURN].warn_s, TIMING[RETURN].limit_s) == (30, 45)
    clock = b.timing(0)
    assert clock is not None and (clock.warn_ms, clock.limit_ms) == (30_000, 45_000)
    back = b.default_action(0)
    assert back is not None and back.kind == "return" and back.timeout
    allowed = [a.cards[0] for a in b.legal_actions(0)]
    assert tb.strength(back.cards[0], b.level) == min(tb.strength(c, b.level) for c in allowed)
    b.apply(Action(0, "warning", timeout=True))
    b.apply(back)
    assert b.penalties == [(0, "warning (timeout)"), (0, "violation (timeout)")]
    assert b.warnings == [1, 0] and b.violations == [1, 0]
    assert b.phase == PLAY and b.turn == 3 and b.lost[0] == 1
    b.apply(next(a for a in b.legal_actions(3) if a.kind == "play" and len(a.cards) == 1))
    assert b.turn == 1 and b.lost[0] == 0  # seat 0's turn was passed for it


def test_a_follow_that_only_one_reading_beats_needs_no_declaration():
    # H7 S5 S6 S8 S9 at level 7 reads as a straight and a straight flush (§4.2); on a straight topped
    # by 9 only the straight flush beats, so that reading is taken without asking.
    b = playing("D5 C6 D7 C8 D9 S4", "H7 S5 S6 S8 S9 D3", "C3", "C4", leader=0, levels=("7", "7"))
    play(b, 0, "D5 C6 D7 C8 D9")
    play(b, 1, "H7 S5 S6 S8 S9")
    assert b.last_reading is not None and b.last_reading.type.json_name == "straight_flush"


def test_paid_tribute_cards_stay_hidden_until_both_payers_have_paid():
    b = tribute_board([0, 2, 1, 3])
    b.apply(b.legal_actions(1)[0])
    for seat in (0, 2, 3):
        assert b.view(seat)["tribute"]["transfers"] == []
    b.apply(b.legal_actions(3)[0])
    assert len(b.view(0)["tribute"]["transfers"]) == 2


def _joker_prefixes(left: Counter[int], total: int) -> list[tuple[list[int], Fraction]]:
    """Every run of jokers a shuffle may start with, and its probability (before a suited card)."""
    out: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    for joker in (52, 53):
        if left[joker]:
            rest = left.copy()
            rest[joker] -= 1
            for tail, p in _joker_prefixes(rest, total - 1):
                out.append(([joker, *tail], Fraction(left[joker], total) * p))
    return out


def test_the_first_leader_of_a_match_is_drawn_uniformly_from_the_shuffle() -> None:
    """⚖ §4.2 "First lead": the shuffle's first non-joker card names the seat by its suit, 13 of the
    52 suited cards a seat (the shuffle's first card itself, jokers included, gave seats 0 and 1 14/54).
    Exactly: every start of a shuffle (jokers, then a suited card) dealt by ``from_deal``, weighed by
    its probability."""
    deck = make_deck(decks=2, jokers=True)
    chance: dict[int, Fraction] = {s: Fraction(0) for s in range(4)}
    for jokers, p in _joker_prefixes(Counter({52: 2, 53: 2}), 108):
        for card in range(52):
            start = [*jokers, card]
            rest = list(deck)
            for c in start:
                rest.remove(c)
            after = 108 - len(jokers)
            leader = GuandanBoard.from_deal(start + rest).leader
            chance[leader] += p * Fraction(2, after)
    assert chance == {s: Fraction(1, 4) for s in range(4)}
    # and drawn: 100,000 seeded shuffles, each seat within 0.5 points of 25 %
    rng = random.Random(34)
    drawn: Counter[int] = Counter()
    n = 100_000
    for _ in range(n):
        rng.shuffle(deck)
        drawn[GuandanBoard.first_leader_of_order(deck)] += 1
    assert all(abs(drawn[s] / n - 0.25) < 0.005 for s in range(4)), drawn
