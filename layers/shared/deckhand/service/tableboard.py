"""One table's board as the system sees it: engine state + log + clocks, saved with a version check.

Every change goes through :func:`transact`: load, change in memory, save conditionally on the
version, and on a lost race load again and redo — so two messages racing for one turn give exactly
one winner, and the loser is re-validated against the winner's state (and rejected with a reason).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeVar

from pynamodb.exceptions import DoesNotExist, PutError, TransactWriteError

from ..engines.common.cards import format_cards
from ..engines.contract import Action, Board, DealtInSteps, Timing, outcome_of
from ..engines.registry import Game, game
from . import outgoing
from .clock import now_ms
from .keys import STATE, board_pk, deal_sk, event_pk
from .messaging import Publisher, down_topic
from .models import BoardStateItem, DealItem

T = TypeVar("T")
# Cards given out to the seats (a game dealt in steps): ``{"s": -1, "t": "step", "n": upto}``.
STEP = "step"
# Log entries that are not the engine's actions: a dealing table's report, a redeal, a referee call, a
# deal step (replay gives the cards out again at the same points).
NOT_ACTIONS = ("dealt", "redeal", "call", STEP, "serve_deal")
MAX_ATTEMPTS = 8
# A transaction refused for a condition (the board's version) or a concurrent transaction: a lost race.
CANCELLED = ("TransactionCanceledException", "TransactionConflictException")


class LostRace(Exception):
    pass


def load(event_id: str, round_no: int, table: str, board: str) -> BoardStateItem | None:
    try:
        return BoardStateItem.get(board_pk(event_id, round_no, table, board), STATE, consistent_read=True)
    except DoesNotExist:
        return None


def load_many(
    event_id: str,
    round_no: int,
    pairs: list[tuple[str, str]],
    *,
    consistent: bool = False,
    attributes: list[str] | None = None,
) -> dict[tuple[str, str], BoardStateItem]:
    """Many boards in batched reads: (table, board) → item (only ``attributes`` when given: an item
    read so is for looking at, never for saving)."""
    keys = [(board_pk(event_id, round_no, t, b), STATE) for t, b in pairs]
    found = BoardStateItem.batch_get(keys, consistent_read=consistent or None, attributes_to_get=attributes)
    return {(i.table, i.board): i for i in found}


@dataclass(frozen=True)
class Unchanged(Generic[T]):
    """What a change returns when the item needs no write (a duplicate, a board already started)."""

    value: T


class Timeouts(NamedTuple):
    applied: int  # decisions whose time was up, taken by their defaults
    redealt: bool  # the board moved to its next deal (all passed): the dealing table deals again


def transact(
    key: tuple[str, int, str, str],
    change: Callable[[BoardStateItem], T | Unchanged[T]],
    first: BoardStateItem | None = None,
) -> tuple[BoardStateItem, T]:
    """Apply ``change`` to the stored item and save it conditionally; redo on a lost race.

    ``change`` returns a value, or ``Unchanged(value)`` when nothing is to be written; raising inside
    it aborts without saving. It must not publish.
    ``first`` is an item just read, used for the first attempt (one read fewer on the hot path).
    """
    for attempt in range(MAX_ATTEMPTS):
        item = first if attempt == 0 and first is not None else load(*key)
        if item is None:
            raise DoesNotExist(f"no board {key}")
        was = item.status
        result = change(item)
        if isinstance(result, Unchanged):
            return item, result.value
        try:
            if item.in_match and item.status == "ended" and was != "ended":
                from .match_boards import save_ended

                save_ended(item)  # with the match's next board or its result, in one transaction
            else:
                item.save()
        except PutError as exc:
            if _is_conditional_failure(exc):
                continue
            raise
        except TransactWriteError as exc:
            if getattr(exc, "cause_response_code", "") in CANCELLED:
                continue
            raise
        return item, result
    raise LostRace(f"board {key} kept changing; gave up after {MAX_ATTEMPTS} attempts")


def _is_conditional_failure(exc: PutError) -> bool:
    return getattr(exc, "cause_response_code", "") == "ConditionalCheckFailedException"


def engine_of(item: BoardStateItem) -> tuple[Game, Board]:
    g = game(item.ruleset)
    return g, g.load_board(item.state)


def _log_entry(g: Game, action: Action, at: int, msg: str = "") -> dict[str, Any]:
    entry: dict[str, Any] = {"s": action.seat, "t": action.kind, "at": at}
    if action.cards:
        entry["c"] = format_cards(action.cards)
    rule = g.action(action.kind)
    if rule is not None and rule.values:
        entry["v"] = action.value
    if action.data is not None:
        entry["d"] = action.data  # a declared reading or declaration: replay needs it
    if action.timeout:
        entry["to"] = True
    if msg:
        entry["m"] = msg  # with the seat: the sender (a thing has one seat), for de-duplication
    return entry


def seat_of(item: BoardStateItem, thing: str) -> int | None:
    """The seat ``thing`` acts for at this board (-1: the dealing table), None if none."""
    if thing and thing == item.dealer:
        return -1
    return item.devices.index(thing) if thing in item.devices else None


def find_logged(item: BoardStateItem, thing: str, msg: str) -> dict[str, Any] | None:
    """The log entry of a message already applied (same sender, same message id)."""
    seat = seat_of(item, thing)
    for entry in item.log:
        if entry.get("m") == msg and (entry.get("th") == thing or "th" not in entry and entry["s"] == seat):
            return dict(entry)
    return None


def _ask(item: BoardStateItem, g: Game, board: Board, before: set[int], now: int) -> None:
    """Start the clock for seats newly asked to act, and set the next timeout deadline."""
    pending = board.pending()
    for seat in pending:
        if seat not in before:
            item.asked_at[seat] = now
    clocks = [(s, board.timing(s)) for s in pending]
    deadlines = [_due(item, s, timing)[0] for s, timing in clocks if timing is not None]
    card = next_card_at(item, board)
    if card:
        deadlines.append(card)  # the sweep gives the next card out then
    item.deadline = min(deadlines) if deadlines else 0


def dealing(board: Board) -> DealtInSteps | None:
    """The board, while its cards are still being given out (a game whose seats act during the deal)."""
    if isinstance(board, DealtInSteps) and board.dealt < board.deal_total:
        return board
    return None


def next_card_at(item: BoardStateItem, board: Board) -> int:
    """When the server gives out the next card of a paced deal (0: not a deal the server paces)."""
    steps = dealing(board)
    if steps is None or not item.deal_from or not item.deal_ms:
        return 0
    return item.deal_from + (steps.dealt + 1) * item.deal_ms


def give_out(item: BoardStateItem, board: Board, upto: int, now: int, msg: str = "", thing: str = "") -> bool:
    """Cards up to ``upto`` reach the seats (the server's pace, or what a dealing table has read: its
    report's ``msg`` is kept with the step, so a resend of it is known); the seats newly asked (the
    deal complete: declaring in turn) start their clocks. True if any moved."""
    steps = dealing(board)
    if steps is None:
        return False
    upto = min(upto, steps.deal_total)
    if upto <= steps.dealt:
        return False
    g = game(item.ruleset)
    before = set(board.pending())
    steps.deal_step(upto)
    entry: dict[str, Any] = {"s": -1, "t": STEP, "n": upto, "at": now}
    if msg:
        entry["m"] = msg
        entry["th"] = thing  # the dealing table that read them (it may be relieved later: serve_deal)
    item.log = [*item.log, entry]
    _ask(item, g, board, before, now)
    _run_ai(item, g, board, now)
    _finish(item, board)
    return True


def give_out_due(item: BoardStateItem, board: Board, now: int) -> bool:
    """The cards of a paced deal whose time has come (the sweep and every message catch up to now)."""
    if not next_card_at(item, board):
        return False
    return give_out(item, board, (now - item.deal_from) // item.deal_ms, now)


def _due(item: BoardStateItem, seat: int, timing: Timing) -> tuple[int, Action]:
    """When the seat's clock next acts, and what it applies: its warning (once per decision), then
    the decision's default."""
    asked = item.asked_at[seat]
    warning = timing.warning
    if timing.warn_ms is None or warning is None:
        return asked + timing.limit_ms, timing.default
    warned = _warned_at(item, seat, warning.kind, asked)
    if warned is None:
        return asked + timing.warn_ms, warning
    # The rest of the decision's time runs from the warning (a late sweep never gives both at once).
    return warned + timing.limit_ms - timing.warn_ms, timing.default


