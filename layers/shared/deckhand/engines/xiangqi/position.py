"""A Xiangqi position and its moves (RULES.md §6.1): FEN in and out, ICCS moves, fast move generation.

A move is an int, ``from << 8 | to``. Generation is pseudo-legal from precomputed step tables; a move
is legal when, made on the board, it leaves the mover's general unattacked and not facing the other
general — tested by looking outwards from the general along its rays, from the horses' and soldiers'
reverse tables, never by generating the replies. Make and unmake are incremental (the board, the
piece sets, the generals, the hash). Repetition is the game's business (``game.py``), not this one's.
"""

from __future__ import annotations

from ...errors import DeckhandError
from .tables import (
    ADVISOR,
    ADVISOR_STEPS,
    BLACK,
    BLACK_TO_MOVE,
    CANNON,
    CHARIOT,
    ELEPHANT,
    ELEPHANT_STEPS,
    FILES,
    HORSE,
    HORSE_ATTACKS,
    HORSE_STEPS,
    KING,
    KING_STEPS,
    POINTS,
    RANKS,
    RAYS,
    RED,
    SOLDIER,
    SOLDIER_ATTACKS,
    SOLDIER_STEPS,
    ZOBRIST,
)

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
LETTERS = {"K": KING, "A": ADVISOR, "B": ELEPHANT, "N": HORSE, "R": CHARIOT, "C": CANNON, "P": SOLDIER}
WXF = {"E": ELEPHANT, "H": HORSE}  # WXF's letters, accepted on input
LETTER_OF = {v: k for k, v in LETTERS.items()}


class NotationError(DeckhandError):
    """A FEN or a move that does not parse, or a move that is not legal here."""


