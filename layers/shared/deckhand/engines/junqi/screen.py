"""Junqi's handset screen, for now in text lines, drawn from the seat's view alone (so it can tell
nothing the view does not): the board row by row (row 12 at the top) with the seat's own pieces by
name and the other side's as unknown marks (a shown flag as the flag), the last ply and its outcome,
whose move it is and how the game ended. While the seat has not set up, the ask offers setups (its
player's last one first, when saved)."""

from __future__ import annotations

from typing import Any

from ..common.screen import ask, option
from ..common.words import ENGLISH, Lang
from .board import NOBODY, OFFERED, PLAY, SETUP, TIMEOUT, JunqiBoard, SeatView
from .geometry import CAMPS, COLUMNS, HEADQUARTERS, INDEX, ROWS, SIDES, WIDTH
from .pieces import FLAG, TOKENS
from .setup import random_setup, sound_setup

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "red": "Red",
        "blue": "Blue",
        "you": "you play {side}",
        "waiting": "waiting for {side}'s setup",
        "last": "last: {ply}",
        "to_move": "{side} to move",
        "won": "{side} wins ({why})",
        "drawn": "a draw ({why})",
        "quiet": "plies without a capture: {n}",
        "timeouts": "timeouts: Red {red}, Blue {blue}",
        "prompt": "send your setup",
        "standard": "Standard setup",
        "random": "Random setup",
        "mine": "My last setup",
        "attacker": "attacker won",
        "defender": "defender held",
        "both": "both removed",
        "timeout": "timed out",
    },
    "zh-CN": {
        "red": "红方",
        "blue": "蓝方",
        "you": "你执{side}",
        "waiting": "等待{side}布阵",
        "last": "上一步：{ply}",
        "to_move": "轮到{side}走棋",
        "won": "{side}胜（{why}）",
        "drawn": "和棋（{why}）",
        "quiet": "未吃子步数：{n}",
        "timeouts": "超时：红方 {red}，蓝方 {blue}",
        "prompt": "请布阵",
        "standard": "标准布阵",
        "random": "随机布阵",
        "mine": "我上次的布阵",
        "attacker": "进攻方胜",
        "defender": "防守方胜",
        "both": "同归于尽",
        "timeout": "超时",
    },
}
# Each token's mark on the board, then the marks of an unknown enemy piece, an empty camp, HQ and post.
MARKS = {
    "en": dict(
        zip(TOKENS, ["Ma", "Ge", "Di", "Br", "Re", "Bn", "Co", "Pl", "En", "Mi", "Bo", "Fl"], strict=True)
    )
    | {"?": "??", "camp": "()", "hq": "HQ", "post": ".."},
    "zh-CN": dict(zip(TOKENS, "司军师旅团营连排工雷炸旗", strict=True))
    | {"?": "？", "camp": "〇", "hq": "营", "post": "＋"},
}


def screen(board: object, seat: int, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The screen of ``seat`` in ``lang`` (docs/protocol.md: ``h``, ``l``, ``ask``): no hand, the lines."""
    assert isinstance(board, JunqiBoard)
    drawn = draw(board.seat_view(seat), lang)
    if board.phase == SETUP and seat in board.pending():
        words = WORDS[lang]
        # Each offered setup by its place in the seat's choices (its player's last first, when saved:
        # the seat's own, never the other's): three whole setups would not fit a 1 KiB message.
        labels = {
            "mine": board.last[seat],
            "random": random_setup(board.seed, seat),
            "standard": sound_setup(seat),
        }
        choices = board.setup_choices(seat)
        numbers = {label: choices.index(p) + 1 for label, p in labels.items() if p is not None}
        drawn["ask"] = ask(
            words["prompt"],
            [
                option(words[label], "setup", data={OFFERED: n})
                for label, n in numbers.items()
                if n not in list(numbers.values())[: list(numbers).index(label)]  # one label a setup
            ],
        )
    return drawn


def draw(view: SeatView, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The lines from the seat's view alone."""
    words, marks = WORDS[lang], MARKS[lang]
    other = 1 - view.seat
    cells: dict[str, str] = dict(view.pieces)
    cells.update({sq: "?" for sq in view.enemy})
    shown = view.flag_shown[other]
    if shown is not None:
        cells[shown] = FLAG  # D8: the one enemy piece a seat is shown
    lines = [words["you"].format(side=words[view.side])]
    for r in range(ROWS, 0, -1):
        row = []
        for c in range(WIDTH):
            sq = f"{COLUMNS[c]}{r}"
            empty = "camp" if INDEX[sq] in CAMPS else "hq" if INDEX[sq] in HEADQUARTERS else "post"
            row.append(marks[cells.get(sq, empty)])
        lines.append(f"{r:>2} {' '.join(row)}")
    lines.append("   " + "  ".join(COLUMNS))
    if view.log:
        ply, _, outcome = view.log[-1].partition(":")
        text = words[TIMEOUT] if ply == TIMEOUT else ply + (f" {words[outcome]}" if outcome else "")
        lines.append(words["last"].format(ply=text))
    if view.phase == SETUP:
        lines += [words["waiting"].format(side=words[SIDES[s]]) for s in range(2) if not view.ready[s]]
    elif view.phase == PLAY:
        lines.append(words["to_move"].format(side=words[SIDES[view.turn]]))
    elif view.winner != NOBODY:
        lines.append(words["won"].format(side=words[SIDES[view.winner]], why=view.why))
    else:
        lines.append(words["drawn"].format(why=view.why))
    if view.quiet:
        lines.append(words["quiet"].format(n=view.quiet))
    if any(view.timeouts):
        lines.append(words["timeouts"].format(red=view.timeouts[0], blue=view.timeouts[1]))
    return {"h": [], "l": lines}
