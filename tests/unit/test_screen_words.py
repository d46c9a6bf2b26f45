"""Every screen a game draws, in each language (engines/*/words.py, engines/common/words.py): whole
boards played by the AI seats, every seat drawn at every step.

- English screens are byte for byte what they were before the words moved into catalogues (the digests
  in tests/data/screens-en.json were taken from the screens drawn with the words written inline).
- A Chinese screen's words hold no ASCII letter but a card's rank (J, Q, K, A: every run of letters is
  made of those alone, as in ``K♠`` or a full house ``KKK+22``); an English one no CJK character. Card
  tokens (``h``, an option's ``a``) are never translated and are not checked.
- Both languages draw the same screen but for its words: the same hand, as many lines, the same options
  with the same actions and the same selectable cards.
- A Chinese view fits the protocol's 1 KiB (UTF-8: three bytes a character) with the longest lines the
  service adds at a board's start (a 24-character Chinese name, the deal commitment).
- Every catalogue has the same keys in both languages, and its Chinese templates no ASCII letter.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import re
import string
from pathlib import Path
from typing import Any

import pytest
from deckhand.engines.common import words
from deckhand.engines.registry import DEALT_RULESETS as RULESETS
from deckhand.engines.registry import game
from deckhand.service.infra import outgoing
from deckhand.service.infra import words as service_words
from deckhand.service.infra.messaging import encode
from screen_boards import played

ENGLISH_DIGESTS = json.loads((Path(__file__).parents[1] / "data" / "screens-en.json").read_text())
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
LETTERS = re.compile(r"[A-Za-z]+")
RANKS = re.compile(r"[JQKA]+")
CATALOGUES = {
    "common": words.COMMON,
    "service": service_words.SERVICE,
    **{
        name: importlib.import_module(f"deckhand.engines.{name}.words").CATALOGUE
        for name in ("bigtwo", "doudizhu", "guandan", "shengji")
    },
}


def texts(drawn: dict[str, Any] | None) -> list[str]:
    """The words of a screen or an ask: its lines, its prompt, its options' labels."""
    if not drawn:
        return []
    ask = drawn.get("ask", drawn if "o" in drawn else {})
    return [*drawn.get("l", []), *([ask["p"]] if ask else []), *(o["l"] for o in ask.get("o", []))]


def shape(drawn: dict[str, Any] | None) -> Any:
    """A screen without its words."""
    if not drawn:
        return drawn
    ask = drawn.get("ask", drawn if "o" in drawn else None)
    bare = None if ask is None else {**ask, "p": "", "o": [o["a"] for o in ask["o"]]}
    return (drawn.get("h"), len(drawn.get("l", [])), bare)


def assert_chinese(text: str) -> None:
    for run in LETTERS.findall(text):
        assert RANKS.fullmatch(run), (run, text)


def start_lines() -> list[str]:
    """The longest lines the service adds to a board's first view (boards/views.py)."""
    w = service_words.words("zh-CN")
    return [
        outgoing.seat_line(w, "龙" * outgoing.NAME_MAX, 3),
        outgoing.commitment_line(w, "f" * 64),
        outgoing.commitment_line(w, "f" * 64, lot=True),
    ]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_screen_in_both_languages(ruleset: str) -> None:
    spec = game(ruleset)
    assert spec.screen is not None
    digest = hashlib.sha256()
    largest = 0
    for board, action in played(ruleset):
        for seat in range(spec.seats):
            english = spec.screen(board, seat)
            assert spec.screen(board, seat, "en") == english
            chinese = spec.screen(board, seat, "zh-CN")
            digest.update(json.dumps(english, ensure_ascii=False, sort_keys=True).encode() + b"\n")
            assert shape(chinese) == shape(english)
            for text in texts(english):
                assert not CJK.search(text), text
            for text in texts(chinese):
                assert_chinese(text)
            message = outgoing.view(
                ruleset=ruleset,
                board="12",
                round_no=3,
                version=999,
                seat=seat,
                status="playing",
                left_ms=3_600_000,
                screen={**chinese, "l": [*chinese["l"], *start_lines()]},
            )
            largest = max(largest, len(encode(message)))  # under 1 KiB, or it raises
        if action is not None and action.kind == "play" and spec.offer is not None:
            english = spec.offer(board, action, "reading_needed")
            digest.update(json.dumps(english, ensure_ascii=False, sort_keys=True).encode() + b"\n")
            chinese = spec.offer(board, action, "reading_needed", "zh-CN")
            assert shape(chinese) == shape(english)
            for text in texts(chinese):
                assert_chinese(text)
    assert digest.hexdigest() == ENGLISH_DIGESTS[ruleset], "the English screens changed"
    assert largest <= outgoing.MAX_BYTES


@pytest.mark.parametrize("name", sorted(CATALOGUES))
def test_each_catalogue_has_the_same_keys_in_every_language(name: str) -> None:
    catalogue = CATALOGUES[name]
    words.check_catalogue(catalogue)
    formatter = string.Formatter()
    for key, template in catalogue["zh-CN"].items():
        fields = {f for _, f, _, _ in formatter.parse(template) if f}
        english = {f for _, f, _, _ in formatter.parse(catalogue["en"][key]) if f}
        assert fields == english, (name, key)
        bare = "".join(literal for literal, *_ in formatter.parse(template))
        assert not LETTERS.search(bare), (name, key, template)
    for template in catalogue["en"].values():
        assert not CJK.search(template), template


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        words.Words("fr", words.COMMON)  # type: ignore[arg-type]