def square_name(sq: int) -> str:
    return "abcdefghi"[sq % FILES] + str(sq // FILES)


def parse_square(text: object) -> int:
    if not (isinstance(text, str) and len(text) == 2 and text[0] in "abcdefghi" and text[1] in "0123456789"):
        raise NotationError(f"not a point: {text!r} (a file a-i and a rank 0-9, like 'e0')")
    return int(text[1]) * FILES + "abcdefghi".index(text[0])


def iccs(move: int) -> str:
    return square_name(move >> 8) + square_name(move & 255)


def parse_iccs(text: object) -> int:
    if not isinstance(text, str) or len(text) != 4:
        raise NotationError(f"not an ICCS move: {text!r} (like 'h2e2')")
    return parse_square(text[:2].lower()) << 8 | parse_square(text[2:].lower())


class Position:
    """The board (90 points, Red pieces positive), the side to move (+1 Red, -1 Black), the plies since
    the last capture, and what make/unmake keep in step with the board: piece sets, generals, hash."""

    __slots__ = ("board", "side", "quiet", "pieces", "kings", "hash")

    def __init__(self, board: list[int], side: int, quiet: int = 0) -> None:
        self.board = board
        self.side = side
        self.quiet = quiet
        self.pieces = (
            {sq for sq in range(POINTS) if board[sq] > 0},
            {sq for sq in range(POINTS) if board[sq] < 0},
        )
        kings = [board.index(KING) if KING in board else -1, board.index(-KING) if -KING in board else -1]
        self.kings = kings
        h = 0 if side == RED else BLACK_TO_MOVE
        for sq in range(POINTS):
            if board[sq]:
                h ^= ZOBRIST[board[sq] + 7][sq]
        self.hash = h

    # --- FEN -------------------------------------------------------------------------------------

    @classmethod
    def from_fen(cls, fen: object) -> Position:
        if not isinstance(fen, str) or not fen.strip():
            raise NotationError(f"not a FEN: {fen!r}")
        fields = fen.split()
        rows = fields[0].split("/")
        if len(rows) != RANKS:
            raise NotationError(f"a FEN has {RANKS} ranks separated by '/', got {len(rows)}")
        board = [0] * POINTS
        for i, row in enumerate(rows):
            rank, file = RANKS - 1 - i, 0
            for ch in row:
                if ch.isdigit():
                    file += int(ch)
                    continue
                kind = LETTERS.get(ch.upper()) or WXF.get(ch.upper())
                if kind is None or file >= FILES:
                    raise NotationError(f"rank {rank} of the FEN: bad piece or too long: {row!r}")
                board[rank * FILES + file] = kind if ch.isupper() else -kind
                file += 1
            if file != FILES:
                raise NotationError(f"rank {rank} of the FEN has {file} points, not {FILES}: {row!r}")
        side = fields[1] if len(fields) > 1 else "w"
        if side not in ("w", "r", "b"):
            raise NotationError(f"side to move must be 'w' (Red) or 'b' (Black), got {side!r}")
        quiet = fields[4] if len(fields) > 4 else "0"
        if not quiet.isdigit():
            raise NotationError(f"the FEN's halfmove clock must be a number, got {quiet!r}")
        for sign in (RED, BLACK):
            where = [sq for sq in range(POINTS) if board[sq] == sign * KING]
            if len(where) != 1 or not KING_STEPS[where[0]]:
                raise NotationError("each side needs exactly one general, inside its palace")
            if (where[0] // FILES <= 2) != (sign == RED):
                raise NotationError("each general must stand in its own palace")
        pos = cls(board, RED if side in ("w", "r") else BLACK, int(quiet))
        if pos.attacked(-pos.side):
            raise NotationError("the side not to move has its general attacked (or the generals face)")
        return pos

    def fen(self, moves: int = 1) -> str:
        rows = []
        for rank in range(RANKS - 1, -1, -1):
            row, empty = "", 0
            for file in range(FILES):
                p = self.board[rank * FILES + file]
                if p == 0:
                    empty += 1
                    continue
                if empty:
                    row, empty = row + str(empty), 0
                row += LETTER_OF[p] if p > 0 else LETTER_OF[-p].lower()
            rows.append(row + (str(empty) if empty else ""))
        return f"{'/'.join(rows)} {'w' if self.side == RED else 'b'} - - {self.quiet} {moves}"

    def copy(self) -> Position:
        return Position(list(self.board), self.side, self.quiet)

    # --- moves -----------------------------------------------------------------------------------

    def pseudo_moves(self) -> list[int]:
        """Every move by the rules of movement, before the general's safety is checked."""
        b, s = self.board, self.side
        out: list[int] = []
        app = out.append
        for fr in self.pieces[0 if s == RED else 1]:
            kind, base = b[fr] * s, fr << 8
            if kind == CHARIOT:
                for ray in RAYS[fr]:
                    for to in ray:
                        q = b[to]
                        if q:
                            if q * s < 0:
                                app(base | to)
                            break
                        app(base | to)
            elif kind == CANNON:
                for ray in RAYS[fr]:
                    screen = False
                    for to in ray:
                        q = b[to]
                        if screen:
                            if q:
                                if q * s < 0:
                                    app(base | to)
                                break
                        elif q:
                            screen = True
                        else:
                            app(base | to)
            elif kind == HORSE:
                for to, leg in HORSE_STEPS[fr]:
                    if not b[leg] and b[to] * s <= 0:
                        app(base | to)
            elif kind == ELEPHANT:
                for to, eye in ELEPHANT_STEPS[fr]:
                    if not b[eye] and b[to] * s <= 0:
                        app(base | to)
            else:
                steps = (
                    SOLDIER_STEPS[0 if s == RED else 1][fr]
                    if kind == SOLDIER
                    else ADVISOR_STEPS[fr]
                    if kind == ADVISOR
                    else KING_STEPS[fr]
                )
                for to, _ in steps:
                    if b[to] * s <= 0:
                        app(base | to)
        return out

    def attacked(self, sign: int) -> bool:
        """Whether the general of side ``sign`` is attacked, or faces the other general on an open file."""
        b, k = self.board, self.kings[0 if sign == RED else 1]
        chariot, cannon, king = -sign * CHARIOT, -sign * CANNON, -sign * KING
        for ray in RAYS[k]:
            screen = False
            for sq in ray:
                q = b[sq]
                if q:
                    if screen:
                        if q == cannon:
                            return True
                        break
                    if q in (chariot, king):
                        return True
                    screen = True
        horse = -sign * HORSE
        for h, leg in HORSE_ATTACKS[k]:
            if b[h] == horse and not b[leg]:
                return True
        soldier = -sign * SOLDIER
        return any(b[sq] == soldier for sq in SOLDIER_ATTACKS[1 if sign == RED else 0][k])

    def legal_moves(self) -> list[int]:
        """The pseudo-legal moves that leave the mover's general safe (each tried on the board alone)."""
        b, s = self.board, self.side
        out: list[int] = []
        ki = 0 if s == RED else 1
        king = self.kings[ki]
        for m in self.pseudo_moves():
            fr, to = m >> 8, m & 255
            moved, taken = b[fr], b[to]
            b[to], b[fr] = moved, 0
            if moved == s * KING:
                self.kings[ki] = to
            if not self.attacked(s):
                out.append(m)
            b[fr], b[to] = moved, taken
            self.kings[ki] = king
        return out

    def in_check(self) -> bool:
        return self.attacked(self.side)

    def make(self, m: int) -> int:
        """Play ``m`` (assumed legal); returns what it took (0 for nothing), for ``unmake``."""
        b, s = self.board, self.side
        fr, to = m >> 8, m & 255
        moved, taken = b[fr], b[to]
        mine, theirs = self.pieces if s == RED else (self.pieces[1], self.pieces[0])
        mine.discard(fr)
        mine.add(to)
        h = self.hash ^ ZOBRIST[moved + 7][fr] ^ ZOBRIST[moved + 7][to] ^ BLACK_TO_MOVE
        if taken:
            theirs.discard(to)
            h ^= ZOBRIST[taken + 7][to]
        b[to], b[fr] = moved, 0
        if moved == s * KING:
            self.kings[0 if s == RED else 1] = to
        self.hash, self.side = h, -s
        return taken

    def unmake(self, m: int, taken: int) -> None:
        b, s = self.board, -self.side
        fr, to = m >> 8, m & 255
        moved = b[to]
        mine, theirs = self.pieces if s == RED else (self.pieces[1], self.pieces[0])
        mine.discard(to)
        mine.add(fr)
        h = self.hash ^ ZOBRIST[moved + 7][fr] ^ ZOBRIST[moved + 7][to] ^ BLACK_TO_MOVE
        if taken:
            theirs.add(to)
            h ^= ZOBRIST[taken + 7][to]
        b[fr], b[to] = moved, taken
        if moved == s * KING:
            self.kings[0 if s == RED else 1] = fr
        self.hash, self.side = h, s


def perft(pos: Position, depth: int) -> int:
    """Leaf positions ``depth`` plies on, every legal move (no repetition rule): the generator's test."""
    if depth <= 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        taken = pos.make(m)
        total += perft(pos, depth - 1)
        pos.unmake(m, taken)
    return total
