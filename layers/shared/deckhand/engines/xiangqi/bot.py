"""The AI seat: alpha-beta over material and mobility, deterministic by a node budget.

Iterative deepening searches depth 1, 2, 3 … and keeps the best move of the last depth it finished
within ``budget`` nodes; the moves are tried in a fixed order (captures of the most valuable piece
first, then ICCS order), so the same position always gets the same move, on any machine, at any speed.
A side with no move loses (checkmate and stalemate alike). The bot never resigns and never offers
or accepts a draw; the repetition rule is kept at the root (it plays only moves the game allows).
"""

from __future__ import annotations

from ..contract import Action
from .board import Game, SeatView, move_action
from .position import Position, iccs, parse_iccs
from .tables import ADVISOR, CANNON, CHARIOT, ELEPHANT, FILES, HORSE, KING, SOLDIER

VALUE = {KING: 0, ADVISOR: 20, ELEPHANT: 20, HORSE: 40, CHARIOT: 90, CANNON: 45, SOLDIER: 10}
CROSSED = 10  # a soldier across the river is worth more
MATE = 100_000
BUDGET = 2_000  # nodes a decision may search: well under a second in pure Python
# Nodes by style: the steady seat searches the full budget; the careful and bold ones less — quicker,
# weaker players (a knockout's field of bots plays its games in minutes, and players of different
# styles play different games: the stronger wins with either colour).
BUDGETS = {"steady": BUDGET, "careful": 300, "bold": 100}
MAX_DEPTH = 4


class OutOfBudget(Exception):
    pass


class Searcher:
    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.nodes = 0

    def evaluate(self, pos: Position) -> int:
        """Material and mobility, from the side to move's point of view."""
        b, score = pos.board, 0
        for sq in pos.pieces[0]:
            kind = b[sq]
            score += VALUE[kind] + (CROSSED if kind == SOLDIER and sq // FILES >= 5 else 0)
        for sq in pos.pieces[1]:
            kind = -b[sq]
            score -= VALUE[kind] + (CROSSED if kind == SOLDIER and sq // FILES <= 4 else 0)
        mine = len(pos.pseudo_moves())
        pos.side = -pos.side
        theirs = len(pos.pseudo_moves())
        pos.side = -pos.side
        return score * pos.side + (mine - theirs)

    def ordered(self, pos: Position, moves: list[int]) -> list[int]:
        b = pos.board
        return sorted(
            moves, key=lambda m: (-VALUE.get(abs(b[m & 255]), 0) * 8 + VALUE[abs(b[m >> 8])] // 10, m)
        )

    def search(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfBudget
        if depth == 0:
            return self.evaluate(pos)  # (a mate shows one ply later: leaves are not tested for one)
        moves = pos.legal_moves()
        if not moves:
            return -MATE + ply
        for m in self.ordered(pos, moves):
            taken = pos.make(m)
            score = -self.search(pos, depth - 1, -beta, -alpha, ply + 1)
            pos.unmake(m, taken)
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    def best(self, game: Game) -> int | None:
        pos, root = game.pos, sorted(game.legal(), key=iccs)
        if not root:
            return None
        chosen = root[0]
        for depth in range(1, MAX_DEPTH + 1):
            try:
                best, alpha = root[0], -MATE - 1
                for m in self.ordered(pos, root):
                    taken = pos.make(m)
                    try:
                        score = -self.search(pos, depth - 1, -MATE - 1, -alpha, 1)
                    finally:
                        pos.unmake(m, taken)
                    if score > alpha:
                        best, alpha = m, score
            except OutOfBudget:
                break
            chosen = best
            if alpha >= MATE - 100:
                break  # a mate found: no need to look deeper
        return chosen


class XiangqiBot:
    """A seat's decider on its view; ``style`` sets the node budget (``BUDGETS``) unless ``budget`` does."""

    def __init__(self, style: str = "steady", budget: int | None = None) -> None:
        if style not in BUDGETS:
            raise ValueError(f"unknown bot style {style!r}; choose from {', '.join(BUDGETS)}")
        self.style = style
        self.budget = BUDGETS[style] if budget is None else budget

    def decide(self, view: SeatView) -> Action | None:
        if view.to_move != view.seat:
            return None
        game = Game(view.start)
        for text in view.moves:
            game.play(parse_iccs(text))
        move = Searcher(self.budget).best(game)
        return None if move is None else move_action(view.seat, move)
