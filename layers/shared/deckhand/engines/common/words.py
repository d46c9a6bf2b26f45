"""The words a seat's screen is drawn in, per language: a catalogue of templates by key for what every
game's screen says (this module's ``COMMON``), one more per game (``engines/<game>/words.py``), and
:class:`Words`, one language's templates looked up and filled.

A device says its language (docs/protocol.md, ``hello``'s ``lang``); one that never says gets English,
the language the handsets' fonts can show. Card tokens are never translated (the hand ``h``, the data
of an option ``d``); cards written in a line read as people write them: rank then suit symbol, the
ranks J Q K A as letters in every language, the jokers as words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..contract import ENGLISH as ENGLISH
from ..contract import LANGS as LANGS
from ..contract import Lang as Lang
from .cards import format_cards

# A catalogue: language → key → template (``str.format`` fields in braces); every language the same keys.
Catalogue = Mapping[Lang, Mapping[str, str]]

SYMBOLS = {"S": "\u2660", "H": "\u2665", "C": "\u2663", "D": "\u2666"}

COMMON: Catalogue = {
    "en": {
        "you": "you",
        "seat": "seat {n}",
        "You": "You",
        "Seat": "Seat {n}",
        "sep": ", ",
        "joker.BJ": "BJ",
        "joker.RJ": "RJ",
        "more": "\u2026, ",
        "trick": "Trick: {more}{plays}",
        "trick.play": "{who} {cards}",
        "trick.pass": "{who} pass",
        "cards": "Cards: {counts}",
        "cards.last": "  last card: {who}",
        "scores": "Scores: {scores}",
        "opt.play": "Play",
        "opt.pass": "Pass",
        "beat": "Beat {who}'s {combo} or pass",
        "combo.play": "play",
        "board_over": "Board over",
        "over.you": "Board over: you won",
        "over.seat": "Board over: seat {n} won",
        "to_play": "{Who} to play",
        "to_lead": "{Who} to lead",
        "your_lead": "Your lead",
        "referee.warning": "warning",
        "referee.violation": "violation",
        "referee.foul": "foul",
        "referee.forfeit": "forfeit",
        "referee.disqualify": "disqualify",
        "timeout": " (timeout)",
    },
    "zh-CN": {
        "you": "你",
        "seat": "{n}号位",
        "You": "你",
        "Seat": "{n}号位",
        "sep": "，",
        "joker.BJ": "小王",
        "joker.RJ": "大王",
        "more": "\u2026，",
        "trick": "本轮：{more}{plays}",
        "trick.play": "{who} {cards}",
        "trick.pass": "{who} 不出",
        "cards": "剩牌：{counts}",
        "cards.last": "  报单：{who}",
        "scores": "得分：{scores}",
        "opt.play": "出牌",
        "opt.pass": "不出",
        "beat": "压过{who}的{combo}，或不出",
        "combo.play": "牌",
        "board_over": "本副牌结束",
        "over.you": "本副牌结束：你赢了",
        "over.seat": "本副牌结束：{n}号位赢了",
        "to_play": "{Who}出牌",
        "to_lead": "{Who}首出",
        "your_lead": "你首出",
        "referee.warning": "警告",
        "referee.violation": "违例",
        "referee.foul": "犯规",
        "referee.forfeit": "判负",
        "referee.disqualify": "取消资格",
        "timeout": "（超时）",
    },
}


class Words:
    """One language's words for a screen: the common templates and a game's, by key."""

    def __init__(self, lang: Lang, *catalogues: Catalogue) -> None:
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGS)}")
        self.lang = lang
        self._templates: dict[str, str] = {}
        for catalogue in (COMMON, *catalogues):
            self._templates.update(catalogue[lang])

    def __call__(self, key: str, /, **values: Any) -> str:
        return self._templates[key].format(**values)

    def seat(self, seat: int, me: int) -> str:
        """A seat as the line names it: "you" for the screen's own seat."""
        return self("you") if seat == me else self("seat", n=seat)

    def Seat(self, seat: int, me: int) -> str:  # noqa: N802 - the capitalised form, at a line's start
        return self("You") if seat == me else self("Seat", n=seat)

    def seats(self, seats: Iterable[int], me: int) -> str:
        return self.join(self.seat(s, me) for s in seats)

    def join(self, parts: Iterable[str]) -> str:
        return self("sep").join(parts)

    def card(self, card: int) -> str:
        """A card as people read it on a small display: rank then suit symbol (10 for T); the jokers."""
        token = format_cards([card])[0]
        if token in ("BJ", "RJ"):
            return self("joker." + token)
        rank = "10" if token[1] == "T" else token[1]
        return rank + SYMBOLS[token[0]]

    def cards(self, cards: Iterable[int]) -> str:
        return " ".join(self.card(c) for c in cards)


def check_catalogue(catalogue: Catalogue) -> None:
    """Every language has the same keys (a test runs this on every catalogue)."""
    keys = {lang: set(catalogue[lang]) for lang in LANGS}
    for lang in LANGS:
        if keys[lang] != keys[ENGLISH]:
            raise AssertionError(f"{lang}: keys differ from English: {sorted(keys[lang] ^ keys[ENGLISH])}")