def _warned_at(item: BoardStateItem, seat: int, kind: str, asked: int) -> int | None:
    """When the seat's clock gave its warning since it was asked (the log, newest first), if it has."""
    for entry in reversed(item.log):
        if entry.get("at", asked) < asked:  # a dealing table's report has no time: looked past
            return None
        if entry["s"] == seat and entry["t"] == kind and entry.get("to"):
            return int(entry["at"])
    return None


def apply_action(item: BoardStateItem, action: Action, *, msg: str = "") -> bool:
    """Validate and apply one seat's action (engine rules), log it, count its time, let AI seats move;
    True when the board moved to its next deal (all passed).

    Raises ``Rejected`` (from the engine) with the item untouched.
    """
    g, board = engine_of(item)
    now = now_ms()
    deal = board.deal_index
    before = set(board.pending())
    board.apply(action)
    spent = max(0, now - item.asked_at[action.seat]) if action.seat in before else 0
    item.play_ms[action.seat] += spent
    entry = _log_entry(g, action, now, msg)
    entry["ms"] = spent
    item.log = [*item.log, entry]
    _ask(item, g, board, before - {action.seat}, now)
    _run_ai(item, g, board, now)
    redealt = _note_redeal(item, board, deal, now)
    _finish(item, board)
    return redealt


