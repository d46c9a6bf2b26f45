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
from functools import partial
from typing import Any

from ..common import screen as draw
from ..common.cards import BLACK_JOKER, format_cards
from ..common.words import ENGLISH, Lang, Words
from ..contract import Action
from . import levels as lv
from .board import END, LEAD, PLAY, RETURN, TRIBUTE, GuandanBoard, SeatView
from .combos import FACE, Combo, Reading, beats, readings
from .tribute import is_wild, strength
from .words import CATALOGUE

SEQUENCES = (Combo.STRAIGHT, Combo.STRAIGHT_FLUSH, Combo.PAIR_STRAIGHT, Combo.TRIPLE_STRAIGHT)
MAX_READINGS = 6  # the most readings any play has (♠9 ♠10 ♠J and two wilds: three straights, three flushes)
TIMEOUT = " (timeout)"  # how the board marks a penalty its clock gave (GuandanBoard._penalise)


def screen(board: object, seat: int, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The screen of ``seat`` in ``lang`` (docs/protocol.md: ``h``, ``l``, ``ask``)."""
    assert isinstance(board, GuandanBoard)
    w = Words(lang, CATALOGUE)
    v = board.seat_view(seat)
    lines: list[str | None] = [_status(w, v), _levels(w, v)]
    lines.append(_counts(w, v))
    lines.append(_out(w, v))
    if v.phase == PLAY:
        lines.append(draw.trick_line(w, v.trick, seat, lambda p: _text(w, p, v.level)))
    lines.extend(_tribute(w, v))
    lines.append(_penalties(w, v))
    if v.phase == END:
        lines.extend(_end(w, board, v))
    elif v.no_new_board:
        lines.append(w("last_board"))
    return draw.screen(v.hand, lines, _ask(w, board, v), order=hand_order(v.level))


def hand_order(level: int) -> Any:
    """Display order: by rank in the level order (2 … A, level cards, the wild heart level cards, BJ, RJ),
    suits ♦ ♣ ♥ ♠ within a rank — identical cards of the two decks side by side."""

    def key(card: int) -> tuple[int, bool, int]:
        return (strength(card, level), is_wild(card, level), card)

    return key


def _text(w: Words, cards: Sequence[int], level: int) -> str:
    return w.cards(sorted(cards, key=hand_order(level)))


def _level_name(level: int) -> str:
    name = lv.format_level(level)
    return "10" if name == "T" else name


def _status(w: Words, v: SeatView) -> str:
    seat = v.seat
    if v.phase == END:
        return w("board_over")
    if v.phase == TRIBUTE:
        return w("tribute_phase", who=w.seats(v.pending, seat))
    if v.phase == RETURN:
        return w("return_phase", who=w.seats(v.pending, seat))
    if v.phase == LEAD:
        return w("chooser.you") if v.chooser == seat else w("chooser.seat", n=v.chooser)
    return w("to_lead" if v.leading else "to_play", Who=w.Seat(v.turn, seat))


def _levels(w: Words, v: SeatView) -> str:
    mine, theirs = v.levels[v.seat % 2], v.levels[1 - v.seat % 2]
    played = v.levels[v.level_side]
    whose = ""
    if mine == theirs:
        whose = w("whose.ours") if v.level_side == v.seat % 2 else w("whose.theirs")
    wild = v.level * 4 + 2
    held = sum(1 for c in v.hand if c == wild)
    return w(
        "levels",
        mine=_level_name(mine),
        theirs=_level_name(theirs),
        played=_level_name(played),
        whose=whose,
        wild=w.card(wild),
        held=w("held", n=held) if held else "",
    )


def _counts(w: Words, v: SeatView) -> str:
    line = w("cards", counts=draw.counts_text(v.counts))
    if v.reports:
        reports = w.join(w("reported.one", who=w.seat(s, v.seat), n=n) for s, n in v.reports)
        line += w("reported", list=reports)
    return line


def _out(w: Words, v: SeatView) -> str | None:
    if not v.out or v.phase == END:
        return None
    places = (w("out.one", who=w.seat(s, v.seat), place=w(f"place.{i}")) for i, s in enumerate(v.out))
    return w("out", list=w.join(places))


def _transfers(w: Words, moves: Sequence[tuple[int, int, int]], seat: int) -> str:
    return w.join(
        w("transfer", giver=w.seat(g, seat), receiver=w.seat(r, seat), card=w.card(c)) for g, r, c in moves
    )


def _tribute(w: Words, v: SeatView) -> list[str | None]:
    """Who pays whom, resisting, and the cards once public (a payer sees its own card before)."""
    seat = v.seat
    if v.resisted:
        return [w("resisted", who=w.seat(v.leader, seat))]
    lines: list[str | None] = []
    hidden = [t for t in v.transfers if t[1] < 0]
    if v.phase == TRIBUTE:
        payers = w("and").join(w.seat(p, seat) for p in v.payers)
        several = len(v.payers) > 1 or seat in v.payers
        lines.append(w("paying" if several else "paying.one", who=payers))
        for _, _, card in hidden:
            lines.append(w("paid", card=w.card(card)))
    elif v.transfers:
        lines.append(w("tribute", list=_transfers(w, v.transfers, seat)))
    if v.returns:
        rest = w("returned.rest") if v.phase == RETURN else ""
        lines.append(w("returned", list=_transfers(w, v.returns, seat), rest=rest))
    return lines


def _penalty(w: Words, kind: str) -> str:
    """A penalty as the board records it (a referee's kind, `` (timeout)`` when its clock gave it)."""
    base = kind.removesuffix(TIMEOUT)
    return w("referee." + base) + (w("timeout") if base != kind else "")


def _penalties(w: Words, v: SeatView) -> str | None:
    mine = [kind for s, kind in v.penalties if s == v.seat]
    lost = v.lost_turns[v.seat] if v.seat < len(v.lost_turns) else 0
    if not mine and not lost:
        return None
    listed = w.join(_penalty(w, kind) for kind in mine) if mine else w("penalties.none")
    losing = ""
    if lost and v.phase != END:
        losing = w("lost.one") if lost == 1 else w("lost.more", n=lost)
    return w("penalties", list=listed, lost=losing)


def _end(w: Words, board: GuandanBoard, v: SeatView) -> list[str | None]:
    """The finishing order, the level change and, at the game's end, its points (public at the end)."""
    seat = v.seat
    result = board.result()
    win = result["winner_side"]
    ours = win == seat % 2
    ended_by = result["ended_by"]
    after = w("after", how=w("by." + ended_by)) if ended_by in ("foul", "forfeit", "disqualify") else ""
    carry = result["carry"]
    before = v.levels
    levels = [lv.parse_level(x) for x in carry["levels"]]
    lines: list[str | None] = [
        w("won.ours" if ours else "won.theirs", after=after),
        w("order", list=w.seats(result["order"], seat)),
    ]
    if result["steps"]:
        lines.append(
            w(
                "level_up.ours" if ours else "level_up.theirs",
                steps=result["steps"],
                before=_level_name(before[win]),
                after=_level_name(levels[win]),
            )
        )
    else:
        lines.append(
            w("levels_stay", mine=_level_name(levels[seat % 2]), theirs=_level_name(levels[1 - seat % 2]))
        )
    game = carry.get("game")
    if game:
        mp = game["match_points"]
        lines.append(w("game_over", mine=mp[seat % 2], theirs=mp[1 - seat % 2]))
    lines.append(draw.scores_line(w, result["scores"]))
    return lines


def _combo_name(w: Words, r: Reading) -> str:
    if r.type == Combo.BOMB:
        return w("combo.bomb", size=r.size)
    return w("combo." + r.type.json_name)


def _ask(w: Words, board: GuandanBoard, v: SeatView) -> dict[str, Any] | None:
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
        choice = _one_of(w, legal, v.level, len(set(hand)))
        if kind == "tribute":
            return draw.ask(
                w("ask.tribute", choice=choice),
                [draw.option(w("opt.tribute"), "tribute", cards=True)],
                places,
            )
        giver = next(g for g, r, _ in v.transfers if r == seat)
        prompt = w("ask.return", who=w.seat(giver, seat), choice=choice)
        return draw.ask(prompt, [draw.option(w("opt.return"), "return", cards=True)], places)
    if v.phase == LEAD:
        options = [draw.option(_seat_label(w, s, seat), "lead", s) for s in range(4)]
        return draw.ask(w("ask.lead"), options)
    if v.leading:
        return draw.play_ask(w, w("your_lead"), False)
    last = v.last_reading
    name = _combo_name(w, last) if last is not None else w("combo.play")
    return draw.play_ask(w, draw.beat_prompt(w, v.last_seat, seat, name), True)


def _seat_label(w: Words, s: int, me: int) -> str:
    if s == me:
        return w("You")
    return w("Seat", n=s) + (w("partner") if s == lv.partner_of(me) else "")


def _one_of(w: Words, cards: Sequence[int], level: int, hand: int) -> str:
    if len(cards) == hand:
        return w("any_card")
    if len(cards) == 1:
        return w.card(cards[0])
    if len(cards) <= 8:
        return w("one_of", cards=_text(w, cards, level))
    return w("one_of_many", n=len(cards))


# -- choosing the reading of a play ----------------------------------------------------------------


def accepted_readings(v: SeatView, cards: Sequence[int]) -> list[Reading]:
    """The readings of ``cards`` the rules accept now: every reading on a lead, those that beat the last
    play when following (what the engine chooses among: several → ``reading_needed``)."""
    found = readings(tuple(sorted(cards)), v.level)
    if v.last_reading is not None:
        found = [r for r in found if beats(r, v.last_reading)]
    return found


def _rank_text(w: Words, card: int) -> str:
    text = w.card(card)
    return text if card >= BLACK_JOKER else text[:-1]


def reading_label(r: Reading, level: int, w: Words | None = None) -> str:
    """A reading as people name it, short (six fit one refusal): the type and how the cards read —
    sequences low to high (``straight 10–A``, ``straight flush 3♥–7♥``), a full house by its parts."""
    w = w if w is not None else Words(ENGLISH, CATALOGUE)
    name = _combo_name(w, r)
    if r.type in SEQUENCES:
        low_ace = r.rank <= 5  # A2345, AA2233, AAA222: the ace stands below the 2
        cards = sorted(r.cards, key=lambda c: (1 if low_ace and FACE[c >> 2] == 14 else FACE[c >> 2], c))
        show = w.card if r.type == Combo.STRAIGHT_FLUSH else partial(_rank_text, w)
        return w("reading.run", name=name, low=show(cards[0]), high=show(cards[-1]))
    counts = Counter(c >> 2 if c < BLACK_JOKER else c for c in r.cards)
    parts = sorted(
        counts.items(), key=lambda kv: (-kv[1], strength(kv[0] * 4 if kv[0] < 13 else kv[0], level))
    )
    groups = [_rank_text(w, key * 4 if key < 13 else key) * n for key, n in parts]
    return w("reading.parts", name=name, parts="+".join(groups))


def reading_data(r: Reading) -> dict[str, Any]:
    """What a chosen reading sends as the play's ``d``: the cards as read and the type (the engine's
    declaration, GuandanBoard._declared)."""
    return {"type": r.type.json_name, "as": format_cards(sorted(r.cards))}


def offer(board: object, action: Action, code: str, lang: Lang = ENGLISH) -> dict[str, Any] | None:
    """The ask that resolves a refused play that reads several ways: one option per reading the rules
    accept now, each sending the same selected cards with that reading; None for any other refusal."""
    if code != "reading_needed" or action.kind != "play":
        return None
    assert isinstance(board, GuandanBoard)
    v = board.seat_view(action.seat)
    found = accepted_readings(v, action.cards)
    if len(found) < 2:
        return None
    w = Words(lang, CATALOGUE)
    options = [
        draw.option(reading_label(r, v.level, w), "play", cards=True, data=reading_data(r))
        for r in found[:MAX_READINGS]
    ]
    return draw.ask(w("ask.reading"), options)
