"""Junqi's handset screen, drawn from the seat's view alone (so it can tell nothing the view does not):
the board as a grid (docs/protocol.md, "Boards": row 12 at the top) with the seat's own pieces by rank
and the other side's as ``?`` (a shown flag as ``f``), the last ply's squares marked; a legend, the
last ply and its outcome, whose move it is and how the game ended. While the seat has not set up, the
ask offers setups (its player's last one first, when saved); on its move, the move (two squares picked)."""

from __future__ import annotations

from typing import Any

from ..common.grid import MOVE, grid, move_option, square_names
from ..common.screen import ask, option
from ..common.words import ENGLISH, Lang
from .board import NOBODY, OFFERED, PLAY, SETUP, TIMEOUT, JunqiBoard, SeatView
from .geometry import CAMPS, COLUMNS, HEADQUARTERS, INDEX, ROWS, SIDES, WIDTH
from .pieces import TABLE
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
        "legend": "you: 9 marshal..1 engineer, B bomb, M mine, F flag; ? enemy; o camp, H HQ",
        "move_prompt": "your move: pick a piece, then its square",
        "move": "Move",
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
        "legend": "己方：9司令…1工兵，B炸弹，M地雷，F军旗；?敌子；o行营，H大本营",
        "move_prompt": "请走棋：先选棋子，再选落点",
        "move": "走棋",
    },
}
# Each piece's glyph on the grid (by rank; ASCII: the handset's font has no other), then the glyphs of an
# unknown enemy piece, the enemy flag once shown, an empty camp, headquarters and post.
GLYPHS = {token: str(rank) if rank else token[0].upper() for token, (_, rank) in TABLE.items()} | {
    "?": "?",
    "shown": "f",
    "camp": "o",
    "hq": "H",
    "post": ".",
}


def screen(board: object, seat: int, lang: Lang = ENGLISH) -> dict[str, Any]:
    """The screen of ``seat`` in ``lang`` (docs/protocol.md: ``h``, ``l``, ``ask``): no hand, the lines."""
    assert isinstance(board, JunqiBoard)
    drawn = draw(board.seat_view(seat), lang)
    words = WORDS[lang]
    if board.phase == PLAY and seat in board.pending():
        legal = board.legal_actions(seat)
        cells = square_names(drawn["grid"])
        drawn["grid"]["s"] = sorted({cells[a.data["from"]] for a in legal if a.kind == MOVE})
        drawn["ask"] = ask(words["move_prompt"], [move_option(words["move"], ("from", "to"))])
    if board.phase == SETUP and seat in board.pending():
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
    words = WORDS[lang]
    other = 1 - view.seat
    cells: dict[str, str] = dict(view.pieces)
    cells.update({sq: "?" for sq in view.enemy})
    shown = view.flag_shown[other]
    if shown is not None:
        cells[shown] = "shown"  # D8: the one enemy piece a seat is shown
    lines = [words["you"].format(side=words[view.side]), words["legend"]]
    rows = []
    for r in range(ROWS, 0, -1):
        row = []
        for c in range(WIDTH):
            sq = f"{COLUMNS[c]}{r}"
            empty = "camp" if INDEX[sq] in CAMPS else "hq" if INDEX[sq] in HEADQUARTERS else "post"
            row.append(GLYPHS[cells.get(sq, empty)])
        rows.append("".join(row))
    last = view.log[-1].partition(":")[0] if view.log else TIMEOUT
    board = grid(
        rows,
        ROWS,
        "{x}{y}",
        COLUMNS,
        [] if last == TIMEOUT else last.split("-"),
    )
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
    return {"h": [], "l": lines, "grid": board, "legend": 1}  # lines[1]: the legend
