"""Components, following, tricks and throws (RULES.md §5 "Play", §5.1): pure functions of a context.

A play of one effective suit decomposes into *components* — tractors (consecutive pairs along the
context's chain), pairs and singles — longest tractors first (the "longest run first" reading of
§5.1: a run of five pairs led as a throw is one tractor, not a tractor and a pair and …).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..common.cards import suit_of
from .cards import TIE_ORDER, TRUMP, Trump


class Kind(StrEnum):
    SINGLE = "single"
    PAIR = "pair"
    TRACTOR = "tractor"


@dataclass(frozen=True)
class Component:
    """One unit of a play: ``cards`` highest first; ``top`` the strength of its highest card."""

    kind: Kind
    cards: tuple[int, ...]
    top: int

    @property
    def pairs(self) -> int:
        return len(self.cards) // 2 if self.kind is not Kind.SINGLE else 0

    @property
    def size(self) -> int:
        return len(self.cards)


def _pair_positions(counts: Counter[int], ctx: Trump) -> dict[int, list[int]]:
    """strength → the cards held as pairs there (several only at the off-suit level strength)."""
    at: dict[int, list[int]] = {}
    for card, n in counts.items():
        if n >= 2:
            at.setdefault(ctx.strength[card], []).append(card)
    for cards in at.values():
        cards.sort(key=lambda c: TIE_ORDER[suit_of(c)])
    return at


def _runs(at: dict[int, list[int]], up: tuple[int, ...]) -> Iterator[list[int]]:
    """From each pair position, the run of pairs going up the chain (ascending strengths)."""
    for start in at:
        run = [start]
        nxt = up[start]
        while nxt in at:
            run.append(nxt)
            nxt = up[nxt]
        yield run


def _longest_run(at: dict[int, list[int]], up: tuple[int, ...], limit: int) -> list[int]:
    """The strengths of the longest run of pairs (at most ``limit``, its highest part), highest top
    on ties; ascending."""
    best: list[int] = []
    for whole in _runs(at, up):
        run = whole[-limit:]
        if len(run) > len(best) or (len(run) == len(best) and run and run[-1] > best[-1]):
            best = run
    return best


def _take(at: dict[int, list[int]], strength: int) -> int:
    cards = at[strength]
    card = cards.pop(0)
    if not cards:
        del at[strength]
    return card


def decompose(cards: Iterable[int], ctx: Trump) -> list[Component]:
    """Components of cards of one effective suit: tractors longest first, then pairs, then singles,
    each high to low."""
    counts = Counter(cards)
    at = _pair_positions(counts, ctx)
    suit = ctx.eff[next(iter(counts))] if counts else TRUMP
    up = ctx.up[suit]
    tractors: list[Component] = []
    while True:
        run = _longest_run(at, up, 99)
        if len(run) < 2:
            break
        taken = [_take(at, s) for s in reversed(run)]
        for c in taken:
            counts[c] -= 2
        tractors.append(Component(Kind.TRACTOR, tuple(c for c in taken for _ in (0, 1)), run[-1]))
    pairs: list[Component] = []
    for s, held in at.items():
        for c in held:
            counts[c] -= 2
            pairs.append(Component(Kind.PAIR, (c, c), s))
    singles = [Component(Kind.SINGLE, (c,), ctx.strength[c]) for c, n in counts.items() for _ in range(n)]
    tractors.sort(key=lambda t: (t.pairs, t.top), reverse=True)
    pairs.sort(key=lambda p: ctx.order_key(p.cards[0]), reverse=True)
    singles.sort(key=lambda p: ctx.order_key(p.cards[0]), reverse=True)
    return tractors + pairs + singles


def suit_of_play(cards: Sequence[int], ctx: Trump) -> int | None:
    """The one effective suit of the cards, or None when they mix suits."""
    suits = {ctx.eff[c] for c in cards}
    return suits.pop() if len(suits) == 1 else None


@dataclass(frozen=True)
class Shape:
    """What a set of cards shows against a lead (RULES.md §5.1 "following"): ``runs`` the lengths of the
    runs of pairs matched to the lead's tractors, in the lead's order (longest led tractor first), the
    best the cards allow; ``pairs`` the pairs matched in all (runs included); and the strengths that
    decide a trick (the top of the first matched run, the highest pair, the highest single)."""

    runs: tuple[int, ...]
    pairs: int
    tractor_top: int
    pair_top: int
    single_top: int

    @property
    def tractor_pairs(self) -> int:
        return sum(self.runs)


def best_runs(
    counts: Sequence[int], up: Sequence[int], demands: Sequence[int]
) -> tuple[tuple[int, ...], int]:
    """The longest-run-first matching, as a search over the hand's runs of pairs.

    ``counts[s]``: pairs held at strength ``s`` (several only at the off-suit level strength);
    ``demands``: the led tractors' lengths, longest first. Each led tractor takes runs (consecutive
    pairs along ``up``) of at most its remaining length, one after another; pairs fill what is left.
    Matchings compare by their run lengths in order (lexicographically: a run of three and a pair
    beats two runs of two; a run of four beats 2 + 2), then by the top of the first run. Returns
    (run lengths, top of the first run or -1)."""
    memo: dict[tuple[tuple[int, ...], int, int], tuple[tuple[int, ...], int]] = {}

    def go(held: tuple[int, ...], i: int, left: int) -> tuple[tuple[int, ...], int]:
        if left < 2:
            if i + 1 >= len(demands):
                return ((), -1)
            return go(held, i + 1, demands[i + 1])
        key = (held, i, left)
        if key in memo:
            return memo[key]
        best = go(held, i, 0)  # no (further) run for this tractor: pairs fill it
        for start, n in enumerate(held):
            if not n:
                continue
            run = [start]
            while len(run) < left and up[run[-1]] >= 0 and held[up[run[-1]]]:
                run.append(up[run[-1]])
            for k in range(2, len(run) + 1):
                rest = list(held)
                for s in run[:k]:
                    rest[s] -= 1
                tail, _ = go(tuple(rest), i, left - k)
                cand = ((k, *tail), run[k - 1])
                if cand > best:
                    best = cand
        memo[key] = best
        return best

    if not demands:
        return ((), -1)
    return go(tuple(counts), 0, demands[0])


def match(cards: Iterable[int], lead: Sequence[Component], ctx: Trump, suit: int) -> Shape:
    """Match cards of one suit against the lead's components, longest run first (RULES.md §5.1
    "following"; :func:`best_runs`): the led tractors take the best runs the cards allow, then pairs
    make up the led pairs (a tractor's unmatched pairs included)."""
    counts = Counter(cards)
    at = _pair_positions(counts, ctx)
    held = [0] * 16
    for s, cards_at in at.items():
        held[s] = len(cards_at)
    demands = sorted((c.pairs for c in lead if c.kind is Kind.TRACTOR), reverse=True)
    runs, tractor_top = best_runs(held, ctx.up[suit], demands)
    led_pairs = sum(c.pairs if c.kind is Kind.TRACTOR else 1 for c in lead if c.kind is not Kind.SINGLE)
    pairs = min(led_pairs, sum(held))
    pair_top = max(at, default=-1) if pairs else -1
    single_top = max((ctx.strength[c] for c in counts), default=-1)
    return Shape(runs, pairs, tractor_top, pair_top, single_top)


def lead_shape(lead: Sequence[Component]) -> tuple[tuple[int, ...], int]:
    """(tractor lengths longest first, pairs in all) of a lead's own components."""
    runs = tuple(sorted((c.pairs for c in lead if c.kind is Kind.TRACTOR), reverse=True))
    return runs, sum(runs) + sum(1 for c in lead if c.kind is Kind.PAIR)


class FollowError(StrEnum):
    """Why a follow is refused (the board's and the calculator's reason codes)."""

    COUNT = "wrong_count"
    NOT_HELD = "not_in_hand"
    SUIT = "must_follow_suit"
    TRACTOR = "must_match_tractor"
    PAIR = "must_match_pair"


def follow_error(
    lead: Sequence[int], hand: Sequence[int], play: Sequence[int], ctx: Trump
) -> FollowError | None:
    """Why ``play`` (from ``hand``, which includes it) does not follow ``lead`` — or None when it does."""
    if len(play) != len(lead):
        return FollowError.COUNT
    held = Counter(hand)
    held.subtract(play)
    if any(n < 0 for n in held.values()):
        return FollowError.NOT_HELD
    suit = ctx.eff[lead[0]]
    in_suit = [c for c in hand if ctx.eff[c] == suit]
    played = [c for c in play if ctx.eff[c] == suit]
    if len(played) < min(len(in_suit), len(play)):
        return FollowError.SUIT
    if len(in_suit) <= len(play):
        return None  # every card of the suit goes; nothing to match
    comps = decompose(lead, ctx)
    need = match(in_suit, comps, ctx, suit)
    have = match(played, comps, ctx, suit)
    if have.runs < need.runs:
        return FollowError.TRACTOR
    if have.pairs < need.pairs:
        return FollowError.PAIR
    return None


def play_key(lead: Sequence[int], play: Sequence[int], ctx: Trump) -> tuple[int, int] | None:
    """How strongly ``play`` contests a trick led by ``lead``: None when it cannot win (another suit,
    mixed, or not the led shape); else (trump over a side suit?, deciding strength). §5.1 "trumping":
    the tractor decides, else the highest pair, else the highest single."""
    suit = ctx.eff[lead[0]]
    psuit = suit_of_play(play, ctx)
    if psuit is None or (psuit != suit and psuit != TRUMP):
        return None
    comps = decompose(lead, ctx)
    shape = match(play, comps, ctx, psuit)
    if (shape.runs, shape.pairs) != lead_shape(comps):
        return None
    deciding = (
        shape.tractor_top if shape.tractor_pairs else shape.pair_top if shape.pairs else shape.single_top
    )
    return (1 if psuit == TRUMP and suit != TRUMP else 0, deciding)


def trick_winner(plays: Sequence[Sequence[int]], ctx: Trump) -> int:
    """Index (in playing order, 0 = the leader) of the play that wins; equal plays: the first."""
    lead = plays[0]
    best = 0
    best_key = play_key(lead, lead, ctx)
    assert best_key is not None
    for i, play in enumerate(plays[1:], 1):
        key = play_key(lead, play, ctx)
        if key is not None and key > best_key:
            best, best_key = i, key
    return best


def _beats_component(comp: Component, hand: Counter[int], ctx: Trump, suit: int) -> bool:
    """Whether a hand holds a higher component of the same shape in the suit (§5.1 "throw fails")."""
    if comp.kind is Kind.SINGLE:
        return any(n > 0 and ctx.eff[c] == suit and ctx.strength[c] > comp.top for c, n in hand.items())
    at = _pair_positions(Counter({c: n for c, n in hand.items() if ctx.eff[c] == suit}), ctx)
    if comp.kind is Kind.PAIR:
        return any(s > comp.top for s in at)
    return any(len(run) >= comp.pairs and run[-1] > comp.top for run in _runs(at, ctx.up[suit]))


def throw_failures_one(comp: Component, hand: Sequence[int], ctx: Trump, suit: int) -> bool:
    """Whether one hand beats one component of a throw."""
    return _beats_component(comp, Counter(hand), ctx, suit)


def throw_failures(throw: Sequence[int], others: Sequence[Sequence[int]], ctx: Trump) -> list[Component]:
    """The components of a throw some other hand beats (empty: the throw stands)."""
    comps = decompose(throw, ctx)
    if len(comps) < 2:
        return []
    suit = ctx.eff[throw[0]]
    hands = [Counter(h) for h in others]
    return [c for c in comps if any(_beats_component(c, h, ctx, suit) for h in hands)]


def forced_component(failures: Sequence[Component]) -> Component:
    """The failing component played instead (§5.1 ⚖): the fewest cards, then the lowest."""
    return min(failures, key=lambda c: (c.size, c.top))


def kitty_multiplier(lead: Sequence[Component], singles_throw: int) -> int:
    """The kitty's multiplier when the defenders win the last trick (§5.1): single ×2, pair ×4, a tractor
    of n pairs ×2^(n+1); a throw counts as its longest tractor, else as a pair, else ``singles_throw``."""
    if len(lead) == 1:
        comp = lead[0]
        return 2 if comp.kind is Kind.SINGLE else 1 << (comp.pairs + 1)
    longest = max((c.pairs for c in lead if c.kind is Kind.TRACTOR), default=0)
    if longest:
        return 1 << (longest + 1)
    if any(c.kind is Kind.PAIR for c in lead):
        return 4
    return singles_throw
