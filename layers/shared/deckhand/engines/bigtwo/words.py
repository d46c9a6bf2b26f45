"""Big Two's words on a seat's screen, per language (engines/common/words.py: how they are used)."""

from __future__ import annotations

from ..common.words import Catalogue

CATALOGUE: Catalogue = {
    "en": {
        "shown": "Shown: {who}",
        "doubled": "Doubled: {who}",
        "marks.sep": "  ",
        "shows": "Seat {n} shows: {cards}",
        "show_phase": "Show phase: waiting for {who}",
        "double_phase": "Double phase: {who} to decide",
        "ask.show": "Show your hand? (stakes x3)",
        "opt.show": "Show",
        "opt.no_show": "Don't show",
        "ask.double": "Double? (stakes x2)",
        "opt.double": "Double",
        "opt.no_double": "Don't double",
        "lead.open": "Your lead: play the 3\u2666",
        "combo.single": "single",
        "combo.pair": "pair",
        "combo.triple": "triple",
        "combo.straight": "straight",
        "combo.flush": "flush",
        "combo.full_house": "full house",
        "combo.four_of_a_kind": "four of a kind",
        "combo.straight_flush": "straight flush",
    },
    "zh-CN": {
        "shown": "明牌：{who}",
        "doubled": "加倍：{who}",
        "marks.sep": "  ",
        "shows": "{n}号位明牌：{cards}",
        "show_phase": "明牌阶段：等待{who}",
        "double_phase": "加倍阶段：{who}选择",
        "ask.show": "明牌吗？（分数×3）",
        "opt.show": "明牌",
        "opt.no_show": "不明牌",
        "ask.double": "加倍吗？（分数×2）",
        "opt.double": "加倍",
        "opt.no_double": "不加倍",
        "lead.open": "你首出：须出方块3",
        "combo.single": "单张",
        "combo.pair": "对子",
        "combo.triple": "三条",
        "combo.straight": "顺子",
        "combo.flush": "同花",
        "combo.full_house": "葫芦",
        "combo.four_of_a_kind": "四条",
        "combo.straight_flush": "同花顺",
    },
}
