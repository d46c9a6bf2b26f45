"""The Guandan board state machine (RULES.md §4, §4.2): (lead choice) → tribute → return → play → end.

A board is one deal of a game: it starts from the previous board's *carry* (levels, whose level is
played, the finishing order that decides the tribute, penalties carried) and its result carries the
next one. Every action is checked against the state and either applied whole or rejected with a
reason code and no change. Two decks: hands are sorted lists of card ints (multisets).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, NamedTuple

from ...errors import DeckhandError
from ..common.board import END as END
from ..common.cards import BLACK_JOKER, check_cards, check_count, format_cards, parse_cards, suit_of
from ..common.deal import deal_round_robin
from ..common.trick import PLAY as PLAY
from ..common.trick import TrickBoard, last_json, read_last, read_seat, read_trick, seat_json, trick_json
from ..contract import Action, Board, Rejected, Timing
from . import DECKS, HAND_SIZE, RULESET, SEATS
from . import levels as lv
from . import tribute as tb
from .combos import BOMB_TYPES, Combo, Reading, beats, readings
from .legal import legal_plays

LEAD, TRIBUTE, RETURN = "lead", "tribute", "return"
NONE = -1
DECK = 108
# Cards as read may repeat a card more than twice (a wild read as a third HA): no deck check on them.
AS_READ_DECKS = 12
REPORT_AT = 10  # 002 第十二条: a hand of 10 cards or fewer is announced, once per board
SIDES = [[0, 2], [1, 3]]
REFEREE_KINDS = ("warning", "violation", "foul", "forfeit", "disqualify")
PLATFORM_KINDS = ("time_up",)


class Clock(NamedTuple):
    """A phase's clock (RULES.md §4 "Timing"), in each view as ``timing``: the platform runs it; at
    ``warn_s`` it applies a ``warning`` (a penalty, timeout=True), at ``limit_s`` the phase's default
    action (timeout=True), which the board records with ``penalty``."""

    warn_s: int | None
    limit_s: int
    default: str  # the default action, for people
    penalty: str | None

    def timing(self, default: Action) -> Timing:
        """The clock of one seat's decision, whose default action is ``default``."""
        if self.warn_s is None:
            return Timing(self.limit_s * 1000, default)
        return Timing(
            self.limit_s * 1000, default, self.warn_s * 1000, Action(default.seat, "warning", timeout=True)
        )


TIMING: dict[str, Clock] = {
    PLAY: Clock(20, 30, "pass", "violation"),
    TRIBUTE: Clock(None, 15, "tribute the highest card", None),
    RETURN: Clock(30, 45, "return the lowest allowed card", "violation"),
    LEAD: Clock(None, 30, "the choosing seat leads", None),
}

Play = tuple[int, ...]


def reading_to_data(r: Reading) -> dict[str, Any]:
    """A reading in a view or an action's ``data``: type name, strength, size and the cards as read."""
    return {"type": r.type.json_name, "rank": r.rank, "size": r.size, "as": format_cards(r.cards)}


def reading_from_data(d: dict[str, Any]) -> Reading:
    return Reading(
        Combo[d["type"].upper()],
        d["rank"],
        d["size"],
        tuple(parse_cards(d["as"], decks=AS_READ_DECKS, jokers=True)),
    )


def _state_reading(r: Reading | None) -> list[Any] | None:
    return None if r is None else [int(r.type), r.rank, r.size, list(r.cards)]


def _load_reading(d: list[Any] | None) -> Reading | None:
    return None if d is None else Reading(Combo(d[0]), d[1], d[2], tuple(d[3]))


