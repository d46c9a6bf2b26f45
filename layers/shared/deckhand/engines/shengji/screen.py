"""Shengji's handset screen (device protocol v2): the hand in trump order, the level, trump and dealer,
the defenders' points, the trick, failed throws, the board's end, and what to decide (RULES.md §5).

Everything comes from the seat's own view; the end lines from the result, public once the board ends.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..common import screen as draw
from ..common.words import ENGLISH, SYMBOLS, Lang, Words
from . import declare as dc
from .board import BURY, DEAL_TOTAL, DECLARE, END, SeatView, ShengjiBoard, side_of
from .cards import TRUMP
from .combos import decompose, match
from .options import ThrowPenalty, format_level
from .words import CATALOGUE


def screen(board: object, seat: int, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The screen of ``seat`` in ``lang`` (docs/protocol.md: ``h``, ``l``, ``ask``)."""
    assert isinstance(board, ShengjiBoard)
    w = Words(lang, CATALOGUE)
    v = board.seat_view(seat)
    ctx = v.context
    lines: list[str | None] = [_status(w, v), _trump(w, v), _points(w, v)]
    lines.append(draw.trick_line(w, v.trick, seat))
    if v.throws:
        s, attempted, forced = v.throws[-1]
        penalty = (
            w("throw_penalty", n=10 * len(attempted))
            if v.options.throw_penalty is ThrowPenalty.TEN_PER_CARD
            else ""
        )
        lines.append(
            w(
                "failed_throw",
                who=w.seat(s, seat),
                attempted=w.cards(attempted),
                forced=w.cards(forced),
                penalty=penalty,
            )
        )
    if v.phase == END and board.ended_by:
        # A referee's forfeit or disqualification ended the game: no points were counted.
        result = board.result()
        lines.append(w("ended_by", how=w("referee." + board.ended_by), who=w.seat(board.offender, seat)))
        lines.append(w("match_points", a=result["game"]["mp"][0], b=result["game"]["mp"][1]))
    elif v.phase == END:
        result = board.result()
        levels = " ".join(w("level.ten") if x == "T" else x for x in result["carry"]["levels"])
        lines.append(
            w(
                "board_end",
                points=result["defender_points"],
                levels=levels,
                who=w.seat(result["carry"]["dealer"], seat),
            )
        )
        kitty = result.get("kitty")
        if kitty:  # shown to all once the board ends, with what it counted (× the last trick)
            lines.append(
                w(
                    "kitty",
                    cards=w.cards(board.buried),
                    multiplier=kitty["multiplier"],
                    points=kitty["points"],
                )
            )
        lines.append(draw.scores_line(w, result["scores"]))
    # the calculator's order (RULES.md §5 trump block, then side suits S, H, C, D, each A down to 2)
    hand = ctx.ordered(v.hand)
    return draw.screen(v.hand, lines, _ask(w, v, hand), order=hand.index)


def _status(w: Words, v: SeatView) -> str:
    if v.phase == END:
        return w("board_over")
    if not v.pending:
        return w("dealing", n=v.dealt)
    first = v.pending[0]
    if v.phase == DECLARE:
        return w("declaring", who=w.seat(first, v.seat))
    if v.phase == BURY:
        return w("to_bury", Who=w.Seat(first, v.seat), n=len(v.hand) - 25)
    return w("to_play" if v.trick else "to_lead", Who=w.Seat(first, v.seat))


def _trump(w: Words, v: SeatView) -> str:
    level = format_level(v.level).replace("T", "10")
    if v.phase == DECLARE:
        if v.standing is None:
            shown = w("declared.none")
        else:
            cards = w.cards([v.standing[1]] * v.standing[2])
            shown = w("declared.by", cards=cards, who=w.seat(v.standing[0], v.seat))
        return w("declared", level=level, shown=shown)
    suit = w("no_trump") if v.no_trump else w("trump", suit=SYMBOLS["DCHS"[v.trump_suit]])
    return w("level", level=level, trump=suit, who=w.seat(v.dealer, v.seat))


def _points(w: Words, v: SeatView) -> str | None:
    if v.dealer < 0:
        return None
    return w("defenders", n=v.side_points[1 - side_of(v.dealer)])


def _ask(w: Words, v: SeatView, hand: list[int]) -> dict[str, Any] | None:
    while_dealt = v.phase == DECLARE and not v.pending and v.dealt < DEAL_TOTAL
    if v.seat not in v.pending and not while_dealt:
        return None
    if v.phase == DECLARE:
        standing = None if v.standing is None else dc.Declaration(*v.standing)
        state = dc.Declared(standing, standing)
        counts = Counter(v.hand)
        usable = set()
        for card, n in counts.items():
            for k in (1, 2):
                try:
                    if k <= n:
                        dc.check(state, dc.read(v.seat, [card] * k, v.level), v.options)
                        usable.add(card)
                except ValueError:
                    pass
        places = [i for i, c in enumerate(hand) if c in usable]
        if while_dealt:
            # Cards still arriving: any seat may declare now with what it holds; nobody passes yet.
            if not places:
                return None
            return draw.ask(
                w("ask.declare_now"), [draw.option(w("opt.declare"), "declare", cards=True)], places
            )
        return draw.ask(
            w("ask.declare"),
            [draw.option(w("opt.declare"), "declare", cards=True), draw.option(w("opt.no_declare"), "pass")],
            places,
        )
    if v.phase == BURY:
        return draw.ask(w("ask.bury"), [draw.option(w("opt.bury"), "bury", cards=True)])
    if not v.trick:
        return draw.play_ask(w, w("lead"), can_pass=False)
    return _follow_ask(w, v, hand)


def _follow_ask(w: Words, v: SeatView, hand: list[int]) -> dict[str, Any]:
    """What following asks (§5.1 "following"), marked on the hand: holding enough of the led suit, only
    its cards may be chosen, and the prompt names the pairs or tractor that must go with them; holding
    too few, every card of the suit goes and any others make up the count."""
    ctx = v.context
    n = len(v.lead)
    suit = ctx.eff[v.lead[0]]
    name = w("suit.trump") if suit == TRUMP else SYMBOLS["DCHS"[suit]]
    in_suit = [c for c in v.hand if ctx.eff[c] == suit]
    play = [draw.option(w("opt.play"), "play", cards=True)]
    if len(in_suit) < n:
        if not in_suit:
            return draw.ask(w(_plural("void", n), name=name, n=n), play)
        others = n - len(in_suit)
        return draw.ask(w(_plural("short", others), held=len(in_suit), name=name, n=others), play)
    need = match(in_suit, decompose(v.lead, ctx), ctx, suit)
    if len(need.runs) == 1:
        shape = w("tractor", n=need.runs[0])
    elif need.runs:  # longest run first: e.g. a run of 3 and a run of 2
        shape = w("tractors", runs=" + ".join(str(r) for r in need.runs))
    elif need.pairs:
        shape = w(_plural("pairs", need.pairs), n=need.pairs)
    else:
        shape = ""
    places = [i for i, c in enumerate(hand) if ctx.eff[c] == suit]
    return draw.ask(w(_plural("follow", n), name=name, n=n, shape=shape), play, places)


def _plural(key: str, n: int) -> str:
    """The key of the one or the many form (English says "1 card", "2 cards")."""
    return f"{key}.1" if n == 1 else f"{key}.n"
