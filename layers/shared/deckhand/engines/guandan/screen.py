"""Guandan's handset screen (device protocol v2): the hand by rank in the level order, levels, counts and
reports, the trick, the tribute, penalties, the board's end, and what to decide (RULES.md §4, §4.2).

Everything comes from the seat's own view (``seat_view``), which never holds another seat's hand nor
a tribute card before all have paid; the end lines come from the result, public once the board ends.
A play that reads several ways (wild cards) is refused ``reading_needed`` with an ask offering each
reading the rules accept now (:func:`offer`): the player picks one and the same cards go up with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..common import screen as draw
from ..common.cards import BLACK_JOKER, format_cards
from ..contract import Action
from . import levels as lv
from .board import END, LEAD, PLAY, RETURN, TRIBUTE, GuandanBoard, SeatView
from .combos import FACE, Combo, Reading, beats, readings
from .tribute import is_wild, strength

PLACES = ("1st", "2nd", "3rd", "4th")
SEQUENCES = (Combo.STRAIGHT, Combo.STRAIGHT_FLUSH, Combo.PAIR_STRAIGHT, Combo.TRIPLE_STRAIGHT)
MAX_READINGS = 6  # the most readings any play has (♠9 ♠10 ♠J and two wilds: three straights, three flushes)


def screen(board: object, seat: int) -> dict[str, Any]:
    """The screen of ``seat`` (docs/protocol.md: ``h``, ``l``, ``ask``)."""
    assert isinstance(board, GuandanBoard)
    v = board.seat_view(seat)
    lines: list[str | None] = [_status(board, v), _levels(v)]
    lines.append(_counts(v))
    lines.append(_out(v))
    if v.phase == PLAY:
        lines.append(_trick(v))
    lines.extend(_tribute(v))
    lines.append(_penalties(v))
    if v.phase == END:
        lines.extend(_end(board, v))
    elif v.no_new_board:
        lines.append("Last board of the game")
    return draw.screen(v.hand, lines, _ask(board, v), order=hand_order(v.level))


def hand_order(level: int) -> Any:
    """Display order: by rank in the level order (2 … A, level cards, the wild heart level cards, BJ, RJ),
    suits ♦ ♣ ♥ ♠ within a rank — identical cards of the two decks side by side."""

    def key(card: int) -> tuple[int, bool, int]:
        return (strength(card, level), is_wild(card, level), card)

    return key


def _text(cards: Sequence[int], level: int) -> str:
    return draw.cards_text(sorted(cards, key=hand_order(level)))


def _level_name(level: int) -> str:
    name = lv.format_level(level)
    return "10" if name == "T" else name


def _status(board: GuandanBoard, v: SeatView) -> str:
    seat = v.seat
    if v.phase == END:
        return "Board over"
    waiting = draw.seats_text(v.pending, seat)
    if v.phase == TRIBUTE:
        return "Tribute: waiting for " + waiting
    if v.phase == RETURN:
        return "Return: waiting for " + waiting
    if v.phase == LEAD:
        verb = "choose" if v.chooser == seat else "chooses"
        return f"After the foul {draw.seat_name(v.chooser, seat)} {verb} who leads"
    who = draw.seat_name(v.turn, seat)
    return who.capitalize() + (" to lead" if v.leading else " to play")


def _levels(v: SeatView) -> str:
    mine, theirs = v.levels[v.seat % 2], v.levels[1 - v.seat % 2]
    played = v.levels[v.level_side]
    whose = ""
    if mine == theirs:
        whose = " (yours)" if v.level_side == v.seat % 2 else " (theirs)"
    wild = v.level * 4 + 2
    held = sum(1 for c in v.hand if c == wild)
    return (
        f"Levels: you {_level_name(mine)}, them {_level_name(theirs)} \u2014 playing "
        f"{_level_name(played)}{whose}, wild {draw.card_text(wild)}" + (f" (you hold {held})" if held else "")
    )


def _counts(v: SeatView) -> str:
    line = "Cards: " + " ".join(f"{s}:{n}" for s, n in enumerate(v.counts))
    if v.reports:
        line += "  reported: " + ", ".join(f"{draw.seat_name(s, v.seat)} {n}" for s, n in v.reports)
    return line


def _out(v: SeatView) -> str | None:
    if not v.out or v.phase == END:
        return None
    return "Out: " + ", ".join(f"{draw.seat_name(s, v.seat)} {PLACES[i]}" for i, s in enumerate(v.out))


def _trick(v: SeatView) -> str | None:
    if not v.trick:
        return None
    shown = v.trick[-draw.TRICK_SHOWN :]
    parts = [f"{draw.seat_name(s, v.seat)} {_text(p, v.level) if p else 'pass'}" for s, p in shown]
    return "Trick: " + ("\u2026, " if len(v.trick) > draw.TRICK_SHOWN else "") + ", ".join(parts)


def _tribute(v: SeatView) -> list[str | None]:
    """Who pays whom, resisting, and the cards once public (a payer sees its own card before)."""
    seat = v.seat
    if v.resisted:
        return [f"Tribute resisted (both red jokers): {draw.seat_name(v.leader, seat)} leads"]
    lines: list[str | None] = []
    hidden = [t for t in v.transfers if t[1] < 0]
    if v.phase == TRIBUTE:
        payers = " and ".join(draw.seat_name(p, seat) for p in v.payers)
        lines.append(f"Tribute: {payers} {'pay' if len(v.payers) > 1 or payers == 'you' else 'pays'}")
        for _, _, card in hidden:
            lines.append(f"You paid {draw.card_text(card)} (shown when all have paid)")
    elif v.transfers:
        lines.append("Tribute: " + _moves(v.transfers, seat))
    if v.returns:
        lines.append(
            "Returned: "
            + _moves(v.returns, seat)
            + (" (the rest when all have returned)" if v.phase == RETURN else "")
        )
    return lines


def _moves(moves: Sequence[tuple[int, int, int]], seat: int) -> str:
    """Cards handed over, tribute or return alike: giver→receiver card, …"""
    return ", ".join(
        f"{draw.seat_name(g, seat)}\u2192{draw.seat_name(r, seat)} {draw.card_text(c)}" for g, r, c in moves
    )


def _penalties(v: SeatView) -> str | None:
    mine = [kind for s, kind in v.penalties if s == v.seat]
    lost = v.lost_turns[v.seat] if v.seat < len(v.lost_turns) else 0
    if not mine and not lost:
        return None
    text = "Penalties on you: " + (", ".join(mine) if mine else "none")
    if lost and v.phase != END:
        text += f"; you lose your next turn{'s' if lost > 1 else ''}" + (f" ({lost})" if lost > 1 else "")
    return text


def _end(board: GuandanBoard, v: SeatView) -> list[str | None]:
    """The finishing order, the level change and, at the game's end, its points (public at the end)."""
    seat = v.seat
    result = board.result()
    win = result["winner_side"]
    ours = win == seat % 2
    how = {
        "foul": "a foul",
        "forfeit": "a forfeit",
        "disqualify": "a disqualification",
    }.get(result["ended_by"])
    carry = result["carry"]
    before = v.levels
    after = [lv.parse_level(x) for x in carry["levels"]]
    lines: list[str | None] = [
        ("Your side won" if ours else "They won") + (f" (after {how})" if how else ""),
        "Order: " + draw.seats_text(result["order"], seat),
    ]
    if result["steps"]:
        side = "you" if ours else "them"
        lines.append(
            f"Level change: {side} +{result['steps']} "
            f"({_level_name(before[win])} \u2192 {_level_name(after[win])})"
        )
    else:
        lines.append(
            f"Levels stay: you {_level_name(after[seat % 2])}, them {_level_name(after[1 - seat % 2])}"
        )
    game = carry.get("game")
    if game:
        mp = game["match_points"]
        lines.append(f"Game over: match points you {mp[seat % 2]}, them {mp[1 - seat % 2]}")
    lines.append(draw.scores_line(result["scores"]))
    return lines


