"""The words the service itself adds to what a device shows, per language (the games' words are in
their catalogues: engines/*/words.py): whose handset it is, the round's deal commitment, why a board
stopped. Refusals' ``why`` stay English: their ``code`` is the contract a client translates
(docs/protocol.md, Reason codes)."""

from __future__ import annotations

from typing import Any

from ...engines.common.words import ENGLISH, LANGS, Catalogue, Lang, Words

SERVICE: Catalogue = {
    "en": {
        "seat_line": "You: {name} (seat {n})",
        "commitment": "Deal commitment {digits}",
        "commitment.lot": "Lot commitment {digits}",
        "stopped.referee": "board stopped, referee called",
        "stopped.unplayed": "board not played: ended by the referee",
    },
    "zh-CN": {
        "seat_line": "你：{name}（{n}号位）",
        "commitment": "发牌承诺 {digits}",
        "commitment.lot": "抽签承诺 {digits}",
        "stopped.referee": "本副牌已暂停，已呼叫裁判",
        "stopped.unplayed": "本副牌未打：裁判已结束",
    },
}


def lang_of(value: Any) -> Lang:
    """A stored language, English for none (or one no longer known)."""
    for lang in LANGS:
        if value == lang:
            return lang
    return ENGLISH


def words(lang: Lang = ENGLISH) -> Words:
    return Words(lang, SERVICE)


def seat_lang(langs: dict[str, Any] | None, seat: int) -> Lang:
    """The language of a seat's device on a board (BoardStateItem.langs)."""
    return lang_of((langs or {}).get(str(seat)))
