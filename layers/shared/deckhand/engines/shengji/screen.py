"""Shengji's handset screen (device protocol v2): the hand in trump order, the level, trump and dealer,
the defenders' points, the trick, failed throws, the board's end, and what to decide (RULES.md §5).

Everything comes from the seat's own view; the end lines from the result, public once the board ends.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..common import screen as draw
from . import declare as dc
from .board import BURY, DEAL_TOTAL, DECLARE, END, SeatView, ShengjiBoard, side_of
from .cards import TRUMP
from .combos import decompose, match
from .options import ThrowPenalty, format_level


def screen(board: object, seat: int) -> dict[str, Any]:
    """The screen of ``seat`` (docs/protocol.md: ``h``, ``l``, ``ask``)."""
    assert isinstance(board, ShengjiBoard)
    v = board.seat_view(seat)
    ctx = v.context
    lines: list[str | None] = [_status(v), _trump(v), _points(v)]
    lines.append(draw.trick_line(v.trick, seat))
    if v.throws:
        s, attempted, forced = v.throws[-1]
        penalty = (
            f"; penalty {10 * len(attempted)} points"
            if v.options.throw_penalty is ThrowPenalty.TEN_PER_CARD
            else ""
        )
        lines.append(
            f"Failed throw: {draw.seat_name(s, seat)} {draw.cards_text(attempted)} → "
            f"{draw.cards_text(forced)}{penalty}"
        )
    if v.phase == END and board.ended_by:
        # A referee's forfeit or disqualification ended the game: no points were counted.
        result = board.result()
        lines.append(f"Game over: {board.ended_by} by {draw.seat_name(board.offender, seat)}")
        lines.append(f"Match points {result['game']['mp'][0]}:{result['game']['mp'][1]}")
    elif v.phase == END:
        result = board.result()
        lines.append(
            f"Defenders {result['defender_points']} points; levels {' '.join(result['carry']['levels'])}; "
            f"next dealer {draw.seat_name(result['carry']['dealer'], seat)}"
        )
        kitty = result.get("kitty")
        if kitty:  # shown to all once the board ends, with what it counted (× the last trick)
            buried = draw.cards_text(board.buried)
            lines.append(f"Kitty {buried}: ×{kitty['multiplier']} = {kitty['points']} points")
        lines.append(draw.scores_line(result["scores"]))
    # the calculator's order (RULES.md §5 trump block, then side suits S, H, C, D, each A down to 2)
    hand = ctx.ordered(v.hand)
    return draw.screen(v.hand, lines, _ask(v, hand), order=hand.index)


def _status(v: SeatView) -> str:
    if v.phase == END:
        return "Board over"
    if not v.pending:
        return f"Dealing: {v.dealt} of 100 cards out"
    who = draw.seat_name(v.pending[0], v.seat)
    if v.phase == DECLARE:
        return f"Declaring: {who} to declare or pass"
    if v.phase == BURY:
        return f"{who.capitalize()} to bury ({len(v.hand) - 25} left)"
    return who.capitalize() + (" to lead" if not v.trick else " to play")


def _trump(v: SeatView) -> str:
    level = format_level(v.level).replace("T", "10")
    if v.phase == DECLARE:
        shown = (
            "none yet"
            if v.standing is None
            else f"{draw.cards_text([v.standing[1]] * v.standing[2])} by {draw.seat_name(v.standing[0], v.seat)}"
        )
        return f"Level {level}; declared: {shown}"
    suit = "no trump" if v.no_trump else "trump " + draw.SYMBOLS["DCHS"[v.trump_suit]]
    return f"Level {level}, {suit}; dealer {draw.seat_name(v.dealer, v.seat)}"


def _points(v: SeatView) -> str | None:
    if v.dealer < 0:
        return None
    return f"Defenders' points: {v.side_points[1 - side_of(v.dealer)]}"


def _ask(v: SeatView, hand: list[int]) -> dict[str, Any] | None:
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
                "Declare trump now (a level card, a pair, or a joker pair)",
                [draw.option("Declare", "declare", cards=True)],
                places,
            )
        return draw.ask(
            "Declare trump (a level card, a pair, or a joker pair) or pass",
            [draw.option("Declare", "declare", cards=True), draw.option("Pass", "pass")],
            places,
        )
    if v.phase == BURY:
        return draw.ask("Bury a card", [draw.option("Bury", "bury", cards=True)])
    if not v.trick:
        return draw.play_ask("Your lead (several components of one suit: a throw)", can_pass=False)
    return _follow_ask(v, hand)


def _follow_ask(v: SeatView, hand: list[int]) -> dict[str, Any]:
    """What following asks (§5.1 "following"), marked on the hand: holding enough of the led suit, only
    its cards may be chosen, and the prompt names the pairs or tractor that must go with them; holding
    too few, every card of the suit goes and any others make up the count."""
    ctx = v.context
    n = len(v.lead)
    suit = ctx.eff[v.lead[0]]
    name = "trump" if suit == TRUMP else draw.SYMBOLS["DCHS"[suit]]
    in_suit = [c for c in v.hand if ctx.eff[c] == suit]
    play = [draw.option("Play", "play", cards=True)]
    if len(in_suit) < n:
        if not in_suit:
            return draw.ask(f"No {name}: play any {n} card{'s' if n > 1 else ''}", play)
        others = n - len(in_suit)
        return draw.ask(
            f"Play all {len(in_suit)} {name} and {others} other card{'s' if others > 1 else ''}", play
        )
    need = match(in_suit, decompose(v.lead, ctx), ctx, suit)
    if len(need.runs) == 1:
        shape = f", a tractor of {need.runs[0]} pairs"
    elif need.runs:  # longest run first: e.g. a run of 3 and a run of 2
        shape = f", tractors of {' + '.join(str(r) for r in need.runs)} pairs"
    elif need.pairs:
        shape = f", with {need.pairs} pair{'s' if need.pairs > 1 else ''}"
    else:
        shape = ""
    places = [i for i, c in enumerate(hand) if ctx.eff[c] == suit]
    return draw.ask(f"Follow {name}: {n} card{'s' if n > 1 else ''}{shape}", play, places)