def apply_referee(item: BoardStateItem, action: Action, by: str, penalty: str = "") -> None:
    """A referee's penalty on the board in play (warning, violation, foul, forfeit, disqualification:
    the engine applies what each means), logged with who gave it. The clocks of the seats still to act
    run on; a seat newly asked (a violation passes its turn) is asked now. Raises ``Rejected``."""
    g, board = engine_of(item)
    now = now_ms()
    if clock_due(item):  # the match's clock ran out first: this board is its last, however it ends
        _tell_time_up(item, g, board, now)
    before = set(board.pending())
    board.apply(action)
    entry = {**_log_entry(g, action, now), "by": by}
    if penalty:
        entry["pid"] = penalty  # the penalty's id: a retry of the same request finds it applied
    item.log = [*item.log, entry]
    _ask(item, g, board, before, now)
    _run_ai(item, g, board, now)
    _finish(item, board)


def _note_redeal(item: BoardStateItem, board: Board, before: int, now: int) -> bool:
    """All passed and the board moved to its next deal: log it, and the dealing table must deal again
    (``flow.after_change`` sends it the new order; its next report is checked against it)."""
    if board.deal_index != before:
        item.log = [*item.log, {"s": -1, "t": "redeal", "n": board.deal_index, "at": now}]
        item.dealt_ok = None
        return True
    return False


