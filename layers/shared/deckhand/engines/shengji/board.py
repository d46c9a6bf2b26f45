"""The Shengji board (RULES.md §5, §5.1): deal with declaring → bury the kitty → play → end.

The deal can be given out in steps (``contract.DealtInSteps``): while cards arrive any seat may
declare with what it holds; once all 100 are out the seats are asked in turn (from the dealer, or
seat 0 on board 1) until nobody can or will declare, then the dealer takes the kitty — declaring
ends — and buries 8 cards, one action a card. The dealer leads the first trick; a lead of several
components is a throw, checked against the other three hands at once (a failed one plays its
forced component and, in 004, costs 10 a card). Every action is checked against the state and
applied whole or refused with a reason code and no change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar, NamedTuple

from ...errors import DeckhandError
from ..common.board import END as END
from ..common.board import GameBoard
from ..common.cards import check_cards, format_cards, parse_cards
from ..contract import Action, Rejected, Timing
from . import COMMON, HAND_SIZE, KITTY, SEATS, YAOJI
from . import declare as dc
from . import levels as lv
from .cards import Trump, points, trump
from .combos import (
    decompose,
    follow_error,
    forced_component,
    kitty_multiplier,
    suit_of_play,
    throw_failures,
    trick_winner,
)
from .legal import follows, iter_follows, leads
from .options import Options, Preset, ThrowPenalty, format_level, parse_level

DECLARE, BURY, PLAY = "declare", "bury", "play"
DEAL_TOTAL = SEATS * HAND_SIZE
SIDES = ((0, 2), (1, 3))
NONE = -1
PLATFORM_KINDS = ("time_up",)
# A referee's penalties the service applies to the board in play (engines name what each means):
# ⚖ a warning is recorded; a violation costs 10 points (004's 罚分 10 × n for a wrong card, n = 1) the
# way a failed throw's penalty does; a forfeit or disqualification ends the game (RULES.md §4.3 §15).
# §5 knows no foul that loses a board: refused.
REFEREE_KINDS = ("warning", "violation", "forfeit", "disqualify")
FORFEIT_LP = 13  # docs/competition.md ⚖ Shengji: +13:−13
LIMIT_MS = 30_000


def side_of(seat: int) -> int:
    return seat % 2


class Carry(NamedTuple):
    """What a board starts from: the levels, the dealer (None on a game's first board), the boards
    played, the clock, and the options."""

    options: Options
    levels: tuple[int, int] = (2, 2)
    dealer: int | None = None
    boards: int = 0
    time_up: bool = False
    extra: bool = False

    @classmethod
    def read(cls, carry: dict[str, Any] | None, preset: Preset) -> Carry:
        if carry is None:
            return cls(Options.for_preset(preset))
        if not isinstance(carry, dict):
            raise DeckhandError(f"a Shengji carry is an object, got {carry!r}")
        options = Options.from_dict(carry.get("options"), preset)
        if options.preset is not preset:
            raise DeckhandError(f"the carry's options are for preset {options.preset}, not {preset}")
        if set(carry) == {"options"}:
            return cls(options)
        try:
            levels = carry["levels"]
            if not isinstance(levels, list) or len(levels) != 2:
                raise DeckhandError("a carry has two levels")
            two = (parse_level(levels[0]), parse_level(levels[1]))
            dealer = carry["dealer"]
            if dealer not in (0, 1, 2, 3) or isinstance(dealer, bool):
                raise DeckhandError(f"a carry's dealer is a seat, got {dealer!r}")
            if carry.get("game_over"):
                raise DeckhandError("the game is over: no new board")
            return cls(
                options, two, dealer, int(carry["boards"]), bool(carry["time_up"]), bool(carry.get("extra"))
            )
        except KeyError as exc:
            raise DeckhandError(f"not a Shengji carry: missing {exc}") from None


class SeatView(NamedTuple):
    """What one seat may know: its hand, the declarations, the trick, the points won so far."""

    seat: int
    phase: str
    pending: tuple[int, ...]
    hand: tuple[int, ...]
    counts: tuple[int, ...]
    options: Options
    levels: tuple[int, int]
    level: int
    dealer: int
    trump_suit: int  # NONE while undecided or for no trump (see ``no_trump``)
    no_trump: bool
    standing: tuple[int, int, int] | None  # (seat, card, count) of the standing declaration
    dealt: int
    buried: tuple[int, ...]  # the dealer's own buried cards (others see none)
    leader: int
    trick: tuple[tuple[int, tuple[int, ...]], ...]
    lead: tuple[int, ...]
    side_points: tuple[int, int]
    last_trick: tuple[tuple[int, tuple[int, ...]], ...]
    throws: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]  # (seat, attempted, forced)
    boards: int
    played: tuple[int, ...]  # every card of the finished tricks (public)

    @property
    def context(self) -> Trump:
        return trump(self.level, None if self.no_trump or self.trump_suit < 0 else self.trump_suit,
                     self.options.level_chain)  # fmt: skip

    @property
    def turn(self) -> int:
        return self.pending[0] if self.pending else NONE

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "phase": self.phase,
            "pending": list(self.pending),
            "hand": format_cards(self.hand),
            "counts": list(self.counts),
            "options": self.options.to_dict(),
            "levels": [format_level(x) for x in self.levels],
            "level": format_level(self.level),
            "dealer": None if self.dealer < 0 else self.dealer,
            "trump": None if self.trump_suit < 0 else "DCHS"[self.trump_suit],
            "no_trump": self.no_trump,
            "declaration": None
            if self.standing is None
            else {
                "seat": self.standing[0],
                "cards": format_cards([self.standing[1]] * self.standing[2]),
            },
            "dealt": self.dealt,
            "buried": format_cards(self.buried),
            "leader": None if self.leader < 0 else self.leader,
            "trick": [{"seat": s, "cards": format_cards(p)} for s, p in self.trick],
            "lead": format_cards(self.lead),
            "points": list(self.side_points),
            "last_trick": [{"seat": s, "cards": format_cards(p)} for s, p in self.last_trick],
            "throws": [
                {"seat": s, "cards": format_cards(a), "forced": format_cards(f)} for s, a, f in self.throws
            ],
            "boards": self.boards,
            "played": format_cards(self.played),
        }

    @classmethod
    def from_dict(cls, view: dict[str, Any]) -> SeatView:
        """A view from its JSON (what a device receives), e.g. for a bot on a handset."""

        def cards(tokens: list[str]) -> tuple[int, ...]:
            return tuple(sorted(parse_cards(tokens, decks=2, jokers=True)))

        def plays(items: list[dict[str, Any]]) -> tuple[tuple[int, tuple[int, ...]], ...]:
            return tuple((t["seat"], tuple(parse_cards(t["cards"], decks=2, jokers=True))) for t in items)

        options = Options.from_dict(view["options"], Preset(view["options"]["preset"]))
        dec = view["declaration"]
        return cls(
            seat=view["seat"],
            phase=view["phase"],
            pending=tuple(view["pending"]),
            hand=cards(view["hand"]),
            counts=tuple(view["counts"]),
            options=options,
            levels=(parse_level(view["levels"][0]), parse_level(view["levels"][1])),
            level=parse_level(view["level"]),
            dealer=NONE if view["dealer"] is None else view["dealer"],
            trump_suit=NONE if view["trump"] is None else "DCHS".index(view["trump"]),
            no_trump=view["no_trump"],
            standing=None
            if dec is None
            else (dec["seat"], parse_cards(dec["cards"][:1], jokers=True)[0], len(dec["cards"])),
            dealt=view["dealt"],
            buried=cards(view["buried"]),
            leader=NONE if view["leader"] is None else view["leader"],
            trick=plays(view["trick"]),
            lead=tuple(parse_cards(view["lead"], decks=2, jokers=True)),
            side_points=(view["points"][0], view["points"][1]),
            last_trick=plays(view["last_trick"]),
            throws=tuple(
                (
                    t["seat"],
                    tuple(parse_cards(t["cards"], decks=2, jokers=True)),
                    tuple(parse_cards(t["forced"], decks=2, jokers=True)),
                )
                for t in view["throws"]
            ),  # fmt: skip
            boards=view["boards"],
            played=cards(view["played"]),
        )


def _level_cap(level: int) -> int:
    return min(level, lv.PAST_A)


class ShengjiBoard(GameBoard):
    """One board of a Shengji game; build it with :meth:`from_deal` (a 108-card order and a carry)."""

    ruleset = YAOJI
    preset: ClassVar[Preset] = Preset.YAOJI2010
    name = "Shengji"
    seats = SEATS

    def __init__(self, order: Sequence[int], carry: dict[str, Any] | None = None, *, dealt: int = DEAL_TOTAL):
        order = list(order)
        if len(order) != DEAL_TOTAL + KITTY:
            raise DeckhandError(f"a Shengji deal has {DEAL_TOTAL + KITTY} cards, got {len(order)}")
        check_cards(order, decks=2, jokers=True)
        c = Carry.read(carry, self.preset)
        self.options = c.options
        self.order = order
        self.levels = list(c.levels)
        self.dealer = NONE if c.dealer is None else c.dealer
        self.boards = c.boards
        self.time_up = c.time_up
        self.extra = c.extra
        # Board 1 of a game: both sides are at 2 (RULES.md §5 "Level"); later the dealer's side's level.
        self.level = self.levels[side_of(self.dealer)] if self.dealer != NONE else 2
        self.dealt = 0
        self.hands: list[list[int]] = [[] for _ in range(SEATS)]
        self.phase = DECLARE
        self.first: tuple[int, int, int] | None = None  # (seat, card, count)
        self.standing: tuple[int, int, int] | None = None
        self.passed: list[int] = []
        self.ask = self.dealer if self.dealer != NONE else 0
        self.trump_suit = NONE
        self.no_trump = False
        self.declarer = NONE
        self.buried: list[int] = []
        self.leader = NONE
        self.trick: list[tuple[int, list[int]]] = []
        self.lead: list[int] = []
        self.side_points = [0, 0]
        self.last_trick: list[tuple[int, list[int]]] = []
        self.throws: list[tuple[int, list[int], list[int]]] = []
        self.kitty_bonus = 0
        self.multiplier = 0
        self.last_winner = NONE
        self.played: list[int] = []
        self.penalties: list[tuple[int, str]] = []
        self.ended_by = ""
        self.offender = NONE
        self.deal_step(dealt)

    @classmethod
    def from_deal(cls, order: Sequence[int], carry: dict[str, Any] | None = None) -> ShengjiBoard:
        return cls(order, carry)

    @classmethod
    def in_steps(cls, order: Sequence[int], carry: dict[str, Any] | None = None) -> ShengjiBoard:
        """The board with no card given out yet: the platform deals with :meth:`deal_step`."""
        return cls(order, carry, dealt=0)

    # -- dealing in steps (contract.DealtInSteps) -----------------------------------------------

    @property
    def deal_total(self) -> int:
        return DEAL_TOTAL

    def deal_step(self, upto: int) -> None:
        if not isinstance(upto, int) or isinstance(upto, bool) or not self.dealt <= upto <= DEAL_TOTAL:
            raise Rejected(
                "bad_deal_step", f"cards are given out up to {self.dealt}…{DEAL_TOTAL}, got {upto!r}"
            )
        for i in range(self.dealt, upto):
            self.hands[i % SEATS].append(self.order[i])
        for h in self.hands:
            h.sort()
        self.dealt = upto
        if self.dealt == DEAL_TOTAL:
            self._settle_declaring()

    @property
    def kitty(self) -> list[int]:
        return self.order[DEAL_TOTAL:]

    # -- the contract ---------------------------------------------------------------------------

    @property
    def context(self) -> Trump:
        return trump(self.level, None if self.trump_suit < 0 else self.trump_suit, self.options.level_chain)

    def hand(self, seat: int) -> list[int]:
        return list(self.hands[seat])

    def pending(self) -> list[int]:
        if self.phase == DECLARE:
            seat = self._next_to_declare()
            return [] if seat == NONE else [seat]
        if self.phase == BURY:
            return [self.dealer]
        if self.phase == PLAY:
            return [(self.leader + len(self.trick)) % SEATS]
        return []

    def _declared(self) -> dc.Declared:
        def decl(t: tuple[int, int, int] | None) -> dc.Declaration | None:
            return None if t is None else dc.Declaration(*t)

        return dc.Declared(decl(self.first), decl(self.standing))

    def _declarations(self, seat: int) -> list[tuple[int, ...]]:
        """The declarations the seat may make now with the cards it holds."""
        counts = Counter(self.hands[seat])
        state = self._declared()
        out: list[tuple[int, ...]] = []
        for card, n in sorted(counts.items()):
            for k in (1, 2):
                if k > n:
                    continue
                try:
                    dc.check(state, dc.read(seat, [card] * k, self.level), self.options)
                except ValueError:
                    continue
                out.append((card,) * k)
        return out

    def _next_to_declare(self) -> int:
        if self.dealt < DEAL_TOTAL:
            return NONE
        for i in range(SEATS):
            seat = (self.ask + i) % SEATS
            if seat not in self.passed and self._declarations(seat):
                return seat
        return NONE

    def legal_actions(self, seat: int) -> list[Action]:
        if not 0 <= seat < SEATS:
            return []
        if self.phase == DECLARE:
            if self.dealt < DEAL_TOTAL:
                return [Action(seat, "declare", c) for c in self._declarations(seat)]
            if seat not in self.pending():
                return []
            return [Action(seat, "declare", c) for c in self._declarations(seat)] + [Action(seat, "pass")]
        if seat not in self.pending():
            return []
        if self.phase == BURY:
            return [Action(seat, "bury", (c,)) for c in sorted(set(self.hands[seat]))]
        return [Action(seat, "play", p) for p in self._plays(seat)]

    def _plays(self, seat: int) -> list[tuple[int, ...]]:
        if not self.trick:
            return leads(self.hands[seat], self.context)
        return follows(self.lead, self.hands[seat], self.context)

    def default_action(self, seat: int) -> Action | None:
        """The clock's choice: pass a declaration; bury the lowest card; play the first legal play."""
        if seat not in self.pending():
            return None
        if self.phase == DECLARE:
            return Action(seat, "pass", timeout=True)
        if self.phase == BURY:
            low = min(self.hands[seat], key=self.context.order_key)
            return Action(seat, "bury", (low,), timeout=True)
        if not self.trick:
            low = min(self.hands[seat], key=self.context.order_key)
            return Action(seat, "play", (low,), timeout=True)
        # the first legal follow, without listing them all (a void seat against a long throw has many)
        return Action(
            seat, "play", next(iter_follows(self.lead, self.hands[seat], self.context)), timeout=True
        )

    def timing(self, seat: int) -> Timing | None:
        default = self.default_action(seat)
        return None if default is None else Timing(LIMIT_MS, default)

    # -- checking and applying ------------------------------------------------------------------

    def check(self, action: Action) -> None:
        self._validate(action)

    def apply(self, action: Action) -> None:
        self._validate(action)
        seat, kind = action.seat, action.kind
        if kind == "time_up":
            self.time_up = True
        elif kind in REFEREE_KINDS:
            self.penalties.append((seat, kind))
            if kind in ("forfeit", "disqualify"):
                self.ended_by = kind
                self.offender = seat
                self.phase = END
        elif kind == "declare":
            bid = dc.check(self._declared(), dc.read(seat, list(action.cards), self.level), self.options)
            self.first = None if bid.first is None else (bid.first.seat, bid.first.card, bid.first.count)
            assert bid.standing is not None
            self.standing = (bid.standing.seat, bid.standing.card, bid.standing.count)
            self.passed = []  # everyone may answer it, the declarer too (reinforcing)
            self.ask = (seat + 1) % SEATS
            self._settle_declaring()
        elif kind == "pass":
            self.passed.append(seat)
            self.ask = (seat + 1) % SEATS
            self._settle_declaring()
        elif kind == "bury":
            self.hands[seat].remove(action.cards[0])
            self.buried.append(action.cards[0])
            if len(self.buried) == KITTY:
                self.phase = PLAY
                self.leader = self.dealer
        else:
            self._play(seat, list(action.cards))

    def _validate(self, action: Action) -> None:
        seat, kind = action.seat, action.kind
        self._check_action_seat(seat)
        self._check_open()
        if kind in PLATFORM_KINDS or kind in REFEREE_KINDS:
            return
        if kind == "foul":
            raise Rejected("not_in_rules", "Shengji has no foul that loses a board: a violation or a forfeit")
        if kind not in ("declare", "pass", "bury", "play"):
            raise Rejected("unknown_action", f"no action {kind!r} in Shengji")
        if kind in ("declare", "pass") and self.phase != DECLARE:
            raise Rejected("declaring_closed", "declaring ended when the dealer took the kitty")
        if kind == "pass" and (self.dealt < DEAL_TOTAL or seat not in self.pending()):
            raise Rejected("not_your_turn", f"seat {seat} is not asked to declare now")
        if kind == "pass":
            return
        if kind == "declare":
            if self.dealt == DEAL_TOTAL and seat not in self.pending():
                raise Rejected("not_your_turn", f"seat {seat} is not asked to declare now")
            self._held(seat, action.cards)
            try:
                dc.check(self._declared(), dc.read(seat, list(action.cards), self.level), self.options)
            except ValueError as exc:
                code = exc.args[0]
                raise Rejected(str(code), f"this declaration is not allowed now ({code})") from None
            return
        if kind == "bury" and self.phase != BURY:
            raise Rejected("phase_closed", f"no burying in the {self.phase} phase")
        if kind == "play" and self.phase != PLAY:
            raise Rejected("phase_closed", f"no play in the {self.phase} phase")
        if seat not in self.pending():
            raise Rejected("not_your_turn", f"it is seat {self.pending()[0]}'s turn")
        if kind == "bury":
            if len(action.cards) != 1:
                raise Rejected("bury_one_card", "bury one card at a time")
            self._held(seat, action.cards)
            return
        cards = list(action.cards)
        if not cards:
            raise Rejected("empty_play", "play one card or more")
        self._held(seat, cards)
        ctx = self.context
        if not self.trick:
            if suit_of_play(cards, ctx) is None:
                raise Rejected("mixed_suits", "a lead is cards of one suit (trump counting as one)")
            return
        error = follow_error(self.lead, self.hands[seat], cards, ctx)
        if error is not None:
            raise Rejected(error.value, f"this does not follow the lead ({error.value})")

    def _held(self, seat: int, cards: Sequence[int]) -> None:
        have = Counter(self.hands[seat])
        for card, n in Counter(cards).items():
            if not isinstance(card, int) or have[card] < n:
                raise Rejected("not_in_hand", f"seat {seat} does not hold these cards")

    # -- declaring ------------------------------------------------------------------------------

    def _settle_declaring(self) -> None:
        """Once the deal is out and nobody is left to declare, the dealer takes the kitty."""
        if self.phase != DECLARE or self._next_to_declare() != NONE or self.dealt < DEAL_TOTAL:
            return
        suit, declarer, board1 = dc.outcome(self._declared(), self.options, self.kitty)
        self.trump_suit = NONE if suit is None else suit
        self.no_trump = suit is None
        self.declarer = NONE if declarer is None else declarer
        if self.dealer == NONE:
            self.dealer = board1
        self.hands[self.dealer] = sorted(self.hands[self.dealer] + self.kitty)
        self.phase = BURY

    # -- play -----------------------------------------------------------------------------------

    def _play(self, seat: int, cards: list[int]) -> None:
        ctx = self.context
        if not self.trick:
            others = [self.hands[(seat + i) % SEATS] for i in (1, 2, 3)]
            failures = throw_failures(cards, others, ctx)
            if failures:
                forced = list(forced_component(failures).cards)
                self.throws.append((seat, sorted(cards), sorted(forced)))
                cards = forced
            self.lead = sorted(cards)
        for c in cards:
            self.hands[seat].remove(c)
        self.trick.append((seat, sorted(cards)))
        if len(self.trick) < SEATS:
            return
        plays = [p for _, p in self.trick]
        winner = self.trick[trick_winner(plays, ctx)][0]
        self.side_points[side_of(winner)] += points(c for p in plays for c in p)
        self.last_trick = self.trick
        self.last_winner = winner
        self.played.extend(c for p in plays for c in p)
        self.trick = []
        self.leader = winner
        if not self.hands[seat]:
            defenders = 1 - side_of(self.dealer)
            if side_of(winner) == defenders:
                self.multiplier = kitty_multiplier(
                    decompose(self.lead, ctx), self.options.singles_throw_kitty.factor
                )
                self.kitty_bonus = points(self.buried) * self.multiplier
            self.phase = END
        self.lead = []

    # -- the result -----------------------------------------------------------------------------

    def penalty_points(self) -> int:
        """Penalties as a change of the defenders' points: 004's failed throws, 10 a card (§5.1 "failed
        throw"), and a referee's violations, 10 each; up when a dealer-side seat was penalised."""
        if self.dealer == NONE:
            return 0
        dealer_side = side_of(self.dealer)
        cards = (
            [len(a) for s, a, _ in self.throws]
            if self.options.throw_penalty is ThrowPenalty.TEN_PER_CARD
            else []
        )
        seats = [s for s, _, _ in self.throws] if cards else []
        for s, kind in self.penalties:
            if kind == "violation":
                cards.append(1)
                seats.append(s)
        return sum(
            10 * n * (1 if side_of(s) == dealer_side else -1) for s, n in zip(seats, cards, strict=True)
        )

    def defender_points(self) -> int:
        """The defenders' points: tricks, the kitty (multiplied) and penalties; never below 0."""
        defenders = 1 - side_of(self.dealer)
        return max(0, self.side_points[defenders] + self.kitty_bonus + self.penalty_points())

    def result(self) -> dict[str, Any]:
        self._check_ended()
        if self.ended_by:
            return self._forfeit_result()
        opts = self.options
        dealer_side = side_of(self.dealer)
        defender_points = self.defender_points()
        change = lv.result(defender_points, opts.result_table)
        win = dealer_side if change.dealer_side_won else 1 - dealer_side
        before = (self.levels[0], self.levels[1])
        after = list(before)
        after[win] = _level_cap(after[win] + change.levels)
        over = lv.game_over(after, opts, time_up=self.time_up, extra=self.extra)
        game: dict[str, Any] | None = None
        if over:
            decider = win if self.extra and after[0] == after[1] else None
            pts = lv.game_points(after, opts, decider)
            game = {"mp": list(pts.mp), "lp": list(pts.lp)}
        extra = self.time_up and not over
        scores = [change.levels if side_of(s) == win else -change.levels for s in range(SEATS)]
        carry = {
            "levels": [format_level(x) for x in after],
            "dealer": lv.next_dealer(self.dealer, change.dealer_side_won),
            "boards": self.boards + 1,
            "time_up": self.time_up,
            "extra": extra,
            "game_over": over,
            "options": opts.to_dict(),
        }
        return {
            "ruleset": self.ruleset,
            "scores": scores,
            "sides": [list(s) for s in SIDES],
            "dealer": self.dealer,
            "declarer": None if self.declarer == NONE else self.declarer,
            "trump": self._trump_letter(),
            "level": format_level(self.level),
            "defender_points": defender_points,
            "kitty": {
                "cards": format_cards(self.buried),
                "multiplier": self.multiplier,
                "points": self.kitty_bonus,
            },
            "penalty": self.penalty_points(),
            "winner_side": win,
            "levels_up": change.levels,
            "carry": carry,
            "game": game,
            "summary": {
                "level_side": dealer_side,
                "levels_before": [format_level(x) for x in before],
                "levels_after": [format_level(x) for x in after],
                "dealer": self.dealer,
                "trump": self._trump_letter(),
                "declarer": None if self.declarer == NONE else self.declarer,
                "defender_points": defender_points,
                # the cards buried, and what they counted for the defenders (× the last trick)
                "kitty": format_cards(self.buried),
                "kitty_multiplier": self.multiplier,
                "penalties": [list(p) for p in self.penalties],
            },
        }

    def _trump_letter(self) -> str | None:
        return None if self.trump_suit < 0 else "DCHS"[self.trump_suit]

    def _forfeit_result(self) -> dict[str, Any]:
        """A forfeit or disqualification ends the game: 2:0, and 13:−13 or the real margin if larger."""
        win = 1 - side_of(self.offender)
        margin = max(FORFEIT_LP, self.levels[win] - self.levels[1 - win])
        mp, lp = ([2, 0], [margin, -margin]) if win == 0 else ([0, 2], [-margin, margin])
        levels = [format_level(x) for x in self.levels]
        return {
            "ruleset": self.ruleset,
            "scores": [0] * SEATS,
            "sides": [list(s) for s in SIDES],
            "dealer": None if self.dealer == NONE else self.dealer,
            "winner_side": win,
            "ended_by": self.ended_by,
            "carry": {
                "levels": levels,
                "dealer": max(self.dealer, 0),
                "boards": self.boards + 1,
                "time_up": self.time_up,
                "extra": False,
                "game_over": True,
                "options": self.options.to_dict(),
            },
            "game": {"mp": mp, "lp": lp},
            "summary": {
                "level_side": win,
                "levels_before": levels,
                "levels_after": levels,
                "ended_by": self.ended_by,
                "penalties": [list(p) for p in self.penalties],
            },
        }

    # -- views ----------------------------------------------------------------------------------

    def seat_view(self, seat: int) -> SeatView:
        self._check_seat(seat)
        return SeatView(
            seat=seat,
            phase=self.phase,
            pending=tuple(self.pending()),
            hand=tuple(self.hands[seat]),
            counts=tuple(len(h) for h in self.hands),
            options=self.options,
            levels=(self.levels[0], self.levels[1]),
            level=self.level,
            dealer=self.dealer,
            trump_suit=self.trump_suit,
            no_trump=self.no_trump,
            standing=self.standing,
            dealt=self.dealt,
            buried=tuple(sorted(self.buried)) if seat == self.dealer else (),
            leader=self.leader,
            trick=tuple((s, tuple(p)) for s, p in self.trick),
            lead=tuple(self.lead),
            side_points=(self.side_points[0], self.side_points[1]),
            last_trick=tuple((s, tuple(p)) for s, p in self.last_trick),
            throws=tuple((s, tuple(a), tuple(f)) for s, a, f in self.throws),
            boards=self.boards,
            played=tuple(sorted(self.played)),
        )

    # -- serialization --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "r": self.ruleset,
            "op": self.options.to_dict(),
            "o": self.order,
            "lv": self.levels,
            "dl": self.dealer,
            "b": self.boards,
            "tu": self.time_up,
            "x": self.extra,
            "l": self.level,
            "n": self.dealt,
            "h": self.hands,
            "ph": self.phase,
            "f": self.first,
            "st": self.standing,
            "pa": self.passed,
            "ak": self.ask,
            "ts": self.trump_suit,
            "nt": self.no_trump,
            "dc": self.declarer,
            "bu": self.buried,
            "ld": self.leader,
            "tr": self.trick,
            "le": self.lead,
            "sp": self.side_points,
            "lt": self.last_trick,
            "th": self.throws,
            "kb": self.kitty_bonus,
            "m": self.multiplier,
            "lw": self.last_winner,
            "pl": self.played,
            "pe": self.penalties,
            "eb": self.ended_by,
            "of": self.offender,
        }

    @classmethod
    def _load(cls, data: dict[str, Any]) -> ShengjiBoard:
        board = cls.__new__(cls)
        board.options = Options.from_dict(data["op"], cls.preset)
        board.order = list(data["o"])
        board.levels = list(data["lv"])
        board.dealer = data["dl"]
        board.boards = data["b"]
        board.time_up = data["tu"]
        board.extra = data["x"]
        board.level = data["l"]
        board.dealt = data["n"]
        board.hands = [list(h) for h in data["h"]]
        board.phase = data["ph"]
        board.first = None if data["f"] is None else (data["f"][0], data["f"][1], data["f"][2])
        board.standing = None if data["st"] is None else (data["st"][0], data["st"][1], data["st"][2])
        board.passed = list(data["pa"])
        board.ask = data["ak"]
        board.trump_suit = data["ts"]
        board.no_trump = data["nt"]
        board.declarer = data["dc"]
        board.buried = list(data["bu"])
        board.leader = data["ld"]
        board.trick = [(s, list(p)) for s, p in data["tr"]]
        board.lead = list(data["le"])
        board.side_points = list(data["sp"])
        board.last_trick = [(s, list(p)) for s, p in data["lt"]]
        board.throws = [(s, list(a), list(f)) for s, a, f in data["th"]]
        board.kitty_bonus = data["kb"]
        board.multiplier = data["m"]
        board.last_winner = data["lw"]
        board.played = list(data["pl"])
        board.penalties = [(s, k) for s, k in data["pe"]]
        board.ended_by = data["eb"]
        board.offender = data["of"]
        return board


class CommonBoard(ShengjiBoard):
    """A board under ``shengji-common`` (seed 004)."""

    ruleset = COMMON
    preset: ClassVar[Preset] = Preset.COMMON


BOARDS: dict[str, type[ShengjiBoard]] = {YAOJI: ShengjiBoard, COMMON: CommonBoard}