def _combo_name(r: Reading) -> str:
    if r.type == Combo.BOMB:
        return f"{r.size}-card bomb"
    return r.type.json_name.replace("_", " ")


def _ask(board: GuandanBoard, v: SeatView) -> dict[str, Any] | None:
    """What the seat decides now (None: nothing); tribute and return: only the legal cards selectable."""
    seat = v.seat
    if seat not in v.pending:
        return None
    if v.phase in (TRIBUTE, RETURN):
        kind = "tribute" if v.phase == TRIBUTE else "return"
        legal = sorted({a.cards[0] for a in board.legal_actions(seat) if a.kind == kind})
        hand = sorted(v.hand, key=hand_order(v.level))
        places: list[int] | None = [i for i, c in enumerate(hand) if c in legal]
        if places is not None and len(places) == len(hand):
            places = None  # any card
        choice = _one_of(legal, v.level, len(set(hand)))
        if kind == "tribute":
            return draw.ask(
                f"Pay your tribute: select {choice}", [draw.option("Pay", "tribute", cards=True)], places
            )
        giver = next(g for g, r, _ in v.transfers if r == seat)
        prompt = f"Return a card to {draw.seat_name(giver, seat)}: select {choice}"
        return draw.ask(prompt, [draw.option("Return", "return", cards=True)], places)
    if v.phase == LEAD:
        options = [draw.option(_seat_label(s, seat), "lead", s) for s in range(4)]
        return draw.ask("Who leads?", options)
    if v.leading:
        return draw.play_ask("Your lead", False)
    last = v.last_reading
    name = _combo_name(last) if last is not None else "play"
    return draw.play_ask(draw.beat_prompt(v.last_seat, seat, name), True)