def apply_timeouts(item: BoardStateItem) -> Timeouts:
    """Apply the default (a timeout) for every decision whose time is up, and tell the board when its
    match's clock has run out (it is then the match's last board)."""
    clock = clock_due(item)
    if item.status != "playing" or (not clock and (not item.deadline or item.deadline > now_ms())):
        return Timeouts(0, False)
    g, board = engine_of(item)
    deal = board.deal_index
    applied = int(give_out_due(item, board, now_ms()))
    if clock:
        _tell_time_up(item, g, board, now_ms())
        applied += 1
    while not board.finished:
        now = now_ms()
        due = [
            (s, timing, action)
            for s, timing in ((s, board.timing(s)) for s in board.pending())
            if timing is not None
            for at, action in [_due(item, s, timing)]
            if at <= now
        ]
        if not due:
            break
        seat, timing, action = due[0]
        before = set(board.pending())
        board.apply(action)
        if action is timing.warning:  # the decision is still the seat's: its clock runs on
            item.log = [*item.log, _log_entry(g, action, now)]
            _ask(item, g, board, before, now)
            applied += 1
            continue
        item.play_ms[seat] += timing.limit_ms  # a timed-out decision counts its whole time
        entry = _log_entry(g, action, now)
        entry["ms"] = timing.limit_ms
        item.log = [*item.log, entry]
        _ask(item, g, board, before - {seat}, now)
        _run_ai(item, g, board, now)
        applied += 1
    redealt = _note_redeal(item, board, deal, now_ms())
    _finish(item, board)
    return Timeouts(applied, redealt)


def _tell_time_up(item: BoardStateItem, g: Game, board: Board, now: int) -> None:
    board.apply(Action(0, g.time_up))
    item.log = [*item.log, {"s": 0, "t": g.time_up, "at": now}]
    item.time_up_told = True


def clock_ran_out(item: BoardStateItem) -> bool:
    """The match's clock has run out while the board is in play (told or not)."""
    return bool(item.clock_ends_at) and item.status == "playing" and now_ms() >= item.clock_ends_at


def clock_due(item: BoardStateItem) -> bool:
    """The match's clock has run out and the board in play has not been told yet."""
    if not clock_ran_out(item) or item.time_up_told:
        return False
    kind = game(item.ruleset).time_up
    return bool(kind) and not any(entry["t"] == kind for entry in item.log)


def _run_ai(item: BoardStateItem, g: Game, board: Board, now: int) -> None:
    decide = None
    while not board.finished:
        ai_seats = [s for s in board.pending() if not item.players[s]]
        if not ai_seats:
            break
        decide = decide or g.bot()
        seat = ai_seats[0]
        action = decide(board, seat)
        assert action is not None, "a bot must decide when asked"
        before = set(board.pending())
        board.apply(action)
        item.log = [*item.log, _log_entry(g, action, now)]
        _ask(item, g, board, before - {seat}, now)
    item.state = board.to_json()


def _finish(item: BoardStateItem, board: Board) -> None:
    item.state = board.to_json()
    if board.finished:
        item.status = "ended"
        item.deadline = 0


def start(item: BoardStateItem) -> None:
    """A waiting board begins: every seat with a decision is asked now; AI seats decide at once."""
    if not item.state:
        _make_from_carry(item)
    g, board = engine_of(item)
    item.status = "playing"
    now = now_ms()
    steps = dealing(board)
    if steps is not None and not item.dealer:
        # Nobody deals physical cards here: the server gives them out at the event's pace (or at once).
        if item.deal_ms:
            item.deal_from = now
        else:
            give_out(item, board, steps.deal_total, now)
    _ask(item, g, board, set(), now)
    _run_ai(item, g, board, now)
    _finish(item, board)


def _make_from_carry(item: BoardStateItem) -> None:
    """A board of a carrying game is made when it starts, from its deal and the outcome of the board
    the table played before it (ended by then): levels, dealer and tribute come from there."""
    g = game(item.ruleset)
    previous = load(item.event_id, item.round, item.table, item.previous_board)
    if previous is None or previous.status != "ended":
        raise RuntimeError(
            f"board {item.board} at table {item.table} starts before board {item.previous_board} ended"
        )
    carry = outcome_of(result_of(previous)).carry
    deal = DealItem.get(event_pk(item.event_id), deal_sk(item.round, item.group, item.board))
    item.carry = carry
    item.state = (g.new_board_in_steps or g.new_board)(list(deal.order), carry).to_json()


def reask(item: BoardStateItem) -> None:
    """The board's deadline again (its pace changed): the clocks of the seats to act run on."""
    g, board = engine_of(item)
    _ask(item, g, board, set(board.pending()), now_ms())


