"""Xiangqi's move generator (RULES.md §6.1): perft of published positions, each piece's rule with a
position that fails when the rule is broken, and a brute-force cross-check against a slow generator
written from the rules on (file, rank) pairs, on positions reached by random play."""

from __future__ import annotations

import random

import pytest
from deckhand.engines.xiangqi.position import START, NotationError, Position, iccs, perft
from helpers import DEPTH

# The chessprogramming wiki's Xiangqi perft table (depths 1-3 here; 4 in `make test-deep`).
PUBLISHED = [
    (START, [44, 1920, 79666, 3290240]),
    ("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w", [38, 1128, 43929, 1339047]),
    ("1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w", [7, 281, 8620, 326201]),
    ("5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w", [25, 424, 9850, 202884]),
    ("CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w", [28, 516, 14808, 395483]),
    ("R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w", [21, 364, 7626, 162837]),
    ("C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w", [28, 222, 6241, 64971]),
    ("4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w", [23, 345, 8124, 149272]),
    ("2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w", [21, 195, 3883, 48060]),
    ("1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w", [30, 830, 22787, 649866]),
    ("CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w", [19, 583, 11714, 376467]),
]
# Fairy-Stockfish's perft test positions (depth 4 only, so they run in `make test-deep`).
FAIRY = [
    ("1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1", 4485547),
    ("4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1", 92741),
]


@pytest.mark.parametrize(("fen", "counts"), PUBLISHED, ids=range(len(PUBLISHED)))
def test_perft_of_published_positions(fen: str, counts: list[int]) -> None:
    pos = Position.from_fen(fen)
    depths = (1, 2, 3, 4) if DEPTH > 1 else (1, 2) if fen != START else (1, 2, 3)
    for depth in depths:
        assert perft(pos, depth) == counts[depth - 1], depth
    assert pos.fen().split()[:2] == Position.from_fen(fen).fen().split()[:2]  # unmake restored it


@pytest.mark.skipif(DEPTH == 1, reason="depth 4: make test-deep")
@pytest.mark.parametrize(("fen", "nodes"), FAIRY, ids=range(len(FAIRY)))
def test_perft_of_fairy_stockfish_positions(fen: str, nodes: int) -> None:
    assert perft(Position.from_fen(fen), 4) == nodes


def moves(fen: str, origin: str | None = None) -> set[str]:
    """The legal moves in ICCS, those of the piece on ``origin`` only if given."""
    out = {iccs(m) for m in Position.from_fen(fen).legal_moves()}
    return {m for m in out if m[:2] == origin} if origin else out


def test_the_general_stays_in_its_palace_one_step_orthogonally() -> None:
    assert moves("5k3/9/9/9/9/9/9/9/9/3K5 w", "d0") == {"d0d1", "d0e0"}
    assert moves("3k5/9/9/9/9/9/9/9/5K3/9 w", "f1") == {"f1f0", "f1f2", "f1e1"}


def test_advisors_step_diagonally_inside_the_palace() -> None:
    assert moves("3k5/9/9/9/9/9/9/3A5/9/5K3 w", "d2") == {"d2e1"}
    assert moves("3k5/9/9/9/9/9/9/9/4A4/5K3 w", "e1") == {"e1d0", "e1d2", "e1f2"}


def test_elephants_are_blocked_on_the_eye_and_never_cross_the_river() -> None:
    assert moves("3k5/9/9/9/9/9/9/9/9/2B1K4 w", "c0") == {"c0a2", "c0e2"}
    assert moves("3k5/9/9/9/9/9/9/9/3P5/2B1K4 w", "c0") == {"c0a2"}  # d1 blocks the eye
    assert moves("3k5/9/9/9/9/2B6/9/9/9/4K4 w", "c4") == {"c4a2", "c4e2"}  # not a6 or e6


def test_horses_are_blocked_on_the_leg() -> None:
    free = moves("3k5/9/9/9/9/9/9/9/9/1N2K4 w", "b0")
    assert free == {"b0a2", "b0c2", "b0d1"}
    assert moves("3k5/9/9/9/9/9/9/9/1P7/1N2K4 w", "b0") == {"b0d1"}  # b1 blocks both upward steps
    assert moves("3k5/9/9/9/9/9/9/9/9/1NP1K4 w", "b0") == {"b0a2", "b0c2"}  # c0 blocks d1


def test_cannons_capture_over_exactly_one_screen() -> None:
    # Red cannon b2; black horse b7 behind the screen b5; a black cannon b9 behind two pieces.
    fen = "1c1k5/9/1n7/9/1p7/9/9/1C7/9/4K4 w"
    got = moves(fen, "b2")
    assert "b2b7" in got and "b2b9" not in got and "b2b5" not in got
    assert {"b2b3", "b2b4"} <= got and "b2b6" not in got  # moves without capturing up to the screen
    # With no screen it cannot capture at all.
    assert "b2b7" not in moves("3k5/9/1n7/9/9/9/9/1C7/9/4K4 w", "b2")


def test_chariots_slide_and_capture_the_first_piece() -> None:
    got = moves("3k5/9/9/9/9/9/9/9/9/R3K4 w", "a0")
    assert got == {f"a0a{r}" for r in range(1, 10)} | {"a0b0", "a0c0", "a0d0"}


def test_soldiers_go_forward_then_sideways_across_the_river_never_back() -> None:
    assert moves("3k5/9/9/9/9/9/P8/9/9/4K4 w", "a3") == {"a3a4"}
    assert moves("3k5/9/9/9/2P6/9/9/9/9/4K4 w", "c5") == {"c5c6", "c5b5", "c5d5"}
    assert moves("3k5/9/9/9/9/9/9/9/9/4K3p b", "i0") == {"i0h0"}  # black soldier on the last rank


