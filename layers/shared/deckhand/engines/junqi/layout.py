"""Junqi's board for the browser (docs/protocol.md, "Board layouts"): the posts, camps (行营) and
headquarters (大本营), the railways drawn apart from the roads, the mountains (山界) and crossings of
the front, the seat's own pieces by name in its colour and every enemy piece as "a piece" — the grid
already hides their ranks, and this names glyphs, never squares' contents — and the last ply. Blue's
seat sees its own half at the bottom."""

from __future__ import annotations

from typing import Any

from ..common.layout import Piece, layout, straight_runs
from ..common.words import ENGLISH, Lang
from .board import TIMEOUT, JunqiBoard
from .geometry import CAMPS, HEADQUARTERS, NAMES, RAIL_SEGMENTS, ROAD_LINKS, ROWS, SIDES, SQUARES
from .pieces import TABLE
from .screen import GLYPHS

# Each token's name and face: Chinese, English.
NAMES_BY_TOKEN = {
    "marshal": ("司令", "marshal", "Mar"),
    "general": ("军长", "general", "Gen"),
    "division": ("师长", "division commander", "Div"),
    "brigade": ("旅长", "brigade commander", "Brig"),
    "regiment": ("团长", "regiment commander", "Regt"),
    "battalion": ("营长", "battalion commander", "Bn"),
    "company": ("连长", "company commander", "Coy"),
    "platoon": ("排长", "platoon leader", "Plt"),
    "engineer": ("工兵", "engineer", "Eng"),
    "mine": ("地雷", "landmine", "Mine"),
    "bomb": ("炸弹", "bomb", "Bomb"),
    "flag": ("军旗", "flag", "Flag"),
}
WORDS = {
    "zh-CN": {
        "board": "棋盘",
        "piece": "敌方棋子",
        "flag": "敌方军旗",
        "flag_face": "旗",
        "camp": "行营",
        "hq": "大本营",
        "mountain": "山界",
    },
    "en": {
        "board": "board",
        "piece": "enemy piece",
        "flag": "enemy flag",
        "flag_face": "Flag",
        "camp": "camp",
        "hq": "headquarters",
        "mountain": "mountains",
    },
}
ROW_STEP = 0.62  # a row's height, a column's width being 1: the board's posts are wide and low
FRONT_GAP = 0.55  # the front between rows 6 and 7, wider than a row


def pieces(side: int, lang: Lang) -> dict[str, Piece]:
    """The seat's own pieces by glyph, and the enemy's two glyphs: a piece, and its flag once shown."""
    words, own, other = WORDS[lang], SIDES[side], SIDES[1 - side]
    out = {}
    for token in TABLE:
        zh, en, face = NAMES_BY_TOKEN[token]
        out[GLYPHS[token]] = Piece(zh if lang != ENGLISH else en, own, zh if lang != ENGLISH else face)
    out[GLYPHS["?"]] = Piece(words["piece"], other)
    out[GLYPHS["shown"]] = Piece(words["flag"], other, words["flag_face"])
    return out


def board_layout(board: object, seat: int, lang: Lang, grid: dict[str, Any]) -> dict[str, Any]:
    """The seat's layout of ``grid``, the board its screen drew."""
    assert isinstance(board, JunqiBoard)
    words = WORDS[lang]
    view = board.seat_view(seat)
    last = view.log[-1].partition(":")[0] if view.log else TIMEOUT
    camps, hqs = {NAMES[sq] for sq in CAMPS}, {NAMES[sq] for sq in HEADQUARTERS}
    posts = {NAMES[sq] for sq in SQUARES} - camps - hqs

    def pairs(links: frozenset[frozenset[int]]) -> list[tuple[str, str]]:
        return [(NAMES[a], NAMES[b]) for a, b in (sorted(link) for link in links)]

    return layout(
        grid,
        name=words["board"],
        pieces=pieces(seat, lang),
        lines=straight_runs(pairs(ROAD_LINKS), grid) + straight_runs(pairs(RAIL_SEGMENTS), grid, "rail"),
        spots=[("box", "", posts), ("ring", "", camps), ("arch", "", hqs)],
        words=[("b6", "b7", words["mountain"]), ("d6", "d7", words["mountain"])],
        empty={GLYPHS["camp"]: words["camp"], GLYPHS["hq"]: words["hq"]},
        path=() if last == TIMEOUT else last.split("-"),
        rows=[i * ROW_STEP + (FRONT_GAP if i >= ROWS // 2 else 0) for i in range(ROWS)],
        size=(0.84, 0.5),
        shape="tile",
        flip=seat == 1,
    )