def resume(item: BoardStateItem) -> None:
    """A stopped board goes on from where it stopped; the seats to act are asked again now."""
    g, board = engine_of(item)
    item.status = "playing"
    _ask(item, g, board, set(), now_ms())


def view_message(item: BoardStateItem, seat: int, board: Board | None = None) -> dict[str, Any]:
    """The seat's ``view`` (device protocol v2): the board's state and the screen its game draws."""
    g, loaded = engine_of(item) if board is None else (game(item.ruleset), board)
    # A game without a screen: its hand, in the engine's order, and nothing to choose.
    drawn = g.screen(loaded, seat) if g.screen else {"h": format_cards(sorted(loaded.hand(seat)))}
    if not any("m" in e for e in item.log if e["s"] >= 0):
        # A board's start (until a player first acts): whose handset this is, so a player at the
        # wrong seat sees it at once; at the round's start also the commitment published before play,
        # to check against the salt revealed at the round's end (docs/protocol.md, Verification).
        lines = [*drawn.get("l", [])]
        if item.names and seat < len(item.names) and item.names[seat]:
            lines.append(outgoing.seat_line(item.names[seat], seat))
        if item.position == 0 and item.commitment:
            lines.append(outgoing.commitment_line(item.commitment))
        drawn = {**drawn, "l": lines}
    return outgoing.view(
        ruleset=item.ruleset,
        board=item.board,
        round_no=item.round,
        version=item.version,
        seat=seat,
        status=item.status,
        # The seat's own decision's time: a seat with nothing pending has no clock (while the cards
        # of a paced deal come, the board's deadline is the next card, not a decision's end).
        left_ms=time_left(item) if seat in loaded.pending() else 0,
        screen=drawn,
    )


def time_left(item: BoardStateItem) -> int:
    """The milliseconds left before the board's next timeout (``dl``; 0: none, or already due)."""
    return max(0, item.deadline - now_ms()) if item.deadline else 0


def publish_views(publisher: Publisher, item: BoardStateItem, only_seat: int | None = None) -> None:
    """Each device at the table gets its own seat's view — never another seat's hand. A seat the AI
    plays has nobody to see its hand, and its idle handset must not show the board's cards to the table.

    A publisher that simulates devices (the venue's, the tests') may also take the engine's own view
    of the seat and when its board next has something due, ``note_seat_view(thing, message, view,
    due)``, for its bots and its lock-step: it is never sent."""
    board = None  # the state is parsed once for all the table's views
    note = getattr(publisher, "note_seat_view", None)
    for seat, thing in enumerate(item.devices):
        if thing and item.players[seat] and (only_seat is None or seat == only_seat):
            if board is None:
                _, board = engine_of(item)
            message = view_message(item, seat, board)
            if note is not None:
                note(thing, message, board.view(seat), item.deadline)
            publisher.publish(down_topic(thing), message)


def result_of(item: BoardStateItem) -> dict[str, Any]:
    _, board = engine_of(item)
    return board.result()


def replay(item: BoardStateItem, order: list[int]) -> Board:
    """Rebuild a board from its dealt card order and its log alone (audit): it must equal the stored one."""
    from ..engines.common.cards import parse_cards

    g = game(item.ruleset)
    # A game dealt in steps starts every board with no card out (match_boards, _make_from_carry).
    board = (g.new_board_in_steps or g.new_board)(order, item.carry)
    for entry in item.log:
        if entry["t"] == STEP and isinstance(board, DealtInSteps):
            board.deal_step(entry["n"])
            continue
        if entry["t"] in NOT_ACTIONS:
            continue
        cards = tuple(parse_cards(entry.get("c", []), decks=g.decks, jokers=g.jokers))
        board.apply(
            Action(entry["s"], entry["t"], cards, entry.get("v", 0), bool(entry.get("to")), entry.get("d"))
        )
    return board
