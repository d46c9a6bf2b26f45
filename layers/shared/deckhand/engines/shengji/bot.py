"""A deterministic Shengji bot: it decides from a seat's view only (what a handset knows).

Declares a suit it is long in, buries low side cards (points last), leads its strongest side-suit
components (never a throw: it cannot see the other hands), and follows by winning cheaply when an
opponent holds the trick, giving points to a partner who holds it, and otherwise playing low.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import islice

from ..common.cards import BLACK_JOKER, suit_of
from ..contract import Action
from . import HAND_SIZE
from . import declare as dc
from .board import BURY, DEAL_TOTAL, DECLARE, PLAY, SeatView, side_of
from .cards import TRUMP, Trump, natural, points
from .combos import Kind, decompose, play_key, throw_failures, throw_failures_one, trick_winner
from .legal import by_suit, iter_follows

FOLLOW_SAMPLE = 400  # follows weighed at most (the first ones generated)
LONG_ENOUGH = 7  # trump cards (suit, level cards, jokers) worth declaring


class ShengjiBot:
    """``style`` is accepted for the platform's handset styles; every style plays the same way."""

    def __init__(self, style: str = "steady") -> None:
        self.style = style

    def decide(self, view: SeatView) -> Action | None:
        if view.seat not in view.pending:
            if view.phase == DECLARE and view.dealt < DEAL_TOTAL and view.hand:
                return self._declare_while_dealt(view)  # nobody is asked yet: any seat may declare
            return None
        if view.phase == DECLARE:
            return self._declare(view)
        if view.phase == BURY:
            return Action(view.seat, "bury", (self._bury_card(view),))
        if view.phase == PLAY:
            ctx = view.context
            if not view.trick:
                throw = self._safe_throw(view, ctx)
                return Action(view.seat, "play", throw or self._lead(view.hand, ctx))
            return Action(view.seat, "play", self._follow(view, ctx))
        return None

    # -- declaring ------------------------------------------------------------------------------

    def _declare_while_dealt(self, view: SeatView) -> Action | None:
        """While cards arrive: declare (or overcall) once the suit is long for the cards held so far."""
        enough = max(3, -(-LONG_ENOUGH * len(view.hand) // HAND_SIZE))
        action = self._declare(view, enough)
        return action if action.kind == "declare" else None

    def _declare(self, view: SeatView, enough: int = LONG_ENOUGH) -> Action:
        counts = Counter(view.hand)
        standing = None if view.standing is None else dc.Declaration(*view.standing)
        state = dc.Declared(standing, standing)
        best: tuple[int, tuple[int, ...]] | None = None
        for card, n in sorted(counts.items()):
            for k in (2, 1):
                if k > n:
                    continue
                try:
                    dc.check(state, dc.read(view.seat, [card] * k, view.level), view.options)
                except ValueError:
                    continue
                strength = self._trump_length(
                    view.hand, view.level, None if card >= BLACK_JOKER else suit_of(card)
                )
                if strength >= enough and (best is None or strength > best[0]):
                    best = (strength, (card,) * k)
        if best is None:
            return Action(view.seat, "pass")
        return Action(view.seat, "declare", best[1])

    @staticmethod
    def _trump_length(hand: Sequence[int], level: int, suit: int | None) -> int:
        return sum(1 for c in hand if c >= BLACK_JOKER or natural(c) == level or suit_of(c) == suit)

    # -- burying --------------------------------------------------------------------------------

    def _bury_card(self, view: SeatView) -> int:
        ctx = view.context
        lengths = Counter(ctx.eff[c] for c in view.hand)

        def keep(card: int) -> tuple[int, int, int, int, int]:
            high = ctx.strength[card] >= 10  # a side K or A wins tricks: keep it
            return (ctx.is_trump(card), points([card]) > 0, high, lengths[ctx.eff[card]], ctx.strength[card])

        return min(view.hand, key=keep)

    # -- leading --------------------------------------------------------------------------------

    @staticmethod
    def _safe_throw(view: SeatView, ctx: Trump) -> tuple[int, ...] | None:
        """A side-suit throw that cannot fail: no card still unseen by this seat (the other hands and
        the kitty, all together) beats any of its components. The largest such, else None."""
        unseen = Counter({c: 2 for c in range(54)})
        unseen.subtract(view.hand)
        unseen.subtract(view.played)
        unseen.subtract(view.buried)
        rest = [c for c, n in unseen.items() for _ in range(max(n, 0))]
        best: tuple[int, ...] | None = None
        for suit, items in by_suit(view.hand, ctx).items():
            if suit == TRUMP:
                continue
            cards = [c for c, n in items for _ in range(n)]
            safe = [comp for comp in decompose(cards, ctx) if not throw_failures_one(comp, rest, ctx, suit)]
            throw = tuple(sorted(c for comp in safe for c in comp.cards))
            if len(safe) >= 2 and not throw_failures(throw, [rest], ctx) and len(throw) > len(best or ()):
                best = throw
        return best

    def _lead(self, hand: Sequence[int], ctx: Trump) -> tuple[int, ...]:
        best: tuple[tuple[int, int, int, int], tuple[int, ...]] | None = None
        for suit, items in by_suit(hand, ctx).items():
            cards = [c for c, n in items for _ in range(n)]
            for comp in decompose(cards, ctx):
                top_side = suit != TRUMP and comp.top >= 11  # a side-suit ace (or king playing A)
                score = (
                    comp.kind is not Kind.SINGLE and suit != TRUMP,
                    top_side,
                    comp.size if suit != TRUMP else -comp.size,
                    comp.top if comp.kind is not Kind.SINGLE or top_side else -comp.top,
                )
                if best is None or score > best[0]:
                    best = (score, tuple(sorted(comp.cards)))
        assert best is not None
        return best[1]

    # -- following ------------------------------------------------------------------------------

    def _follow(self, view: SeatView, ctx: Trump) -> tuple[int, ...]:
        lead = list(view.lead)
        plays = [list(p) for _, p in view.trick]
        winner_at = trick_winner(plays, ctx)
        winning_seat = view.trick[winner_at][0]
        partner_winning = side_of(winning_seat) == side_of(view.seat)
        on_table = points(c for p in plays for c in p)
        candidates = list(islice(iter_follows(lead, view.hand, ctx), FOLLOW_SAMPLE))
        if len(candidates) == FOLLOW_SAMPLE and not any(ctx.eff[c] == ctx.eff[lead[0]] for c in view.hand):
            candidates.append(self._discard(view.hand, len(lead), ctx))
            trumping = self._trump_over(view.hand, lead, plays, ctx)
            if trumping is not None:
                candidates.append(trumping)

        def cost(play: tuple[int, ...]) -> tuple[int, ...]:
            wins = trick_winner([*plays, list(play)], ctx) == len(plays)
            value = sum(ctx.strength[c] + (16 if ctx.is_trump(c) else 0) for c in play)
            pts = points(play)
            if partner_winning:
                return (0, -pts, value)  # feed points, keep strength
            if wins and (on_table + pts > 0 or len(view.trick) == 3 or not view.trick):
                return (0, value, -pts)  # win cheaply
            return (1, pts, value)  # play low, keep points away

        return min(candidates, key=cost)

    @staticmethod
    def _discard(hand: Sequence[int], n: int, ctx: Trump) -> tuple[int, ...]:
        """The n lowest cards, points and trumps last (the caller's case: void in the led suit)."""
        rest = sorted(hand, key=lambda c: (ctx.is_trump(c), points([c]) > 0, ctx.strength[c]))
        return tuple(sorted(rest[:n]))

    @staticmethod
    def _trump_over(
        hand: Sequence[int], lead: Sequence[int], plays: Sequence[Sequence[int]], ctx: Trump
    ) -> tuple[int, ...] | None:
        """The lowest trump play of the led shape that takes the trick (single-component leads)."""
        comps = decompose(lead, ctx)
        if len(comps) != 1:
            return None
        trumps = [c for c in hand if ctx.is_trump(c)]
        best_key = max(k for k in (play_key(lead, p, ctx) for p in plays) if k is not None)
        options = []
        for comp in decompose(trumps, ctx) if trumps else []:
            if comp.size != len(lead):
                continue
            key = play_key(lead, comp.cards, ctx)
            if key is not None and key > best_key:
                options.append((key, tuple(sorted(comp.cards))))
        return min(options)[1] if options else None