class SeatView(NamedTuple):
    """What one seat may know: its own hand, counts, levels, the tribute once public, the trick, reports."""

    seat: int
    phase: str
    turn: int
    pending: tuple[int, ...]
    hand: tuple[int, ...]
    counts: tuple[int, ...]
    levels: tuple[int, int]
    level_side: int
    leader: int
    last: Play
    last_reading: Reading | None
    last_seat: int
    trick: tuple[tuple[int, Play], ...]
    out: tuple[int, ...]
    reports: tuple[tuple[int, int], ...]
    payers: tuple[int, ...]
    resisted: bool
    transfers: tuple[tuple[int, int, int], ...]  # (giver, receiver, card): public once all have paid
    returns: tuple[tuple[int, int, int], ...]  # (returner, receiver, card): public once all have returned
    return_rule: str
    chooser: int
    lost_turns: tuple[int, ...]
    penalties: tuple[tuple[int, str], ...]
    boards: int
    no_new_board: bool

    @property
    def level(self) -> int:
        """The rank index of the level card of this board."""
        return lv.level_rank(self.levels[self.level_side])

    @property
    def leading(self) -> bool:
        return not self.last

    def legal_plays(self) -> list[tuple[Play, Reading]]:
        """Every legal play with its reading when it is this seat's turn in the play phase (else none)."""
        if self.phase != PLAY or self.turn != self.seat:
            return []
        return legal_plays(self.hand, self.level, self.last_reading)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "phase": self.phase,
            "turn": seat_json(self.turn),
            "pending": list(self.pending),
            "hand": format_cards(self.hand),
            "counts": list(self.counts),
            "levels": [lv.format_level(x) for x in self.levels],
            "level_side": self.level_side,
            "level": lv.format_level(self.levels[self.level_side]),
            "leader": seat_json(self.leader),
            "last": self._last_dict(),
            "trick": trick_json(self.trick),
            "out": list(self.out),
            "reports": [{"seat": s, "cards": n} for s, n in self.reports],
            "tribute": {
                "payers": list(self.payers),
                "resisted": self.resisted,
                "transfers": [
                    {"from": g, "to": seat_json(r), "card": format_cards([c])[0]}
                    for g, r, c in self.transfers
                ],
                "returns": [{"from": g, "to": r, "card": format_cards([c])[0]} for g, r, c in self.returns],
                "return_rule": self.return_rule,
            },
            "chooser": seat_json(self.chooser),
            "lost_turns": list(self.lost_turns),
            "penalties": [{"seat": s, "kind": k} for s, k in self.penalties],
            "boards": self.boards,
            "no_new_board": self.no_new_board,
            "timing": TIMING[self.phase]._asdict() if self.phase in TIMING else None,
        }

    def _last_dict(self) -> dict[str, Any] | None:
        out = last_json(self.last, self.last_seat)
        if out is not None and self.last_reading is not None:
            out["reading"] = reading_to_data(self.last_reading)
        return out

    @classmethod
    def from_dict(cls, view: dict[str, Any]) -> SeatView:
        """Rebuild a view from its JSON form (what a device receives), e.g. for a bot on a device."""

        def cards(tokens: list[str]) -> tuple[int, ...]:
            return tuple(sorted(parse_cards(tokens, decks=2, jokers=True)))

        def moves(items: list[dict[str, Any]]) -> tuple[tuple[int, int, int], ...]:
            return tuple(
                (m["from"], read_seat(m["to"]), parse_cards([m["card"]], jokers=True)[0]) for m in items
            )

        last = view["last"]
        last_cards, last_seat = read_last(last, cards)
        trib = view["tribute"]
        return cls(
            seat=view["seat"],
            phase=view["phase"],
            turn=read_seat(view["turn"]),
            pending=tuple(view["pending"]),
            hand=cards(view["hand"]),
            counts=tuple(view["counts"]),
            levels=(lv.parse_level(view["levels"][0]), lv.parse_level(view["levels"][1])),
            level_side=view["level_side"],
            leader=read_seat(view["leader"]),
            last=last_cards,
            last_reading=reading_from_data(last["reading"]) if last and "reading" in last else None,
            last_seat=last_seat,
            trick=read_trick(view["trick"], cards),
            out=tuple(view["out"]),
            reports=tuple((r["seat"], r["cards"]) for r in view["reports"]),
            payers=tuple(trib["payers"]),
            resisted=trib["resisted"],
            transfers=moves(trib["transfers"]),
            returns=moves(trib["returns"]),
            return_rule=trib["return_rule"],
            chooser=read_seat(view["chooser"]),
            lost_turns=tuple(view["lost_turns"]),
            penalties=tuple((p["seat"], p["kind"]) for p in view["penalties"]),
            boards=view["boards"],
            no_new_board=view["no_new_board"],
        )


