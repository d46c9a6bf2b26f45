"""Xiangqi's board for the browser (docs/protocol.md, "Board layouts"): pieces on the points where the
lines cross, the river (楚河 汉界) between ranks 4 and 5 where only the side files run on, the palaces'
diagonals, each piece's Chinese name (帅/将, 仕/士, 相/象, 马, 车, 炮, 兵/卒) in red or black, and the
last move; Black's seat sees its own side at the bottom."""

from __future__ import annotations

from typing import Any

from ..common.layout import Piece, layout, straight_runs
from ..common.words import ENGLISH, Lang
from .board import XiangqiBoard
from .screen import LETTERS
from .tables import FILES, RANKS

NAMES: dict[str, dict[str, tuple[str, ...]]] = {  # by LETTERS: Red's names, then Black's
    "zh-CN": {
        "red": ("帅", "仕", "相", "马", "车", "炮", "兵"),
        "black": ("将", "士", "象", "马", "车", "炮", "卒"),
    },
    "en": {
        "red": ("general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier"),
        "black": ("general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier"),
    },
}
FACES_EN = "GAEHRCS"  # the English faces: general, advisor, elephant, horse, chariot (rook), cannon, soldier
WORDS = {
    "zh-CN": {"red": "红", "black": "黑", "board": "棋盘"},
    "en": {"red": "red", "black": "black", "board": "board"},
}
RIVER = {"zh-CN": ("楚 河", "汉 界"), "en": ("Chu river", "Han border")}  # written between ranks 4 and 5
FILE_NAMES = "abcdefghi"
PALACES = (("d0", "f2"), ("f0", "d2"), ("d7", "f9"), ("f7", "d9"))  # corner to corner through e1 / e8


def _segments() -> list[tuple[str, str]]:
    """Every line between neighbouring points: the ranks; the files, only a and i across the river."""
    out = []
    for rank in range(RANKS):
        for f in range(FILES - 1):
            out.append((f"{FILE_NAMES[f]}{rank}", f"{FILE_NAMES[f + 1]}{rank}"))
    for f in range(FILES):
        for rank in range(RANKS - 1):
            if rank != 4 or f in (0, FILES - 1):
                out.append((f"{FILE_NAMES[f]}{rank}", f"{FILE_NAMES[f]}{rank + 1}"))
    return out


def pieces(lang: Lang) -> dict[str, Piece]:
    words, names = WORDS[lang], NAMES[lang]
    out = {}
    for i, letter in enumerate(LETTERS):
        for side, glyph in (("red", letter), ("black", letter.lower())):
            name = names[side][i]
            face = name if lang != ENGLISH else FACES_EN[i]
            out[glyph] = Piece(words[side] + name if lang != ENGLISH else f"{words[side]} {name}", side, face)
    return out


def board_layout(board: object, seat: int, lang: Lang, grid: dict[str, Any]) -> dict[str, Any]:
    """The seat's layout of ``grid``, the board its screen drew."""
    assert isinstance(board, XiangqiBoard)
    words = WORDS[lang]
    moves = board.seat_view(seat).moves
    last = moves[-1] if moves else ""
    return layout(
        grid,
        name=words["board"],
        pieces=pieces(lang),
        lines=straight_runs(_segments(), grid) + [[a, b, "thin"] for a, b in PALACES],
        words=[("c4", "c5", RIVER[lang][0]), ("g4", "g5", RIVER[lang][1])],
        spots=[("cross", "", ["b2", "h2", "b7", "h7", *(f"{f}{r}" for f in "acegi" for r in (3, 6))])],
        path=(last[:2], last[2:]) if last else (),
        size=(0.96, 0.96),
        flip=seat == 1,
    )
