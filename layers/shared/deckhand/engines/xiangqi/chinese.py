"""Chinese notation (炮二平五) of a move, for records and results pages.

A move is written piece, file, action, number. Files are counted from the mover's right: Red's in
Chinese numerals (一…九, so ICCS file ``a`` is 九), Black's in digits (1…9, ``a`` is 1). The action is
进 (forward), 退 (back) or 平 (along the rank); the number is the ranks moved for a piece that moves in
straight lines (general, chariot, cannon, soldier) going forward or back, else the file it arrives on.
Two or more like pieces on one file are told apart by 前/后 (three: 前/中/后; more: 一二三… from the
front) in place of the file; advisors and elephants never need it (the action tells them apart).
"""

from __future__ import annotations

from .position import Position
from .tables import ADVISOR, CANNON, CHARIOT, ELEPHANT, FILES, HORSE, KING, RED, SOLDIER

RED_NAMES = {
    KING: "帅",
    ADVISOR: "仕",
    ELEPHANT: "相",
    HORSE: "马",
    CHARIOT: "车",
    CANNON: "炮",
    SOLDIER: "兵",
}
BLACK_NAMES = {
    KING: "将",
    ADVISOR: "士",
    ELEPHANT: "象",
    HORSE: "马",
    CHARIOT: "车",
    CANNON: "炮",
    SOLDIER: "卒",
}
RED_NUMBERS = "一二三四五六七八九"
BLACK_NUMBERS = "123456789"
STRAIGHT = {KING, CHARIOT, CANNON, SOLDIER}


def chinese(pos: Position, move: int) -> str:
    """The move (legal in ``pos``) in Chinese notation, from the mover's side."""
    fr, to = move >> 8, move & 255
    piece = pos.board[fr]
    side = 1 if piece > 0 else -1
    kind = piece * side
    numbers = RED_NUMBERS if side == RED else BLACK_NUMBERS
    names = RED_NAMES if side == RED else BLACK_NAMES

    def file_number(sq: int) -> str:
        f = sq % FILES
        return numbers[FILES - 1 - f] if side == RED else numbers[f]

    forward = (to // FILES - fr // FILES) * side  # ranks towards the opponent
    if forward > 0:
        action = "进"
    elif forward < 0:
        action = "退"
    else:
        action = "平"
    number = numbers[abs(forward) - 1] if kind in STRAIGHT and forward else file_number(to)
    head = names[kind] + file_number(fr)
    if kind not in (ADVISOR, ELEPHANT):
        same_file = [sq for sq in range(fr % FILES, 90, FILES) if pos.board[sq] == piece]
        if len(same_file) > 1:
            same_file.sort(key=lambda sq: -sq * side)  # front (nearest the opponent) first
            i, n = same_file.index(fr), len(same_file)
            marks = "前后" if n == 2 else "前中后" if n == 3 else "一二三四五"
            head = marks[i] + names[kind]
    return head + action + number