class Carry(NamedTuple):
    """The previous board's outcome a board starts from (``result()["carry"]``, JSON-able)."""

    levels: tuple[int, int]
    level_side: int
    a_attempts: tuple[int, int]
    order: tuple[int, ...] | None  # finishing order of the previous board; None on a game's first board
    no_tribute: bool  # a foul on the previous board (002 第十五条三3)
    chooser_side: int  # the side that names the first leader after a foul, else -1
    leader: int  # an explicit first leader (board 1), else -1
    boards: int  # boards completed in this game
    time_up: bool
    fouls: tuple[int, int]
    violations: tuple[int, int]
    warnings: tuple[int, int]
    options: lv.Options

    @classmethod
    def read(cls, carry: dict[str, Any] | None) -> Carry:
        """A carry dict (None = a game's first board) with every key optional."""
        c = carry or {}
        if not isinstance(c, dict):
            raise DeckhandError(f"a Guandan carry is an object, got {carry!r}")
        if c.get("game_over"):
            raise DeckhandError("the game is over: no new board")
        try:
            levels = tuple(lv.parse_level(x) for x in c.get("levels", ["2", "2"]))
            order = c.get("order")
            pen = c.get("penalties", {})
            out = cls(
                levels=(levels[0], levels[1]),
                level_side=int(c.get("level_side", 0)),
                a_attempts=_two(c.get("a_attempts", [0, 0])),
                order=tuple(lv.check_order(order)) if order is not None else None,
                no_tribute=bool(c.get("no_tribute", False)),
                chooser_side=NONE if c.get("chooser_side") is None else int(c["chooser_side"]),
                leader=NONE if c.get("leader") is None else int(c["leader"]),
                boards=int(c.get("boards", 0)),
                time_up=bool(c.get("time_up", False)),
                fouls=_two(pen.get("fouls", [0, 0])),
                violations=_two(pen.get("violations", [0, 0])),
                warnings=_two(pen.get("warnings", [0, 0])),
                options=lv.Options.from_dict(c.get("options")),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, DeckhandError):
                raise
            raise DeckhandError(f"not a Guandan carry: {exc}") from exc
        if len(levels) != 2 or lv.PAST_A in levels or out.level_side not in (0, 1):
            raise DeckhandError("a carry has two levels below A+ and a level_side of 0 or 1")
        if out.leader not in (NONE, 0, 1, 2, 3) or out.chooser_side not in (NONE, 0, 1):
            raise DeckhandError("a carry's leader is a seat and chooser_side a side")
        return out


def _two(value: Any) -> tuple[int, int]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise DeckhandError(f"expected two per-side numbers, got {value!r}")
    return (int(value[0]), int(value[1]))


