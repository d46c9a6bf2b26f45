"""A table's board changed by the rules: a seat's action, the referee's penalty, the clocks' defaults,
the board's start and the cards of a paced deal — each applied in memory to the item that
``board_store.transact`` then saves, logged so that a replay reaches the same state."""

from __future__ import annotations

from typing import Any, NamedTuple

from ...engines.contract import Action, Board, outcome_of
from ...engines.registry import Game, game
from ..infra.clock import now_ms
from ..storage.keys import deal_sk, event_pk
from ..storage.models import BoardStateItem, DealItem
from .clocks import clock_action, clock_due, dealing, next_card_at
from .log import REDEAL, RULING, STEP, adjudicate, log_entry, replay
from .store import engine_of, load, result_of


class Timeouts(NamedTuple):
    applied: int  # decisions whose time was up, taken by their defaults
    redealt: bool  # the board moved to its next deal (all passed): the dealing table deals again


def _ask(item: BoardStateItem, g: Game, board: Board, before: set[int], now: int) -> None:
    """Start the clock for seats newly asked to act, and set the next timeout deadline."""
    pending = board.pending()
    for seat in pending:
        if seat not in before:
            item.asked_at[seat] = now
    clocks = [(s, board.timing(s)) for s in pending]
    deadlines = [clock_action(item, s, timing)[0] for s, timing in clocks if timing is not None]
    card = next_card_at(item, board)
    if card:
        deadlines.append(card)  # the sweep gives the next card out then
    item.deadline = min(deadlines) if deadlines else 0


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
    entry = log_entry(g, action, now, msg)
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
    entry = {**log_entry(g, action, now), "by": by}
    if penalty:
        entry["pid"] = penalty  # the penalty's id: a retry of the same request finds it applied
    item.log = [*item.log, entry]
    _ask(item, g, board, before, now)
    _run_ai(item, g, board, now)
    _finish(item, board)


def apply_ruling(item: BoardStateItem, claim: str, winner: int | None, by: str, rid: str) -> None:
    """A referee upheld ``claim``: the engine ends the game for ``winner`` (None: drawn), logged with
    who ruled and the ruling's id (a retry finds it applied). Raises ``Rejected``."""
    _, board = engine_of(item)
    adjudicate(board, claim, winner)
    entry = {
        "s": -1,
        "t": RULING,
        "d": {"claim": claim, "winner": winner},
        "by": by,
        "at": now_ms(),
        "rid": rid,
    }
    item.log = [*item.log, entry]
    _finish(item, board)


def replay_corrected(item: BoardStateItem, log: list[dict[str, Any]], order: list[int]) -> None:
    """The board replayed from its deal along ``log`` (a referee's corrected move and every action
    after it): the seats still asked keep their clocks. Raises ``Rejected`` or ``DeckhandError`` when
    the line is not legal (the caller's item is then discarded)."""
    g, was = engine_of(item)
    before = set(was.pending())
    item.log = log
    board = replay(item, order)
    _ask(item, g, board, before, now_ms())
    _finish(item, board)


def _note_redeal(item: BoardStateItem, board: Board, before: int, now: int) -> bool:
    """All passed and the board moved to its next deal: log it, and the dealing table must deal again
    (``board_progress.after_change`` sends it the new order; its next report is checked against it)."""
    if board.deal_index != before:
        item.log = [*item.log, {"s": -1, "t": REDEAL, "n": board.deal_index, "at": now}]
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
            for at, action in [clock_action(item, s, timing)]
            if at <= now
        ]
        if not due:
            break
        seat, timing, action = due[0]
        before = set(board.pending())
        board.apply(action)
        if action is timing.warning:  # the decision is still the seat's: its clock runs on
            item.log = [*item.log, log_entry(g, action, now)]
            _ask(item, g, board, before, now)
            applied += 1
            continue
        item.play_ms[seat] += timing.limit_ms  # a timed-out decision counts its whole time
        entry = log_entry(g, action, now)
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
        item.log = [*item.log, log_entry(g, action, now)]
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