def test_the_generals_may_not_face_each_other() -> None:
    # Generals on one file with one piece between: that piece may not leave the file.
    assert moves("4k4/9/9/9/9/9/9/9/4N4/4K4 w", "e1") == set()
    # A general may not step onto the other's open file.
    assert moves("4k4/9/9/9/9/9/9/9/9/3K5 w") == {"d0d1"}


def test_a_move_that_leaves_the_general_attacked_is_illegal() -> None:
    # The black chariot e5 checks the Red general e0; a0 cannot block; d0 would face the black general.
    assert moves("3k5/9/9/9/4r4/9/9/9/9/R3K4 w") == {"e0f0"}
    # A chariot on a4 may block on e4, and do nothing else.
    assert moves("3k5/9/9/9/4r4/R8/9/9/9/4K4 w") == {"e0f0", "a4e4"}
    pinned = "4r4/3k5/9/9/9/9/9/9/4N4/4K4 w"  # the horse e1 is pinned by the chariot e9
    assert not moves(pinned, "e1")


def test_fen_reading_accepts_wxf_letters_and_refuses_nonsense() -> None:
    assert Position.from_fen(START.replace("n", "h").replace("b", "e").replace("N", "H")).fen() == START
    for bad in (
        "",
        "rnbakabnr/9 w",
        "4k4/9/9/9/9/9/9/9/9/9 w",
        "4k4/9/9/9/9/9/9/9/9/4K4 x",
        "4k5/9/9/9/9/9/9/9/9/4K4 w",
        "4k4/9/9/9/9/9/9/9/4R4/4K4 w",  # Black's general attacked with Red to move
        "4k4/9/9/9/9/9/9/9/9/4K4 w",  # the generals face each other
    ):
        with pytest.raises(NotationError):
            Position.from_fen(bad)


# --- brute force: a slow generator from the rules, on (file, rank) pairs -----------------------------------


def slow_moves(board: dict[tuple[int, int], str], red: bool) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every move by the rules of movement alone (no safety), written plainly from §6.1."""

    def own(p: str) -> bool:
        return p.isupper() == red

    def palace(f: int, r: int) -> bool:
        return 3 <= f <= 5 and (r <= 2 if red else r >= 7)

    out = []
    for (f, r), p in board.items():
        if not own(p):
            continue
        kind, targets = p.upper(), []
        if kind == "K":
            targets = [(f + a, r + b) for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1)) if palace(f + a, r + b)]
        elif kind == "A":
            targets = [
                (f + a, r + b) for a, b in ((1, 1), (1, -1), (-1, 1), (-1, -1)) if palace(f + a, r + b)
            ]
        elif kind == "B":
            for a, b in ((2, 2), (2, -2), (-2, 2), (-2, -2)):
                t = (f + a, r + b)
                if (f + a // 2, r + b // 2) not in board and ((t[1] <= 4) if red else (t[1] >= 5)):
                    targets.append(t)
        elif kind == "N":
            for a, b in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)):
                leg = (f + (a // 2 if abs(a) == 2 else 0), r + (b // 2 if abs(b) == 2 else 0))
                if leg not in board:
                    targets.append((f + a, r + b))
        elif kind in "RC":
            for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                t, jumped = (f + a, r + b), False
                while 0 <= t[0] < 9 and 0 <= t[1] < 10:
                    if t in board:
                        if kind == "R" or jumped:
                            targets.append(t)
                            break
                        jumped = True
                    elif not jumped:
                        targets.append(t)
                    t = (t[0] + a, t[1] + b)
        else:
            ahead = 1 if red else -1
            targets = [(f, r + ahead)]
            if (r >= 5) if red else (r <= 4):
                targets += [(f - 1, r), (f + 1, r)]
        for t in targets:
            if 0 <= t[0] < 9 and 0 <= t[1] < 10 and not (t in board and own(board[t])):
                out.append(((f, r), t))
    return out


def slow_unsafe(board: dict[tuple[int, int], str], red: bool) -> bool:
    """Whether ``red``'s general can be taken by any reply, or faces the other general."""
    mine = next(sq for sq, p in board.items() if p == ("K" if red else "k"))
    theirs = next(sq for sq, p in board.items() if p == ("k" if red else "K"))
    if mine[0] == theirs[0] and not any(
        (mine[0], r) in board for r in range(min(mine[1], theirs[1]) + 1, max(mine[1], theirs[1]))
    ):
        return True
    return any(to == mine for _, to in slow_moves(board, not red))


def slow_legal(pos: Position) -> set[str]:
    board = {}
    for sq, p in enumerate(pos.board):
        if p:
            board[(sq % 9, sq // 9)] = "KABNRCP"[abs(p) - 1] if p > 0 else "kabnrcp"[-p - 1]
    red, out = pos.side == 1, set()
    for fr, to in slow_moves(board, red):
        after = dict(board)
        after[to] = after.pop(fr)
        if not slow_unsafe(after, red):
            out.add("abcdefghi"[fr[0]] + str(fr[1]) + "abcdefghi"[to[0]] + str(to[1]))
    return out


@pytest.mark.parametrize("seed", range(3 * DEPTH))
def test_legal_moves_match_a_slow_generator_from_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    pos = Position.from_fen(START)
    for _ in range(150):
        fast = {iccs(m) for m in pos.legal_moves()}
        assert fast == slow_legal(pos), pos.fen()
        if not fast:
            break
        move = rng.choice(sorted(pos.legal_moves()))
        before = pos.fen(), pos.hash
        taken = pos.make(move)
        assert pos.hash == Position.from_fen(pos.fen()).hash  # the incremental hash is the position's
        pos.unmake(move, taken)
        assert (pos.fen(), pos.hash) == before
        pos.make(move)