class GuandanBoard(TrickBoard):
    """One board of a Guandan game; build it with :meth:`from_deal` (a 108-card order and a carry)."""

    ruleset = RULESET
    name = "Guandan"
    seats = SEATS
    last_reading: Reading | None  # the reading of ``last``, what the next play must beat

    def __init__(self, hands: Sequence[Sequence[int]], carry: dict[str, Any] | None = None) -> None:
        if len(hands) != SEATS:
            raise DeckhandError(f"Guandan needs {SEATS} hands, got {len(hands)}")
        for seat, hand in enumerate(hands):
            check_count(hand, HAND_SIZE, f"hand of seat {seat}")
        check_cards([c for h in hands for c in h], decks=DECKS, jokers=True)
        c = Carry.read(carry)
        opts = c.options
        self.options = opts
        self.dealt = [sorted(h) for h in hands]
        self.hands = [sorted(h) for h in hands]
        self.levels = list(c.levels)
        self.level_side = c.level_side
        self.a_attempts = list(c.a_attempts)
        self.boards = c.boards
        self.time_up = c.time_up
        self.extra = lv.limit_reached(c.boards, opts, time_up=c.time_up)
        if self.extra and (c.levels[0] != c.levels[1] or opts.draws):
            raise DeckhandError("the game's limit is reached: no new board")
        self.fouls = list(c.fouls)
        self.violations = list(c.violations)
        self.warnings = list(c.warnings)
        self.prev_order = list(c.order) if c.order is not None else None
        self.no_tribute = c.no_tribute
        # tribute state
        self.first = NONE
        self.payers: list[int] = []
        self.resisted = False
        self.double = False
        self.paid: dict[int, int] = {}  # payer → card chosen (hidden until all have paid)
        self.transfers: list[tuple[int, int, int]] = []
        self.returned: dict[int, int] = {}  # receiver → card returned
        self.returns: list[tuple[int, int, int]] = []
        self.chooser = NONE
        # play state
        self.leader = NONE
        self.turn = NONE
        self._clear_trick()
        self.out: list[int] = []
        self.reports: list[tuple[int, int]] = []
        self.lost = [0] * SEATS  # turns a seat must lose (a referee's violation)
        self.penalties: list[tuple[int, str]] = []
        self.winds = 0  # times the lead passed to a partner by 借风
        self.ended_by = ""
        self.offender = NONE  # side that fouled, forfeited or was disqualified
        self.phase = PLAY
        if self.prev_order is None:
            self.leader = c.leader if c.leader != NONE else self.first_leader_of(hands)
            self._start_play(self.leader)
        elif self.no_tribute:
            side = c.chooser_side if c.chooser_side != NONE else lv.side_of(self.prev_order[0])
            self.chooser = SIDES[side][0]
            self.phase = LEAD
        else:
            plan = tb.plan(self.prev_order, self.hands)
            self.first = plan.first
            self.resisted = plan.resisted
            self.double = plan.double
            self.payers = list(plan.payers)
            if plan.resisted:
                self._start_play(plan.first)
            else:
                self.phase = TRIBUTE

    @classmethod
    def from_deal(cls, order: Sequence[int], carry: dict[str, Any] | None = None) -> GuandanBoard:
        """Deal a shuffled 108-card order round robin, seat 0 first, and start from ``carry``."""
        check_count(order, DECK, "deck")
        hands, _ = deal_round_robin(order, SEATS, HAND_SIZE)
        board = cls(hands, carry)
        if carry is None or (carry.get("order") is None and carry.get("leader") is None):
            board._set_first_leader(cls.first_leader_of_order(order))
        return board

    @staticmethod
    def first_leader_of_order(order: Sequence[int]) -> int:
        """⚖ §4.2 "First lead": the software stands in for the turned card, drawn uniformly from the
        seeded shuffle: the shuffle's first card that is not a joker names the seat by its suit
        (♦ ♣ ♥ ♠ → seats 0 1 2 3). A uniform shuffle makes that card uniform over the 52 suited cards,
        13 for each seat (the first card itself, jokers included, favoured seats 0 and 1: 14/54)."""
        card = next(c for c in order if c < BLACK_JOKER)
        return suit_of(card)

    @staticmethod
    def first_leader_of(hands: Sequence[Sequence[int]]) -> int:
        """Without a deal order (hands given directly), the holder of the lowest card leads board 1."""
        low = min(min(h) for h in hands)
        return next(s for s in range(SEATS) if low in hands[s])

    def _set_first_leader(self, seat: int) -> None:
        self.leader = seat
        self.turn = seat

    # -- queries ---------------------------------------------------------------------------------

    @property
    def level(self) -> int:
        """The level card's rank index this board (the level of the side that won the last board)."""
        return lv.level_rank(self.levels[self.level_side])

    def hand(self, seat: int) -> list[int]:
        return list(self.hands[seat])

    def counts(self) -> list[int]:
        return [len(h) for h in self.hands]

    def active(self) -> list[int]:
        return [s for s in range(SEATS) if self.hands[s] and s not in self.out]

    def pending(self) -> list[int]:
        """Seats whose decision the board waits for (both payers, or both receivers, at once in 双贡)."""
        if self.phase == TRIBUTE:
            return [p for p in self.payers if p not in self.paid]
        if self.phase == RETURN:
            return [r for _, r, _ in self.transfers if r not in self.returned]
        if self.phase == LEAD:
            return [self.chooser]
        if self.phase == PLAY:
            return [self.turn]
        return []

    def no_new_board(self) -> bool:
        """The platform may deal no board after this one (the board count or the clock has run out)."""
        return (
            lv.verdict(self.levels, self.boards, self.options, time_up=self.time_up, in_progress=True)
            == lv.Verdict.NO_NEW_BOARD
        )

    def seat_view(self, seat: int) -> SeatView:
        self._check_seat(seat)
        # Paid cards are shown once both payers have paid; until then a payer sees only its own.
        transfers = list(self.transfers)
        if self.phase == TRIBUTE and seat in self.paid:
            transfers = [(seat, NONE, self.paid[seat])]
        if self.phase == RETURN:
            returns = [
                (r, g, self.returned[r]) for g, r, _ in self.transfers if r == seat and r in self.returned
            ]
        else:
            returns = list(self.returns)
        return SeatView(
            seat=seat,
            phase=self.phase,
            turn=self.turn if self.phase == PLAY else NONE,
            pending=tuple(self.pending()),
            hand=tuple(self.hands[seat]),
            counts=tuple(self.counts()),
            levels=(self.levels[0], self.levels[1]),
            level_side=self.level_side,
            leader=self.leader,
            last=self.last,
            last_reading=self.last_reading,
            last_seat=self.last_seat,
            trick=tuple(self.trick),
            out=tuple(self.out),
            reports=tuple(self.reports),
            payers=tuple(self.payers),
            resisted=self.resisted,
            transfers=tuple(transfers),
            returns=tuple(returns),
            return_rule=self.options.return_rule.value,
            chooser=self.chooser,
            lost_turns=tuple(self.lost),
            penalties=tuple(self.penalties),
            boards=self.boards,
            no_new_board=self.no_new_board(),
        )

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action the seat may take now; each legal play once, its reading in ``data``."""
        self._check_seat(seat)
        if seat not in self.pending():
            return []
        if self.phase == TRIBUTE:
            return [Action(seat, "tribute", (c,)) for c in tb.tribute_cards(self.hands[seat], self.level)]
        if self.phase == RETURN:
            return [Action(seat, "return", (c,)) for c in self._return_cards(seat)]
        if self.phase == LEAD:
            return [Action(seat, "lead", value=s) for s in range(SEATS)]
        return self._with_pass(
            seat,
            [
                Action(seat, "play", cards, data=reading_to_data(r))
                for cards, r in legal_plays(self.hands[seat], self.level, self.last_reading)
            ],
        )

    def timing(self, seat: int) -> Timing | None:
        """The clock of the seat's decision in this phase (``TIMING``): warning, then the default."""
        default = self.default_action(seat)
        return None if default is None else TIMING[self.phase].timing(default)

    def default_action(self, seat: int) -> Action | None:
        """What a timeout means (RULES.md §4 "Timing"): in play a pass (the turn is lost, even a lead), a
        tribute of the highest card, a return of the lowest allowed card, the chooser leading itself."""
        self._check_seat(seat)
        if seat not in self.pending():
            return None
        if self.phase == TRIBUTE:
            return Action(seat, "tribute", (tb.tribute_cards(self.hands[seat], self.level)[0],), timeout=True)
        if self.phase == RETURN:
            allowed = self._return_cards(seat)
            low = min(allowed, key=lambda c: (tb.strength(c, self.level), c))
            return Action(seat, "return", (low,), timeout=True)
        if self.phase == LEAD:
            return Action(seat, "lead", value=seat, timeout=True)
        return Action(seat, "pass", timeout=True)

    def _return_cards(self, seat: int) -> list[int]:
        giver = next(g for g, r, _ in self.transfers if r == seat)
        return tb.return_cards(
            self.hands[seat], self.level, giver == lv.partner_of(seat), self.options.return_rule
        )

    # -- actions ---------------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply one action or raise Rejected; a rejected action leaves the board exactly as it was."""
        checked = self._validate(action)
        kind, seat = action.kind, action.seat
        if kind == "play":
            assert checked is not None
            self._play(seat, action.cards, checked)
        elif kind == "pass":
            if action.timeout:
                self._penalise(seat, "violation", timeout=True)
            self._pass(seat)
        elif kind == "tribute":
            self._tribute(seat, action.cards[0])
        elif kind == "return":
            if action.timeout:
                # RULES.md §4 "Timing"/"Penalties": a violation, which also loses the seat's next turn.
                self._referee(seat, "violation", timeout=True)
            self._return(seat, action.cards[0])
        elif kind == "lead":
            self.chooser_choice(action.value)
        elif kind == "time_up":
            self.time_up = True
        else:
            self._referee(seat, kind, action.timeout)

    def _validate(self, action: Action) -> Reading | None:
        seat = action.seat
        self._check_action_seat(seat)
        kind = action.kind
        if kind in REFEREE_KINDS or kind in PLATFORM_KINDS:
            self._check_open()
            return None
        if kind in ("play", "pass"):
            # A pass on the clock loses even a lead (RULES.md §4 "Timing").
            self._check_in_trick(action, lead_pass=action.timeout)
            return self._check_play(seat, action.cards, action.data) if kind == "play" else None
        if kind in ("tribute", "return"):
            if self.phase != (TRIBUTE if kind == "tribute" else RETURN):
                raise Rejected("phase_closed", f"no {kind} in the {self.phase} phase")
            if seat not in self.pending():
                raise Rejected("not_your_turn", f"seat {seat} has no {kind} to make")
            card = self._one_card(seat, action.cards)
            if kind == "tribute" and not tb.tribute_ok(card, self.hands[seat], self.level):
                raise Rejected(
                    "not_highest",
                    f"the tribute is the highest card but a heart level card: one of "
                    f"{' '.join(format_cards(tb.tribute_cards(self.hands[seat], self.level)))}",
                )
            if kind == "return" and card not in self._return_cards(seat):
                raise Rejected(
                    "return_not_allowed",
                    f"this return must be 10 or lower (the lowest card if none): one of "
                    f"{' '.join(format_cards(self._return_cards(seat)))}",
                )
            return None
        if kind == "lead":
            if self.phase != LEAD:
                raise Rejected("phase_closed", "the first leader is chosen only after a foul")
            if seat != self.chooser:
                raise Rejected("not_your_turn", f"seat {self.chooser} names the leader, not seat {seat}")
            if not isinstance(action.value, int) or not 0 <= action.value < SEATS:
                raise Rejected("bad_seat", f"the leader is a seat 0..{SEATS - 1}, got {action.value!r}")
            return None
        raise Rejected("bad_action", f"unknown action {kind!r} for Guandan")

    def _one_card(self, seat: int, cards: Sequence[int]) -> int:
        if len(cards) != 1:
            raise Rejected("one_card", f"exactly one card, got {len(cards)}")
        card = cards[0]
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 54:
            raise Rejected("bad_card", f"not a card: {card!r}")
        if card not in self.hands[seat]:
            raise Rejected("not_in_hand", f"not in seat {seat}'s hand: {format_cards([card])[0]}")
        return card

    def _check_play(self, seat: int, cards: Sequence[int], data: Any) -> Reading:
        for c in cards:
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 54:
                raise Rejected("bad_card", f"not a Guandan card: {c!r}")
        if not cards:
            raise Rejected("not_a_combination", "a play needs at least one card; to pass, send pass")
        need = Counter(cards)
        have = Counter(self.hands[seat])
        missing = need - have
        if missing:
            raise Rejected(
                "not_in_hand",
                f"not in seat {seat}'s hand: {' '.join(format_cards(sorted(missing.elements())))}",
            )
        play = tuple(sorted(cards))
        found = readings(play, self.level)
        if not found:
            raise self._not_a_combination(play)
        chosen = found
        if data is not None:
            chosen = self._declared(found, data)
        if self.last_reading is not None:
            prev = self.last_reading
            beating = [r for r in chosen if beats(r, prev)]
            if not beating:
                r = chosen[0]
                if r.type in BOMB_TYPES or prev.type in BOMB_TYPES:
                    raise Rejected(
                        "does_not_beat", f"{r.type.json_name} does not beat the last {prev.type.json_name}"
                    )
                if all(x.type != prev.type for x in chosen):
                    raise Rejected(
                        "wrong_type", f"the trick is of {prev.type.json_name} plays, not {r.type.json_name}"
                    )
                if all(x.size != prev.size for x in chosen):
                    raise Rejected("wrong_size", f"the trick is of {prev.size}-card plays, not {r.size}")
                raise Rejected(
                    "does_not_beat", f"{r.type.json_name} does not beat the last {prev.type.json_name}"
                )
            chosen = beating
        if len(chosen) > 1:
            raise Rejected(
                "reading_needed",
                f"{' '.join(format_cards(play))} reads several ways; say which with data={{'as': [...]}}: "
                + "; ".join(f"{r.type.json_name} {' '.join(format_cards(r.cards))}" for r in chosen),
            )
        return chosen[0]

    @staticmethod
    def _declared(found: list[Reading], data: Any) -> list[Reading]:
        """The readings matching a declared ``{"as": [tokens], "type": name}`` (type optional)."""
        if not isinstance(data, dict) or "as" not in data:
            raise Rejected("bad_reading", "a declared reading is {'as': [the cards as read], 'type': …}")
        try:
            as_read = tuple(sorted(parse_cards(data["as"], decks=AS_READ_DECKS, jokers=True)))
        except DeckhandError as exc:
            raise Rejected("bad_reading", f"bad reading: {exc}") from None
        kind = data.get("type")
        match = [
            r
            for r in found
            if tuple(sorted(r.cards)) == as_read and (kind is None or r.type.json_name == kind)
        ]
        if not match:
            raise Rejected(
                "bad_reading",
                f"the cards cannot read as {' '.join(format_cards(as_read))}"
                + (f" ({kind})" if kind else "")
                + "; they read as: "
                + "; ".join(f"{r.type.json_name} {' '.join(format_cards(r.cards))}" for r in found),
            )
        return match

    # -- tribute, return, lead choice ----------------------------------------------------------

    def _tribute(self, seat: int, card: int) -> None:
        self.paid[seat] = card
        if self.pending():
            return
        plan = tb.Plan(self.first, tuple(self.payers), False, self.double)
        transfers, leader = tb.assign(plan, dict(self.paid), self.level)
        for t in transfers:
            self.hands[t.giver].remove(t.card)
            self.hands[t.receiver].append(t.card)
            self.hands[t.receiver].sort()
        self.transfers = [(t.giver, t.receiver, t.card) for t in transfers]
        self.leader = leader
        self.phase = RETURN

    def _return(self, seat: int, card: int) -> None:
        self.returned[seat] = card
        if self.pending():
            return
        for giver, receiver, _ in self.transfers:
            c = self.returned[receiver]
            self.hands[receiver].remove(c)
            self.hands[giver].append(c)
            self.hands[giver].sort()
            self.returns.append((receiver, giver, c))
        self._start_play(self.leader)

    def chooser_choice(self, leader: int) -> None:
        self.leader = leader
        self._start_play(leader)

    def _start_play(self, leader: int) -> None:
        self.phase = PLAY
        self.leader = leader
        self.turn = leader
        self._settle_turn()

    # -- play ------------------------------------------------------------------------------------

    def _play(self, seat: int, cards: Sequence[int], reading: Reading) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        self._record_play(seat, tuple(sorted(cards)))
        self.last_reading = reading
        if 0 < len(hand) <= REPORT_AT and all(s != seat for s, _ in self.reports):
            self.reports.append((seat, len(hand)))
        if not hand:
            self.out.append(seat)
            if (len(self.out) == 2 and lv.side_of(self.out[0]) == lv.side_of(self.out[1])) or len(
                self.out
            ) == 3:
                self._end("play")
                return
        self.turn = self._next_active(seat)
        self._settle_turn()

    def _pass(self, seat: int) -> bool:
        if not self.last:
            # A lead lost (a timeout or a referee's violation): the next seat in play leads instead.
            self.turn = self._next_active(seat)
            self._settle_turn()
            return False
        # Seats out of cards no longer pass: the trick ends when every other seat in play has passed.
        last_in = self.last_seat in self.active()
        won = self._record_pass(seat, len(self.active()) - (1 if last_in else 0))
        if won == NONE:
            self.turn = self._next_active(seat)
        else:
            # Nobody beat the last play: its player leads, or its partner by passing wind (借风, §4.2).
            self.turn = won if last_in else lv.partner_of(won)
            self.winds += 0 if last_in else 1
        self._settle_turn()
        return won != NONE

    def _clear_trick(self) -> None:
        super()._clear_trick()
        self.last_reading = None

    def _next_active(self, seat: int) -> int:
        for step in range(1, SEATS + 1):
            s = (seat + step) % SEATS
            if self.hands[s] and s not in self.out:
                return s
        return NONE

    def _settle_turn(self) -> None:
        """A seat that must lose a turn (a violation) passes, or loses its lead, when the turn reaches it."""
        if self.phase != PLAY or self.turn == NONE:
            return
        seat = self.turn
        if self.lost[seat] > 0:
            self.lost[seat] -= 1
            self._pass(seat)

    def _end(self, how: str) -> None:
        self.phase = END
        self.ended_by = how
        self.turn = NONE

    # -- referee ---------------------------------------------------------------------------------

    def _penalise(self, seat: int, kind: str, timeout: bool = False) -> None:
        self.penalties.append((seat, kind + (" (timeout)" if timeout else "")))
        side = lv.side_of(seat)
        if kind == "warning":
            self.warnings[side] += 1
        elif kind == "violation":
            self.violations[side] += 1
        elif kind == "foul":
            self.fouls[side] += 1

    def _referee(self, seat: int, kind: str, timeout: bool) -> None:
        """Referee penalties (RULES.md §4 "Penalties", 002 第十五条三), recorded and applied."""
        self._penalise(seat, kind, timeout)
        if kind == "violation":
            self.lost[seat] += 1  # 停止一圈出牌权: the seat's next turn is passed
            if self.phase == PLAY and self.turn == seat:
                self._settle_turn()
        elif kind in ("foul", "forfeit", "disqualify"):
            self.offender = lv.side_of(seat)
            self._end(kind)

    # -- result ----------------------------------------------------------------------------------

    def final_order(self) -> list[int]:
        """The finishing order: the seats out, then (at 双下 or three out) the rest from the first's 下家."""
        if self.ended_by in ("foul", "forfeit", "disqualify"):
            win = 1 - self.offender
            return [SIDES[win][0], SIDES[win][1], SIDES[1 - win][0], SIDES[1 - win][1]]
        rest = [s for s in range(SEATS) if s not in self.out]
        return list(self.out) + rest

    def result(self) -> dict[str, Any]:
        self._check_ended()
        order = self.final_order()
        game: dict[str, Any] | None = None
        ended = self.ended_by
        levels_before = (self.levels[0], self.levels[1])
        if ended in ("forfeit", "disqualify"):
            win = 1 - self.offender
            n = 0
            new_levels = levels_before
            attempts = (self.a_attempts[0], self.a_attempts[1])
            pts = lv.forfeit_points(levels_before, win, self.options.table)
            over = True
        else:
            up = lv.upgrade(self.levels, self.level_side, order, self.a_attempts, self.options)
            win, n, new_levels, attempts = up.winner_side, up.steps, up.levels, up.a_attempts
            v = lv.verdict(
                new_levels, self.boards + 1, self.options, time_up=self.time_up, extra_done=self.extra
            )
            over = v == lv.Verdict.GAME_OVER
            decider = win if self.extra else None
            pts = lv.level_points(new_levels, self.options.table, decider)
        if over:
            game = {
                "match_points": list(pts.match_points),
                "level_points": list(pts.level_points),
                "winner_side": pts.winner_side,
            }
        scores = [n if lv.side_of(s) == win else -n for s in range(SEATS)]
        carry = {
            "levels": [lv.format_level(x) for x in new_levels],
            "level_side": win,
            "played": {"side": self.level_side, "level": lv.format_level(self.levels[self.level_side])},
            "a_attempts": list(attempts),
            "order": order,
            "double_down": lv.is_double_down(order),
            "no_tribute": ended == "foul",
            "chooser_side": win if ended == "foul" else None,
            "boards": self.boards + 1,
            "time_up": self.time_up,
            "game_over": over,
            "game": game,
            "penalties": {
                "warnings": list(self.warnings),
                "violations": list(self.violations),
                "fouls": list(self.fouls),
            },
            "forfeit": 1 - win if ended == "forfeit" else None,
            "disqualified": 1 - win if ended == "disqualify" else None,
            "options": self.options.to_dict(),
        }
        return {
            "ruleset": RULESET,
            "scores": scores,
            "sides": [list(s) for s in SIDES],
            "order": order,
            "winner_side": win,
            "steps": n,
            "ended_by": ended,
            "reports": [list(r) for r in self.reports],
            "penalties": [list(p) for p in self.penalties],
            "carry": carry,
            # The contract's part for match play (engines/contract.py): the game (局) this board ended.
            "game": None if game is None else {"mp": game["match_points"], "lp": game["level_points"]},
            "summary": {
                "level_side": self.level_side,
                "levels_before": [lv.format_level(x) for x in levels_before],
                "levels_after": [lv.format_level(x) for x in new_levels],
                "order": order,
                "tribute": [{"from": g, "to": r, "card": format_cards([c])[0]} for g, r, c in self.transfers],
                "returns": [{"from": g, "to": r, "card": format_cards([c])[0]} for g, r, c in self.returns],
                "resisted": self.resisted,
                "ended_by": ended,
                "penalties": [list(p) for p in self.penalties],
            },
        }

    # -- serialization ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "r": RULESET,
            "op": self.options.to_dict(),
            "d": self.dealt,
            "h": self.hands,
            "lv": self.levels,
            "ls": self.level_side,
            "aa": self.a_attempts,
            "bd": self.boards,
            "tu": self.time_up,
            "ex": self.extra,
            "pn": [self.warnings, self.violations, self.fouls],
            "po": self.prev_order,
            "nt": self.no_tribute,
            "f1": self.first,
            "py": self.payers,
            "rs": self.resisted,
            "db": self.double,
            "pd": [[s, c] for s, c in sorted(self.paid.items())],
            "tr": [list(t) for t in self.transfers],
            "rd": [[s, c] for s, c in sorted(self.returned.items())],
            "rt": [list(t) for t in self.returns],
            "ch": self.chooser,
            "ld": self.leader,
            "t": self.turn,
            "l": list(self.last),
            "lr": _state_reading(self.last_reading),
            "lsd": self.last_seat,
            "n": self.passes,
            "k": [[s, list(p)] for s, p in self.trick],
            "o": self.out,
            "rp": [list(r) for r in self.reports],
            "lt": self.lost,
            "pl": [list(p) for p in self.penalties],
            "w": self.winds,
            "eb": self.ended_by,
            "of": self.offender,
            "p": self.phase,
        }

    @classmethod
    def _load(cls, data: dict[str, Any]) -> GuandanBoard:
        board = cls.__new__(cls)
        board.options = lv.Options.from_dict(data["op"])
        board.dealt = [list(h) for h in data["d"]]
        board.hands = [list(h) for h in data["h"]]
        board.levels = list(data["lv"])
        board.level_side = data["ls"]
        board.a_attempts = list(data["aa"])
        board.boards = data["bd"]
        board.time_up = data["tu"]
        board.extra = data["ex"]
        board.warnings, board.violations, board.fouls = (list(x) for x in data["pn"])
        board.prev_order = None if data["po"] is None else list(data["po"])
        board.no_tribute = data["nt"]
        board.first = data["f1"]
        board.payers = list(data["py"])
        board.resisted = data["rs"]
        board.double = data["db"]
        board.paid = {s: c for s, c in data["pd"]}
        board.transfers = [(g, r, c) for g, r, c in data["tr"]]
        board.returned = {s: c for s, c in data["rd"]}
        board.returns = [(g, r, c) for g, r, c in data["rt"]]
        board.chooser = data["ch"]
        board.leader = data["ld"]
        board.turn = data["t"]
        board.last = tuple(data["l"])
        board.last_reading = _load_reading(data["lr"])
        board.last_seat = data["lsd"]
        board.passes = data["n"]
        board.trick = [(s, tuple(p)) for s, p in data["k"]]
        board.out = list(data["o"])
        board.reports = [(s, n) for s, n in data["rp"]]
        board.lost = list(data["lt"])
        board.penalties = [(s, k) for s, k in data["pl"]]
        board.winds = data["w"]
        board.ended_by = data["eb"]
        board.offender = data["of"]
        board.phase = data["p"]
        return board


# Checked by mypy: the Guandan board offers the whole engine interface.
_ENGINE: type[Board] = GuandanBoard
