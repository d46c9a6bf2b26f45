"""The results site's catalogue (local/deckhand_local/site/words.py): every word in both languages,
the same placeholders in each, and every key a page or the model asks for is there."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from deckhand.competition.artificial import Artificial
from deckhand.competition.grades import UNRATED
from deckhand.competition.matchplay.ranking import Step
from deckhand.engines.spec import TieBreak
from deckhand.service.organiser.match_settings import MatchFormat
from deckhand_local.site import model
from deckhand_local.site.words import CATALOGUE, EN, LANGS, ZH, Words

SITE = Path(model.__file__).parent


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_key_is_in_both_languages_with_the_same_placeholders():
    assert LANGS[0] == ZH, "Chinese is the default"
    keys = set(CATALOGUE[ZH])
    for lang in LANGS:
        assert set(CATALOGUE[lang]) == keys, (lang, set(CATALOGUE[lang]) ^ keys)
    for key in keys:
        texts = [CATALOGUE[lang][key] for lang in LANGS]
        assert all(t.strip() for t in texts), f"{key} is empty in a language"
        if key != "date.format":  # a date is given every part (words.py Words.date); each uses its own
            assert len({frozenset(_fields(t)) for t in texts}) == 1, f"{key}: placeholders differ"


def test_every_key_the_pages_and_the_model_ask_for_is_in_the_catalogue():
    literal = re.compile(r"""\bw\(\s*['"]([a-z_.0-9]+)['"]""")
    asked = set()
    for path in [*SITE.glob("templates/*.html"), SITE / "model.py", SITE / "build.py"]:
        asked |= set(literal.findall(path.read_text()))
    assert len(asked) > 80
    assert not asked - set(CATALOGUE[ZH]), asked - set(CATALOGUE[ZH])


@pytest.mark.parametrize("lang", LANGS)
def test_every_tie_break_step_and_adjustment_the_service_reports_has_words(lang):
    words = CATALOGUE[lang]
    for step in TieBreak:
        assert f"tiebreak.{step.value}" in words and f"tiebreak_explained.{step.value}" in words
    for rstep in Step:
        if rstep is not Step.NONE:
            assert f"ranking.{rstep.value}" in words and f"ranking_explained.{rstep.value}" in words
    for kind in Artificial:
        assert f"artificial.{kind.value}" in words
    for fmt in MatchFormat:
        assert f"format.{fmt.value}" in words
    assert f"grade.{UNRATED}" in words


def test_the_words_differ_by_language_and_a_missing_one_is_an_error():
    zh, en = Words(ZH), Words(EN)
    assert zh("tiebreak.beaten_opponents") != en("tiebreak.beaten_opponents")
    assert zh.card("HT") == "红桃10" and en.card("HT") == "10 of hearts" and zh.card("RJ") == "大王"
    assert zh.date("2026-11-26") == "2026年11月26日" and en.date("2026-11-26T09:00") == "26 November 2026"
    assert zh.date("next spring") == "next spring"
    with pytest.raises(KeyError):
        zh("no.such.key")
    with pytest.raises(ValueError, match="no words"):
        Words("fr")