def _seat_label(s: int, me: int) -> str:
    if s == me:
        return "You"
    return f"Seat {s}" + (" (partner)" if s == lv.partner_of(me) else "")


def _one_of(cards: Sequence[int], level: int, hand: int) -> str:
    if len(cards) == hand:
        return "any card"
    if len(cards) == 1:
        return draw.card_text(cards[0])
    if len(cards) <= 8:
        return "one of " + _text(cards, level)
    return f"one of {len(cards)} cards (any other is locked)"


# -- choosing the reading of a play ----------------------------------------------------------------


def accepted_readings(v: SeatView, cards: Sequence[int]) -> list[Reading]:
    """The readings of ``cards`` the rules accept now: every reading on a lead, those that beat the last
    play when following (what the engine chooses among: several → ``reading_needed``)."""
    found = readings(tuple(sorted(cards)), v.level)
    if v.last_reading is not None:
        found = [r for r in found if beats(r, v.last_reading)]
    return found


def _rank_text(card: int) -> str:
    text = draw.card_text(card)
    return text if card >= BLACK_JOKER else text[:-1]


def reading_label(r: Reading, level: int) -> str:
    """A reading as people name it, short (six fit one refusal): the type and how the cards read —
    sequences low to high (``straight 10–A``, ``straight flush 3♥–7♥``), a full house by its parts."""
    name = _combo_name(r)
    if r.type in SEQUENCES:
        low_ace = r.rank <= 5  # A2345, AA2233, AAA222: the ace stands below the 2
        cards = sorted(r.cards, key=lambda c: (1 if low_ace and FACE[c >> 2] == 14 else FACE[c >> 2], c))
        show = draw.card_text if r.type == Combo.STRAIGHT_FLUSH else _rank_text
        return f"{name} {show(cards[0])}\u2013{show(cards[-1])}"
    counts = Counter(c >> 2 if c < BLACK_JOKER else c for c in r.cards)
    parts = sorted(
        counts.items(), key=lambda kv: (-kv[1], strength(kv[0] * 4 if kv[0] < 13 else kv[0], level))
    )
    groups = [_rank_text(key * 4 if key < 13 else key) * n for key, n in parts]
    return f"{name} {'+'.join(groups)}"


def reading_data(r: Reading) -> dict[str, Any]:
    """What a chosen reading sends as the play's ``d``: the cards as read and the type (the engine's
    declaration, GuandanBoard._declared)."""
    return {"type": r.type.json_name, "as": format_cards(sorted(r.cards))}


def offer(board: object, action: Action, code: str) -> dict[str, Any] | None:
    """The ask that resolves a refused play that reads several ways: one option per reading the rules
    accept now, each sending the same selected cards with that reading; None for any other refusal."""
    if code != "reading_needed" or action.kind != "play":
        return None
    assert isinstance(board, GuandanBoard)
    v = board.seat_view(action.seat)
    found = accepted_readings(v, action.cards)
    if len(found) < 2:
        return None
    options = [
        draw.option(reading_label(r, v.level), "play", cards=True, data=reading_data(r))
        for r in found[:MAX_READINGS]
    ]
    return draw.ask("Which reading?", options)
